/**
 * The city row's load client (tools/bench/city.ts), a process of its own: thousands of event
 * streams on raw sockets. While streams are read it only stamps each read with the clock and
 * keeps its bytes (no parsing, so the last socket's stamp is not pushed back by the work done
 * for the others); the HTTP chunks and events are taken apart when the parent asks for them.
 * Times are the wall clock in ms (performance.timeOrigin + performance.now()), comparable with
 * the parent's. Run as `tsx tools/bench/stream-client.ts`, driven over IPC:
 * - `{ type: "open", port, streams: [{ path, cookie }], ready }` → `{ type: "opened", failed }` once
 *   every stream answered 200 and sent `ready` (e.g. "event: state") or failed;
 * - `{ type: "collect" }` → `{ type: "events", streams: StateEvent[][], closedAt: number[] }`: every
 *   state event's scene, version and status, and when its last byte arrived; when the server closed
 *   each stream (0: still open);
 * - `{ type: "close" }` → `{ type: "closed" }`.
 */
import net from "node:net";

interface Stream {
  socket: net.Socket;
  reads: { at: number; bytes: Buffer }[];
  status: "opening" | "open" | "failed";
  /** when the server closed it (0: open) */
  closedAt: number;
}

type Command =
  | { type: "open"; port: number; streams: { path: string; cookie: string }[]; ready: string }
  | { type: "collect" }
  | { type: "close" };

/** [arrived at, sceneId, version, status] of one `event: state` */
export type StateEvent = [number, string | null, number, string];

const now = () => performance.timeOrigin + performance.now();
let streams: Stream[] = [];

function openOne(port: number, path: string, cookie: string, ready: string): Promise<Stream> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: "127.0.0.1" });
    const stream: Stream = { socket, reads: [], status: "opening", closedAt: 0 };
    let head = "";
    const settle = (status: Stream["status"]) => {
      if (stream.status !== "opening") return;
      stream.status = status;
      resolve(stream);
    };
    socket.setNoDelay(true);
    socket.on("connect", () =>
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\nCookie: ${cookie}\r\n\r\n`,
      ),
    );
    socket.on("data", (bytes: Buffer) => {
      stream.reads.push({ at: now(), bytes });
      if (stream.status !== "opening") return;
      head += bytes.toString("latin1");
      if (!head.startsWith("HTTP/1.1 200")) {
        if (head.includes("\r\n")) settle("failed");
      } else if (head.includes(ready)) settle("open");
    });
    socket.on("error", () => settle("failed"));
    socket.on("close", () => {
      stream.closedAt ||= now();
      settle("failed");
    });
  });
}

async function openAll(command: Extract<Command, { type: "open" }>) {
  const opened: Stream[] = [];
  let next = 0;
  // 200 connections in flight at a time: the app's accept queue and the database set the pace
  await Promise.all(
    Array.from({ length: 200 }, async () => {
      while (next < command.streams.length) {
        const n = next++;
        const { path, cookie } = command.streams[n]!;
        opened[n] = await openOne(command.port, path, cookie, command.ready);
      }
    }),
  );
  streams = opened;
  return opened.filter((s) => s.status !== "open").length;
}

/** The events of one stream (HTTP/1.1 chunked body taken apart), each with the time its last byte arrived. */
function eventsOf(stream: Stream): StateEvent[] {
  const events: StateEvent[] = [];
  let raw = Buffer.alloc(0);
  let body = "";
  let inBody = false;
  for (const { at, bytes } of stream.reads) {
    raw = Buffer.concat([raw, bytes]);
    if (!inBody) {
      const end = raw.indexOf("\r\n\r\n");
      if (end < 0) continue;
      raw = raw.subarray(end + 4);
      inBody = true;
    }
    for (;;) {
      const line = raw.indexOf("\r\n");
      if (line < 0) break;
      const size = parseInt(raw.subarray(0, line).toString("latin1"), 16);
      if (raw.length < line + 2 + size + 2) break;
      body += raw.subarray(line + 2, line + 2 + size).toString("utf8");
      raw = raw.subarray(line + 2 + size + 2);
    }
    let end: number;
    while ((end = body.indexOf("\n\n")) >= 0) {
      const block = body.slice(0, end);
      body = body.slice(end + 2);
      if (!block.startsWith("event: state\n")) continue;
      const data = block
        .split("\n")
        .filter((l) => l.startsWith("data: "))
        .map((l) => l.slice(6))
        .join("");
      const state = JSON.parse(data) as { sceneId: string | null; version: number; status: string } | null;
      if (state) events.push([at, state.sceneId, state.version, state.status]);
    }
  }
  return events;
}

process.on("message", (command: Command) => {
  if (command.type === "open") void openAll(command).then((failed) => process.send!({ type: "opened", failed }));
  else if (command.type === "collect")
    process.send!({ type: "events", streams: streams.map(eventsOf), closedAt: streams.map((s) => s.closedAt) });
  else {
    for (const s of streams) {
      s.closedAt ||= -1;
      s.socket.destroy();
    }
    streams = [];
    process.send!({ type: "closed" });
  }
});
process.send!({ type: "up" });
