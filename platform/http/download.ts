/** A value for filename*: percent-encoded UTF-8, with the ' ( ) * ! that encodeURIComponent leaves but RFC 5987 does not allow. */
const rfc5987 = (text: string) =>
  encodeURIComponent(text).replace(/['()*!]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * The response headers of a downloaded file: its type, and its name in the
 * user's language (RFC 5987 filename*), with an ASCII name for old clients.
 */
export function attachmentHeaders(contentType: string, ascii: string, name: string) {
  const disposition = `attachment; filename="${ascii}"; filename*=UTF-8''${rfc5987(name)}`;
  return { "Content-Type": contentType, "Content-Disposition": disposition, "Cache-Control": "no-store" };
}
