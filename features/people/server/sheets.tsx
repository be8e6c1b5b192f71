// No "server-only" here: the PDF is rendered in a child process (sheets-worker.mjs, queued by
// sheets-render.ts), which loads this file outside Next's server bundle.
import path from "node:path";
import { Document, Font, Page, Path, pdf, StyleSheet, Svg, Text, View } from "@react-pdf/renderer";
import QRCode from "qrcode";

/**
 * A4 sign-in sheets (docs/product-design.md "Students and sign-in sheets"): 2 × 4 cards per
 * page with dashed cut lines; each card has the student's name (with its
 * reading when asked), class and number, school, the QR code, and a line
 * telling the student to keep the card like a password. Japanese is set in an
 * embedded Noto Sans JP (docs/toolchain.md).
 */
export interface SheetCard {
  name: string;
  reading: string | null;
  classLine: string;
  school: string;
  url: string;
}

export interface SheetTexts {
  keepSecret: string;
  howTo: string;
}

let fontsReady = false;
function registerFonts() {
  if (fontsReady) return;
  const dir = path.join(process.cwd(), "node_modules/@expo-google-fonts/noto-sans-jp");
  Font.register({
    family: "NotoSansJP",
    fonts: [
      { src: path.join(dir, "400Regular/NotoSansJP_400Regular.ttf"), fontWeight: 400 },
      { src: path.join(dir, "700Bold/NotoSansJP_700Bold.ttf"), fontWeight: 700 },
    ],
  });
  // Japanese has no spaces: allow a break between any two characters.
  Font.registerHyphenationCallback((word) =>
    Array.from(word)
      .flatMap((ch) => [ch, ""])
      .slice(0, -1),
  );
  fontsReady = true;
}

const styles = StyleSheet.create({
  page: { fontFamily: "NotoSansJP", padding: 0, flexDirection: "row", flexWrap: "wrap" },
  card: {
    width: "50%",
    height: "25%",
    padding: 16,
    borderStyle: "dashed",
    borderColor: "#9aa5ab",
    borderWidth: 0.7,
    flexDirection: "row",
    alignItems: "center",
  },
  text: { flex: 1, paddingRight: 8 },
  reading: { fontSize: 9, color: "#333" },
  name: { fontSize: 17, fontWeight: 700 },
  line: { fontSize: 10, marginTop: 4 },
  note: { fontSize: 8, marginTop: 8, color: "#333" },
  qr: { width: 118, height: 118 },
});

function QrCode({ qr }: { qr: { d: string; size: number } }) {
  return (
    <Svg style={styles.qr} viewBox={`0 0 ${qr.size} ${qr.size}`}>
      <Path d={qr.d} fill="#000000" />
    </Svg>
  );
}

export const CARDS_PER_PAGE = 8;
export const MAX_CARDS = 1000;

/**
 * A QR code as one vector path (each row's runs of dark modules as
 * rectangles) with its size in modules including a one-module quiet zone.
 * Vector QR codes print sharp at any size and cost a fraction of a PNG each
 * (1,000 PNGs took 17 s; the paths take well under one).
 */
export function qrPath(url: string): { d: string; size: number } {
  const { modules } = QRCode.create(url, { errorCorrectionLevel: "M" });
  const n = modules.size;
  const parts: string[] = [];
  for (let y = 0; y < n; y++) {
    let x = 0;
    while (x < n) {
      if (!modules.get(y, x)) {
        x++;
        continue;
      }
      const start = x;
      while (x < n && modules.get(y, x)) x++;
      parts.push(`M${start + 1} ${y + 1}h${x - start}v1h${start - x}z`);
    }
  }
  return { d: parts.join(""), size: n + 2 };
}

export async function renderSigninSheets(cards: SheetCard[], texts: SheetTexts): Promise<Buffer> {
  registerFonts();
  const qrs = cards.map((c) => qrPath(c.url));
  const pages: SheetCard[][] = [];
  for (let i = 0; i < cards.length; i += CARDS_PER_PAGE) pages.push(cards.slice(i, i + CARDS_PER_PAGE));
  const doc = (
    <Document title="Manabiya sign-in cards" author="Manabiya">
      {pages.map((page, p) => (
        <Page key={p} size="A4" style={styles.page}>
          {page.map((card, i) => (
            <View key={i} style={styles.card} wrap={false}>
              <View style={styles.text}>
                {card.reading ? <Text style={styles.reading}>{card.reading}</Text> : null}
                <Text style={styles.name}>{card.name}</Text>
                <Text style={styles.line}>{card.classLine}</Text>
                <Text style={styles.line}>{card.school}</Text>
                <Text style={styles.note}>{texts.howTo}</Text>
                <Text style={styles.note}>{texts.keepSecret}</Text>
              </View>
              <QrCode qr={qrs[p * CARDS_PER_PAGE + i]!} />
            </View>
          ))}
        </Page>
      ))}
    </Document>
  );
  // renderToBuffer() never unmounts its tree, and react-pdf's one reconciler keeps every
  // root it mounted: each 1,000-card print left ~12 MB on the heap (npm run bench measures
  // the heap after five prints). Render, then unmount and let go of the document.
  const instance = pdf(doc);
  try {
    const stream = await instance.toBuffer();
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  } finally {
    // twice: the root's other (alternate) fiber still holds the previous element after one
    instance.updateContainer(null as never);
    instance.updateContainer(null as never);
    // the container outlives the render (the reconciler keeps it) and unmounting does not clear it
    (instance as unknown as { container: { document: unknown } }).container.document = null;
  }
}
