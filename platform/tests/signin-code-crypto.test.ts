import { describe, expect, it } from "vitest";
import {
  decryptCode,
  encryptCode,
  generateCode,
  hashCode,
  isWellFormedCode,
  sealNewCode,
} from "@/platform/auth/signin-code-crypto";

const KEY = "11".repeat(32);
const OTHER = "22".repeat(32);

describe("sign-in code crypto", () => {
  it("codes carry 128 random bits as 22 base64url characters", () => {
    const codes = new Set(Array.from({ length: 500 }, generateCode));
    expect(codes.size).toBe(500);
    for (const c of codes) {
      expect(isWellFormedCode(c)).toBe(true);
      expect(Buffer.from(c, "base64url")).toHaveLength(16);
    }
  });

  it("encrypts so that the same card can be printed again, and only with the key", () => {
    const { code, codeEncrypted, codeHash } = sealNewCode(KEY);
    expect(codeEncrypted).not.toContain(code);
    expect(decryptCode(codeEncrypted, KEY)).toBe(code);
    expect(() => decryptCode(codeEncrypted, OTHER)).toThrow();
    expect(encryptCode(code, KEY)).not.toBe(codeEncrypted); // fresh IV each time
    expect(hashCode(code, KEY)).toBe(codeHash);
    expect(hashCode(code, OTHER)).not.toBe(codeHash);
  });

  it("refuses tampered ciphertext", () => {
    const { codeEncrypted } = sealNewCode(KEY);
    const parts = codeEncrypted.split(".");
    const body = Buffer.from(parts[2]!, "base64url");
    body[0] = body[0]! ^ 1;
    parts[2] = body.toString("base64url");
    expect(() => decryptCode(parts.join("."), KEY)).toThrow();
  });

  it("rejects malformed codes", () => {
    for (const bad of ["", "short", "a".repeat(23), "a".repeat(21) + "!", "<script>alert(1)</script>"]) {
      expect(isWellFormedCode(bad)).toBe(false);
    }
  });
});
