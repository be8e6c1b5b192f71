import { describe, expect, it } from "vitest";
import { MAX_UPLOAD_BYTES_IN_FLIGHT, readUploadBytes, uploadBytesInFlight } from "@/lib/http";

const MiB = 1024 * 1024;
const CHUNK = 64 * 1024;

/** An upload whose client sends `bytes` of its body and then says nothing more (until `drop`: the connection times out). */
function stalledUpload(bytes: number, declared = true) {
  let sent = 0;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start: (c) => {
      controller = c;
    },
    pull: (c) => {
      if (sent >= bytes) return new Promise<void>(() => undefined);
      sent += CHUNK;
      c.enqueue(new Uint8Array(CHUNK).fill(7));
    },
  });
  const req = new Request("https://school.example/api/v1/images", {
    method: "POST",
    body,
    duplex: "half",
    headers: declared ? { "content-length": String(bytes) } : {},
  } as RequestInit);
  return { req, drop: () => controller.error(new Error("request timeout")) };
}

describe("upload bodies in flight", () => {
  it("100 uploads that stall after 4 MiB hold at most the in-flight cap: the others are told to wait at once, and a dropped connection gives its bytes back", async () => {
    const uploads = Array.from({ length: 100 }, () => stalledUpload(4 * MiB));
    const outcomes: string[] = [];
    const reads = uploads.map((u) =>
      readUploadBytes(u.req, 5 * MiB).then(
        (r) => outcomes.push(r.ok ? "ok" : r.problem),
        () => outcomes.push("dropped"),
      ),
    );
    // all but the few that fit under the cap are refused without waiting for their bodies
    await expect.poll(() => outcomes.filter((o) => o === "busy").length, { timeout: 30_000 }).toBeGreaterThanOrEqual(100 - Math.ceil(MAX_UPLOAD_BYTES_IN_FLIGHT / (4 * MiB)) - 1);
    expect(uploadBytesInFlight()).toBeLessThanOrEqual(MAX_UPLOAD_BYTES_IN_FLIGHT);
    expect(uploadBytesInFlight()).toBeGreaterThan(MAX_UPLOAD_BYTES_IN_FLIGHT / 2);
    expect(outcomes).not.toContain("ok");

    // meanwhile a whole image cannot be held: it is told to wait too
    const now = await readUploadBytes(new Request("https://school.example/", { method: "POST", body: new Uint8Array(MiB) }), 5 * MiB);
    expect(now).toEqual({ ok: false, problem: "busy" });

    for (const u of uploads) u.drop();
    await Promise.all(reads);
    expect(uploadBytesInFlight()).toBe(0);
    const later = await readUploadBytes(new Request("https://school.example/", { method: "POST", body: new Uint8Array(MiB).fill(1) }), 5 * MiB);
    expect(later.ok && later.bytes.byteLength).toBe(MiB);
  });

  it("uploads that declare no length and stall together are refused as they pass the cap, never holding more", async () => {
    const uploads = Array.from({ length: 100 }, () => stalledUpload(4 * MiB, false));
    let most = 0;
    const reads = uploads.map((u) =>
      readUploadBytes(u.req, 5 * MiB).then((r) => {
        most = Math.max(most, uploadBytesInFlight());
        return r.ok ? "ok" : r.problem;
      }, () => "dropped"),
    );
    const settled: string[] = [];
    for (const r of reads) void r.then((o) => settled.push(o));
    await expect.poll(() => uploadBytesInFlight() >= MAX_UPLOAD_BYTES_IN_FLIGHT - 100 * 64 * 1024 || settled.length === 100, { timeout: 30_000 }).toBe(true);
    expect(uploadBytesInFlight()).toBeLessThanOrEqual(MAX_UPLOAD_BYTES_IN_FLIGHT);
    for (const u of uploads) u.drop();
    const outcomes = await Promise.all(reads);
    expect(outcomes).not.toContain("ok");
    expect(most).toBeLessThanOrEqual(MAX_UPLOAD_BYTES_IN_FLIGHT);
    expect(uploadBytesInFlight()).toBe(0);
  });

  it("refuses a body over its own limit whatever it declares, and gives the bytes back", async () => {
    const r = await readUploadBytes(new Request("https://school.example/", { method: "POST", body: new Uint8Array(2 * MiB) }), MiB);
    expect(r).toEqual({ ok: false, problem: "tooLarge" });
    expect(uploadBytesInFlight()).toBe(0);
  });
});
