import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { clientAddress } from "@/platform/security/client-ip";

const ipv4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((p) => p.join("."));
/** Anything a client may write into X-Forwarded-For before the proxies append their part. */
const forged = fc.array(
  fc.oneof(
    ipv4,
    fc.string({ maxLength: 20 }).filter((s) => !s.includes(",")),
  ),
  { maxLength: 5 },
);

describe("client address for throttling", () => {
  it("with no trusted proxy, the socket's address whatever X-Forwarded-For says", () => {
    fc.assert(
      fc.property(forged, ipv4, (header, socket) => {
        expect(clientAddress(socket, header.join(", "), 0)).toBe(socket);
      }),
    );
    expect(clientAddress("::ffff:127.0.0.1", "203.0.113.9", 0)).toBe("127.0.0.1");
  });

  it("behind n trusted proxies, the entry the first of them appended, whatever the client wrote before it", () => {
    fc.assert(
      fc.property(forged, fc.array(ipv4, { minLength: 1, maxLength: 3 }), ipv4, (client, appended, socket) => {
        const header = [...client, ...appended].join(", ");
        expect(clientAddress(socket, header, appended.length)).toBe(appended[0]);
      }),
    );
  });

  it("falls back to the socket when the header is shorter than the trusted chain or its entry is not an address", () => {
    expect(clientAddress("10.0.0.5", undefined, 1)).toBe("10.0.0.5");
    expect(clientAddress("10.0.0.5", "198.51.100.1", 2)).toBe("10.0.0.5");
    expect(clientAddress("10.0.0.5", "198.51.100.1, <script>", 1)).toBe("10.0.0.5");
    expect(clientAddress("10.0.0.5", ["198.51.100.1", "192.0.2.7"], 1)).toBe("192.0.2.7");
  });
});
