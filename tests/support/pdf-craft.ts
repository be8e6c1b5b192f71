/**
 * Small PDF files made byte by byte for the tests of slides brought in from a PDF: `pages` pages of 4:3 slides,
 * each a coloured band and its number in Helvetica; `password: true` adds a standard security handler whose
 * user password is not empty, so a reader asks for a password and draws nothing.
 */
export function craftPdf(options: { pages: number; password?: boolean }): Buffer {
  const objects: string[] = [];
  const add = (body: string) => objects.push(body) + 0;
  const pageIds = Array.from({ length: options.pages }, (_, i) => 4 + i * 2);
  add("<< /Type /Catalog /Pages 2 0 R >>");
  add(`<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(" ")}] /Count ${options.pages} >>`);
  add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
  for (let n = 1; n <= options.pages; n++) {
    const stream = `0.2 0.4 0.8 rg 0 480 800 120 re f BT /F1 96 Tf 0 0 0 rg 80 200 Td (Page ${n}) Tj ET`;
    const contents = 4 + (n - 1) * 2 + 1;
    add(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 800 600] /Resources << /Font << /F1 3 0 R >> >> /Contents ${contents} 0 R >>`,
    );
    add(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
  }
  const encrypt = options.password
    ? add(`<< /Filter /Standard /V 1 /R 2 /O <${"ab".repeat(32)}> /U <${"cd".repeat(32)}> /P -4 >>`)
    : 0;
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, "latin1"));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, "latin1");
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("");
  const id = `<${"01".repeat(16)}>`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /ID [${id} ${id}]${encrypt ? ` /Encrypt ${encrypt} 0 R` : ""} >>\n`;
  out += `startxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}
