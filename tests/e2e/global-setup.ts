import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { SMTPServer } from "smtp-server";
import { E2E_SMTP_PORT, MAIL_DIR } from "./config";
import { startOidcProvider } from "./oidc-provider";

/**
 * Services the app under test talks to: a local SMTP server (every mail lands
 * in MAIL_DIR as an .eml file) and a local OpenID provider standing in for Google.
 */
export default async function globalSetup() {
  rmSync(MAIL_DIR, { recursive: true, force: true });
  mkdirSync(MAIL_DIR, { recursive: true });
  let n = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const to = session.envelope.rcptTo.map((r) => r.address).join(",");
        writeFileSync(path.join(MAIL_DIR, `${Date.now()}-${++n}-${to}.eml`), Buffer.concat(chunks));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(E2E_SMTP_PORT, "127.0.0.1", resolve));
  const stopOidc = await startOidcProvider();
  return async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await stopOidc();
  };
}
