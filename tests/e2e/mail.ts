import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "@playwright/test";
import { MAIL_DIR } from "./config";

/** Decodes a quoted-printable or plain body well enough to find URLs in it. */
function decodeBody(raw: string): string {
  const [head = "", ...rest] = raw.split(/\r?\n\r?\n/);
  const body = rest.join("\n\n");
  if (/content-transfer-encoding:\s*quoted-printable/i.test(head)) {
    return body
      .replace(/=\r?\n/g, "")
      .replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
  }
  if (/content-transfer-encoding:\s*base64/i.test(head))
    return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  return body;
}

/** Waits for the newest mail to `to` and returns its raw text and decoded body. */
export async function waitForMail(to: string) {
  let found: string | undefined;
  await expect
    .poll(
      () => {
        const files = readdirSync(MAIL_DIR)
          .filter((f) => f.endsWith(`-${to}.eml`))
          .sort();
        found = files.at(-1);
        return found;
      },
      { timeout: 10_000 },
    )
    .toBeTruthy();
  const raw = readFileSync(path.join(MAIL_DIR, found!), "utf8");
  return { raw, body: decodeBody(raw) };
}

export function mailCount(to: string): number {
  return readdirSync(MAIL_DIR).filter((f) => f.endsWith(`-${to}.eml`)).length;
}
