/**
 * A fresh self-signed TLS certificate for LocalCluster's HTTPS listener in authorization mode
 * (kubectl sends a kubeconfig's credentials only to `https` servers). Built with `node:crypto`
 * alone: an EC P-256 key and a minimal X.509 v3 certificate for `127.0.0.1` and `localhost`,
 * DER-encoded here and signed with ECDSA-SHA256. It is its own CA, so a kubeconfig can trust it
 * through `certificate-authority-data` instead of skipping verification.
 */
import { generateKeyPairSync, randomBytes, sign } from "node:crypto";

/** A PEM certificate and its PEM private key. */
export interface SelfSignedCertificate {
  readonly cert: string;
  readonly key: string;
}

/** One DER element: tag, definite length, content. */
function der(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  const len = body.length;
  let header: Buffer;
  if (len < 0x80) header = Buffer.from([tag, len]);
  else if (len < 0x100) header = Buffer.from([tag, 0x81, len]);
  else header = Buffer.from([tag, 0x82, len >> 8, len & 0xff]);
  return Buffer.concat([header, body]);
}

const seq = (...c: Buffer[]) => der(0x30, ...c);
const set = (...c: Buffer[]) => der(0x31, ...c);

function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split(".").map(Number);
  const bytes = [a! * 40 + b!];
  for (const n of rest) {
    const chunk = [n & 0x7f];
    for (let v = n >>> 7; v > 0; v >>>= 7) chunk.unshift((v & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return der(0x06, Buffer.from(bytes));
}

/** A positive INTEGER from unsigned big-endian bytes. */
function integer(bytes: Buffer): Buffer {
  return der(0x02, bytes[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes);
}

/** UTCTime `YYMMDDHHMMSSZ` (dates before 2050, as X.509 requires for UTCTime). */
function utcTime(d: Date): Buffer {
  const iso = d.toISOString();
  return der(0x17, Buffer.from(`${iso.slice(2, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`));
}

const name = (cn: string) => seq(set(seq(oid("2.5.4.3"), der(0x0c, Buffer.from(cn)))));

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return seq(oid(id), ...(critical ? [der(0x01, Buffer.from([0xff]))] : []), der(0x04, value));
}

/**
 * A new key and a certificate valid from an hour ago for ten years, for the subject
 * `CN=localcluster` with the subject alternative names `127.0.0.1` and `localhost`.
 *
 * @example
 * ```ts
 * import { createServer } from "node:https";
 *
 * const { cert, key } = selfSignedCertificate();
 * createServer({ cert, key }, (req, res) => res.end("ok")).listen(0, "127.0.0.1");
 * ```
 */
export function selfSignedCertificate(): SelfSignedCertificate {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const ecdsaWithSha256 = seq(oid("1.2.840.10045.4.3.2"));
  const now = Date.now();
  const serial = randomBytes(16);
  serial[0] = (serial[0]! & 0x7f) | 0x40; // positive, and minimal DER (no leading zero byte): OpenSSL refuses padding
  const san = seq(der(0x87, Buffer.from([127, 0, 0, 1])), der(0x82, Buffer.from("localhost")));
  const tbs = seq(
    der(0xa0, integer(Buffer.from([2]))),
    integer(serial),
    ecdsaWithSha256,
    name("localcluster"),
    seq(utcTime(new Date(now - 3600_000)), utcTime(new Date(now + 10 * 365 * 24 * 3600_000))),
    name("localcluster"),
    publicKey.export({ type: "spki", format: "der" }),
    der(0xa3, seq(
      extension("2.5.29.19", true, seq(der(0x01, Buffer.from([0xff])))),
      // digitalSignature, keyCertSign
      extension("2.5.29.15", true, der(0x03, Buffer.from([0x02, 0x84]))),
      // serverAuth
      extension("2.5.29.37", false, seq(oid("1.3.6.1.5.5.7.3.1"))),
      extension("2.5.29.17", false, san),
    )),
  );
  const signature = sign("sha256", tbs, privateKey);
  const certificate = seq(tbs, ecdsaWithSha256, der(0x03, Buffer.concat([Buffer.from([0]), signature])));
  const b64 = certificate.toString("base64").replace(/.{64}/g, "$&\n").replace(/\n$/, "");
  return {
    cert: `-----BEGIN CERTIFICATE-----\n${b64}\n-----END CERTIFICATE-----\n`,
    key: privateKey.export({ type: "pkcs8", format: "pem" }) as string,
  };
}
