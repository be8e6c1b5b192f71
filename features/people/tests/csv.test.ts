import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import { checkCsv, csvTemplate, decodeCsv, MAX_CSV_BYTES, MAX_CSV_ROWS, parseCsv } from "@/features/people/shared/csv";

const utf8 = (s: string) => new TextEncoder().encode(s);
const sjis = (s: string) => new Uint8Array(iconv.encode(s, "Shift_JIS"));
const HEADER = "学年,組,番号,氏名,ふりがな,ニックネーム,メールアドレス,グループ\r\n";

describe("CSV decoding", () => {
  it("reads UTF-8 with and without a BOM, and Shift_JIS as Excel in Japan writes it", () => {
    const text = "氏名,ふりがな\r\n髙橋 一郎,たかはし いちろう\r\n";
    expect(decodeCsv(utf8(`\uFEFF${text}`))).toBe(text);
    expect(decodeCsv(utf8(text))).toBe(text);
    expect(decodeCsv(sjis(text))).toBe(text); // 髙 is a Windows-31J extension: Excel writes it, the decoder reads it
    expect(decodeCsv(sjis("斉藤 花子"))).toBe("斉藤 花子");
  });

  it("parses quoted fields with commas, doubled quotes and line breaks, keeping each record's first line number", () => {
    const records = parseCsv('a,b\r\n"x, y","say ""hi"""\n\n"multi\nline",z\n');
    expect(records).toEqual([
      { line: 1, fields: ["a", "b"] },
      { line: 2, fields: ["x, y", 'say "hi"'] },
      { line: 4, fields: ["multi\nline", "z"] },
    ]);
  });
});

describe("CSV checks", () => {
  it("accepts the template itself", () => {
    const result = checkCsv(utf8(csvTemplate()));
    expect(result.ok && result.rows.map((r) => [r.line, r.errors])).toEqual([[2, []]]);
  });

  it("reads an optional display-language column (ids or the switcher's words); an unknown language is a row error", () => {
    const csv =
      "学年,組,番号,氏名,表示のことば\r\n" +
      "1,1,1,一年 花子,ひらがな\r\n" +
      "1,1,2,一年 次郎,ja\r\n" +
      "1,1,3,一年 三郎,\r\n" +
      "1,1,4,一年 四郎,klingon\r\n";
    const result = checkCsv(utf8(csv));
    expect(result.ok && result.rows.map((r) => [r.input?.displayLanguage, r.errors])).toEqual([
      ["ja-kana", []],
      ["ja", []],
      [null, []],
      [undefined, ["badLanguage"]],
    ]);
  });

  it("reports each bad row with its line and reason", () => {
    const csv =
      HEADER +
      "1,1,1,山田 花子,やまだ はなこ,,hanako@example.jp,A\r\n" +
      "1,1,2,,,,,\r\n" + // missing name
      "1,,3,佐藤 健,,,,\r\n" + // bad class
      "1,1,4,鈴木 一,,,HANAKO@example.jp,\r\n" + // duplicate e-mail in the file (case-insensitive)
      "1,1,1,田中 二郎,,,,\r\n" + // same seat as line 2
      "1,1,6,伊藤 三,,,not-an-email,\r\n" +
      "1,1,7,渡辺 四,Watanabe,,,\r\n" +
      "1,1,8,小林 五,,,taken@example.jp,\r\n";
    const result = checkCsv(utf8(csv), { emails: new Set(["taken@example.jp"]), seats: new Set() });
    if (!result.ok) throw new Error(result.error);
    expect(result.rows.map((r) => [r.line, r.errors])).toEqual([
      [2, []],
      [3, ["missingName"]],
      [4, ["badClass"]],
      [5, ["duplicateEmail"]],
      [6, ["duplicateSeat"]],
      [7, ["badEmail"]],
      [8, ["badKana"]],
      [9, ["emailInUse"]],
    ]);
    expect(result.rows[0]!.input).toMatchObject({
      name: "山田 花子",
      grade: 1,
      className: "1",
      number: 1,
      email: "hanako@example.jp",
      group: "A",
    });
  });

  it("refuses files past the bounds, without a header, or without rows", () => {
    expect(checkCsv(new Uint8Array(MAX_CSV_BYTES + 1))).toEqual({ ok: false, error: "tooLarge" });
    const many =
      HEADER + Array.from({ length: MAX_CSV_ROWS + 1 }, (_, i) => `1,1,${(i % 99) + 1},生徒 ${i},,,,`).join("\n");
    expect(checkCsv(utf8(many))).toEqual({ ok: false, error: "tooManyRows" });
    expect(checkCsv(utf8("名前だけ\n山田\n"))).toEqual({ ok: false, error: "noHeader" });
    expect(checkCsv(utf8(HEADER))).toEqual({ ok: false, error: "empty" });
    expect(checkCsv(utf8(""))).toEqual({ ok: false, error: "empty" });
  });

  it("accepts English headers in any order", () => {
    const result = checkCsv(utf8("name,number,class,grade\nAoi,3,2,4\n"));
    expect(result.ok && result.rows[0]!.input).toMatchObject({ name: "Aoi", grade: 4, className: "2", number: 3 });
  });
});
