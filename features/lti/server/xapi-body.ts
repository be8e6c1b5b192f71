import "server-only";
import { deflateSync, inflateSync } from "node:zlib";

/**
 * A statement's JSON as xapi_statements.body holds it: deflated (a zlib stream), about half the JSON's size, so that
 * the log each save's commit waits for carries half as much of the workers' writes (features/lti/README.md "Learning
 * records").
 */
export const packStatement = (json: string): Buffer => deflateSync(json);

/** A zlib stream's first byte (deflate, 32 KiB window); a JSON object's is "{". */
const ZLIB = 0x78;

/**
 * The JSON text of a stored body: the zlib stream inflated, or, for a statement stored before statements were
 * deflated (its migration kept the JSON's UTF-8 text), that text.
 */
export function statementJson(body: Uint8Array): string {
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  return (bytes[0] === ZLIB ? inflateSync(bytes) : bytes).toString("utf8");
}
