import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  MAX_UPLOAD_BYTES_IN_FLIGHT,
  readBytesWithin,
  readUploadBytes,
  saveBodyWithin,
  uploadBytesInFlight,
} from "@/platform/http";

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
    await expect
      .poll(() => outcomes.filter((o) => o === "busy").length, { timeout: 30_000 })
      .toBeGreaterThanOrEqual(100 - Math.ceil(MAX_UPLOAD_BYTES_IN_FLIGHT / (4 * MiB)) - 1);
    expect(uploadBytesInFlight()).toBeLessThanOrEqual(MAX_UPLOAD_BYTES_IN_FLIGHT);
    expect(uploadBytesInFlight()).toBeGreaterThan(MAX_UPLOAD_BYTES_IN_FLIGHT / 2);
    expect(outcomes).not.toContain("ok");

    // meanwhile a whole image cannot be held: it is told to wait too
    const now = await readUploadBytes(
      new Request("https://school.example/", { method: "POST", body: new Uint8Array(MiB) }),
      5 * MiB,
    );
    expect(now).toEqual({ ok: false, problem: "busy" });

    for (const u of uploads) u.drop();
    await Promise.all(reads);
    expect(uploadBytesInFlight()).toBe(0);
    const later = await readUploadBytes(
      new Request("https://school.example/", { method: "POST", body: new Uint8Array(MiB).fill(1) }),
      5 * MiB,
    );
    expect(later.ok && later.bytes.byteLength).toBe(MiB);
  });

  it("uploads that declare no length and stall together are refused as they pass the cap, never holding more", async () => {
    const uploads = Array.from({ length: 100 }, () => stalledUpload(4 * MiB, false));
    let most = 0;
    const reads = uploads.map((u) =>
      readUploadBytes(u.req, 5 * MiB).then(
        (r) => {
          most = Math.max(most, uploadBytesInFlight());
          return r.ok ? "ok" : r.problem;
        },
        () => "dropped",
      ),
    );
    const settled: string[] = [];
    for (const r of reads) void r.then((o) => settled.push(o));
    await expect
      .poll(() => uploadBytesInFlight() >= MAX_UPLOAD_BYTES_IN_FLIGHT - 100 * 64 * 1024 || settled.length === 100, {
        timeout: 30_000,
      })
      .toBe(true);
    expect(uploadBytesInFlight()).toBeLessThanOrEqual(MAX_UPLOAD_BYTES_IN_FLIGHT);
    for (const u of uploads) u.drop();
    const outcomes = await Promise.all(reads);
    expect(outcomes).not.toContain("ok");
    expect(most).toBeLessThanOrEqual(MAX_UPLOAD_BYTES_IN_FLIGHT);
    expect(uploadBytesInFlight()).toBe(0);
  });

  it("refuses a body over its own limit whatever it declares, and gives the bytes back", async () => {
    const r = await readUploadBytes(
      new Request("https://school.example/", { method: "POST", body: new Uint8Array(2 * MiB) }),
      MiB,
    );
    expect(r).toEqual({ ok: false, problem: "tooLarge" });
    expect(uploadBytesInFlight()).toBe(0);
  });
});

/** A body sent in `chunks` chunks of distinct bytes, declaring `declared` bytes (null: no Content-Length). */
function chunkedBody(chunks: number, declared: number | null) {
  const parts = Array.from({ length: chunks }, (_, i) => new Uint8Array(CHUNK).fill(i % 251));
  const body = new ReadableStream<Uint8Array>({
    pull: (c) => {
      const next = parts.shift();
      if (next) c.enqueue(next);
      else c.close();
    },
  });
  const req = new Request("https://school.example/api/v1/roster/import", {
    method: "POST",
    body,
    duplex: "half",
    headers: declared === null ? {} : { "content-length": String(declared) },
  } as RequestInit);
  const whole = Buffer.concat(Array.from({ length: chunks }, (_, i) => new Uint8Array(CHUNK).fill(i % 251)));
  return { req, whole };
}

describe("a body as it arrives", () => {
  it("is every byte in order whether it declares its length, declares less, more, or nothing", async () => {
    for (const declared of [40 * CHUNK, 10 * CHUNK, 50 * CHUNK, null]) {
      const { req, whole } = chunkedBody(40, declared);
      const read = await readBytesWithin(req, 64 * MiB, 60_000);
      expect(Buffer.isBuffer(read) && read.equals(whole), `declared ${declared}`).toBe(true);
    }
  });

  it("past the limit is refused, whatever it declared", async () => {
    expect(await readBytesWithin(chunkedBody(40, 10 * CHUNK).req, 20 * CHUNK, 60_000)).toBe("tooLarge");
    expect(await readBytesWithin(chunkedBody(40, null).req, 20 * CHUNK, 60_000)).toBe("tooLarge");
  });
});

describe("a body saved to a file as it arrives", () => {
  it("writes every byte in order to a file only this user can read; past the limit it is refused", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "body-"));
    try {
      const { req, whole } = chunkedBody(40, null);
      expect(await saveBodyWithin(req, path.join(dir, "a"), { max: 64 * MiB, ms: 60_000 })).toBe(whole.byteLength);
      expect(readFileSync(path.join(dir, "a")).equals(whole)).toBe(true);
      expect(statSync(path.join(dir, "a")).mode & 0o777).toBe(0o600);
      expect(
        await saveBodyWithin(chunkedBody(40, null).req, path.join(dir, "b"), { max: 20 * CHUNK, ms: 60_000 }),
      ).toBe("tooLarge");
      expect(
        await saveBodyWithin(chunkedBody(40, 40 * CHUNK).req, path.join(dir, "c"), { max: 20 * CHUNK, ms: 60_000 }),
      ).toBe("tooLarge");
      expect(existsSync(path.join(dir, "c"))).toBe(false); // refused by its declared length before a file is made
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("is read no faster than the rate it is given", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "body-"));
    try {
      const started = performance.now();
      // 40 chunks of 64 KiB at 10 MiB/s: at least 250 ms
      expect(
        await saveBodyWithin(chunkedBody(40, null).req, path.join(dir, "a"), {
          max: 64 * MiB,
          ms: 60_000,
          bytesPerSecond: 10 * MiB,
        }),
      ).toBe(40 * CHUNK);
      expect(performance.now() - started).toBeGreaterThanOrEqual(230);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
