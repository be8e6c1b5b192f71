import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from "node:crypto";
import { isoCBOR } from "@simplewebauthn/server/helpers";

/**
 * A software authenticator for server-side tests of passkeys (platform/auth/passkey.ts): one ES256 key, attestation
 * "none", answering the options the server made like a browser's authenticator would, for any origin and RP ID the
 * test names (a wrong one, to see it refused). The browser's own virtual authenticator is used in tests/e2e.
 */
const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();
const FLAGS = { up: 0x01, uv: 0x04, at: 0x40 };

export class SoftPasskey {
  readonly id = randomBytes(16);
  private readonly key: KeyObject;
  private readonly cose: Uint8Array;
  counter = 0;

  constructor() {
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    this.key = privateKey;
    const jwk = publicKey.export({ format: "jwk" });
    const coords = (c: string | undefined) => new Uint8Array(Buffer.from(c!, "base64url"));
    this.cose = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, coords(jwk.x)],
        [-3, coords(jwk.y)],
      ]),
    );
  }

  get credentialId(): string {
    return b64url(this.id);
  }

  private authData(rpID: string, flags: number, attested: boolean): Buffer {
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.counter);
    const head = Buffer.concat([sha256(rpID), Buffer.from([flags]), counter]);
    if (!attested) return head;
    const len = Buffer.alloc(2);
    len.writeUInt16BE(this.id.length);
    return Buffer.concat([head, Buffer.alloc(16), len, this.id, Buffer.from(this.cose)]);
  }

  private clientData(type: string, challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** The answer to navigator.credentials.create() with these options' challenge. */
  register(challenge: string, origin: string, rpID: string) {
    const authData = this.authData(rpID, FLAGS.up | FLAGS.uv | FLAGS.at, true);
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", new Uint8Array(authData)],
      ]) as never,
    );
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: "public-key" as const,
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(this.clientData("webauthn.create", challenge, origin)),
        attestationObject: b64url(attestationObject),
        transports: ["internal"],
      },
    };
  }

  /** The answer to navigator.credentials.get(): the counter goes up by one first (`counter` may be set to replay). */
  assert(challenge: string, origin: string, rpID: string, bump = true) {
    if (bump) this.counter += 1;
    const authData = this.authData(rpID, FLAGS.up | FLAGS.uv, false);
    const clientData = this.clientData("webauthn.get", challenge, origin);
    const signature = sign("sha256", Buffer.concat([authData, sha256(clientData)]), this.key);
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: "public-key" as const,
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(clientData),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
      },
    };
  }
}
