/**
 * X.509 certificates with `node:crypto` alone: a certificate authority and serving
 * certificates it signs, for TLS listeners that must be trusted through a CA bundle (a webhook
 * server's `caBundle`, a kubeconfig's `certificate-authority-data`). Keys are EC P-256,
 * signatures ECDSA-SHA256; certificates are minimal X.509 v3, DER-encoded here: subject
 * `CN=…`, basic constraints, key usage, extended key usage, subject alternative names, subject
 * and authority key identifiers — what Go's `crypto/x509` (kube-apiserver) and OpenSSL (Node)
 * verify.
 *
 * @module
 */
import { createHash, createPrivateKey, generateKeyPairSync, randomBytes, sign, X509Certificate } from "node:crypto";
import type { KeyObject } from "node:crypto";
import { isIP } from "node:net";

/**
 * A PEM certificate and its PEM (PKCS#8) private key.
 *
 * @example
 * ```ts
 * import { createServer } from "node:https";
 *
 * declare const pair: CertificateKeyPair;
 * createServer({ cert: pair.cert, key: pair.key });
 * ```
 */
export interface CertificateKeyPair {
  readonly cert: string;
  readonly key: string;
}

/**
 * Options of {@link generateCertificateAuthority}.
 *
 * @example
 * ```ts
 * const options: CertificateAuthorityOptions = { commonName: "dataapp-webhook-ca", validityDays: 3650 };
 * ```
 */
export interface CertificateAuthorityOptions {
  /** Subject and issuer common name. Default `operator-runtime-ca`. */
  commonName?: string;
  /** Days of validity from now (the certificate is valid from an hour ago, for clock skew). Default 3650. */
  validityDays?: number;
  /**
   * DNS names the CA certificate itself may serve (subject alternative names, plus the
   * `serverAuth` extended key usage): for a self-signed certificate that is its own CA. Default none.
   */
  dnsNames?: readonly string[];
  /** IP addresses the CA certificate itself may serve (as `dnsNames`). Default none. */
  ipAddresses?: readonly string[];
  /** The time the validity counts from (default: now). */
  now?: Date;
}

/**
 * Options of {@link generateServingCertificate}: at least one DNS name or IP address.
 *
 * @example
 * ```ts
 * const options: ServingCertificateOptions = {
 *   dnsNames: ["dataapp-webhook.operators.svc", "dataapp-webhook.operators.svc.cluster.local"],
 *   validityDays: 365,
 * };
 * ```
 */
export interface ServingCertificateOptions {
  /** DNS subject alternative names (`localhost`, `svc.ns.svc`). */
  dnsNames?: readonly string[];
  /** IP subject alternative names (`127.0.0.1`, `::1`). */
  ipAddresses?: readonly string[];
  /** Days of validity from now (from an hour ago, for clock skew). Default 365. */
  validityDays?: number;
  /** Subject common name. Default: the first DNS name, else the first IP address. */
  commonName?: string;
  /** The time the validity counts from (default: now). */
  now?: Date;
}

/**
 * A new certificate authority: an EC P-256 key and a self-signed certificate with basic
 * constraints `CA:TRUE` (critical) and key usage `digitalSignature, keyCertSign, cRLSign`
 * (critical). Give its `cert` to clients as the trust anchor (base64 of it is a webhook
 * configuration's `caBundle`) and pass the pair to {@link generateServingCertificate}.
 *
 * With `dnsNames` / `ipAddresses` it also carries those names and `serverAuth`, so it can
 * serve TLS itself (a self-signed server certificate clients trust as their CA).
 *
 * @example
 * ```ts
 * const ca = generateCertificateAuthority({ commonName: "dataapp-webhook-ca" });
 * const caBundle = Buffer.from(ca.cert).toString("base64");
 * ```
 */
export function generateCertificateAuthority(opts: CertificateAuthorityOptions = {}): CertificateKeyPair {
  const cn = opts.commonName ?? "operator-runtime-ca";
  const sans = subjectAltNames("generateCertificateAuthority", opts.dnsNames ?? [], opts.ipAddresses ?? []);
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const ski = keyIdentifier(publicKey);
  const extensions = [
    extension("2.5.29.19", true, seq(der(0x01, Buffer.from([0xff])))),
    // digitalSignature (bit 0), keyCertSign (bit 5), cRLSign (bit 6): 1000 0110, 1 unused bit
    extension("2.5.29.15", true, der(0x03, Buffer.from([0x01, 0x86]))),
    ...(sans ? [extension("2.5.29.37", false, seq(oid(SERVER_AUTH))), extension("2.5.29.17", false, sans)] : []),
    extension("2.5.29.14", false, der(0x04, ski)),
  ];
  return issue({
    subject: cn, issuer: cn, publicKey, signingKey: privateKey, extensions,
    validityDays: checkDays("generateCertificateAuthority", opts.validityDays ?? 3650), now: opts.now ?? new Date(),
  }, privateKey);
}

/**
 * A new serving certificate signed by `ca`: an EC P-256 key and a certificate for the given
 * DNS names and IP addresses (subject alternative names; Go and browsers ignore the common
 * name), key usage `digitalSignature` (critical), extended key usage `serverAuth`, basic
 * constraints `CA:FALSE`, and the CA's key identifier. Throws a TypeError without any name, on
 * an IP address that does not parse, or when `ca` is not a certificate and key.
 *
 * @example
 * ```ts
 * import { createServer } from "node:https";
 *
 * const ca = generateCertificateAuthority();
 * const serving = generateServingCertificate(ca, { dnsNames: ["localhost"], ipAddresses: ["127.0.0.1"] });
 * createServer({ cert: serving.cert, key: serving.key }, (req, res) => res.end("ok")).listen(9443);
 * // clients trust ca.cert
 * ```
 */
export function generateServingCertificate(ca: CertificateKeyPair, opts: ServingCertificateOptions): CertificateKeyPair {
  const where = "generateServingCertificate";
  if (typeof ca !== "object" || ca === null || typeof ca.cert !== "string" || typeof ca.key !== "string") {
    throw new TypeError(`${where}(ca, options): ca must be { cert, key } (PEM strings), as generateCertificateAuthority() returns.`);
  }
  const dnsNames = opts?.dnsNames ?? [];
  const ipAddresses = opts?.ipAddresses ?? [];
  const sans = subjectAltNames(where, dnsNames, ipAddresses);
  if (!sans) throw new TypeError(`${where}(ca, options): give at least one of options.dnsNames or options.ipAddresses (clients match the server's name against them).`);
  let caCert: X509Certificate;
  let caKey: KeyObject;
  try {
    caCert = new X509Certificate(ca.cert);
    caKey = createPrivateKey(ca.key);
  } catch (err) {
    throw new TypeError(`${where}(ca, options): ca.cert / ca.key do not parse as a PEM certificate and private key: ${(err as Error).message}`, { cause: err });
  }
  if (!caCert.checkPrivateKey(caKey)) throw new TypeError(`${where}(ca, options): ca.key is not the private key of ca.cert.`);
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const extensions = [
    extension("2.5.29.19", true, seq()),
    // digitalSignature (bit 0): 1000 0000, 7 unused bits
    extension("2.5.29.15", true, der(0x03, Buffer.from([0x07, 0x80]))),
    extension("2.5.29.37", false, seq(oid(SERVER_AUTH))),
    extension("2.5.29.17", false, sans),
    extension("2.5.29.14", false, der(0x04, keyIdentifier(publicKey))),
    extension("2.5.29.35", false, seq(der(0x80, keyIdentifier(caCert.publicKey)))),
  ];
  return issue({
    subject: opts.commonName ?? dnsNames[0] ?? ipAddresses[0]!,
    issuer: "", issuerName: subjectOf(caCert), publicKey, signingKey: caKey, extensions,
    validityDays: checkDays(where, opts.validityDays ?? 365), now: opts.now ?? new Date(),
  }, privateKey);
}

const SERVER_AUTH = "1.3.6.1.5.5.7.3.1";

interface Issue {
  subject: string;
  /** The issuer's common name (a self-signed certificate: the subject). */
  issuer: string;
  /** The issuer's DER Name, exactly as in its certificate (wins over `issuer`). */
  issuerName?: Buffer | undefined;
  publicKey: KeyObject;
  signingKey: KeyObject;
  extensions: Buffer[];
  validityDays: number;
  now: Date;
}

function issue(i: Issue, privateKey: KeyObject): CertificateKeyPair {
  const ecdsaWithSha256 = seq(oid("1.2.840.10045.4.3.2"));
  const serial = randomBytes(16);
  serial[0] = (serial[0]! & 0x7f) | 0x40; // positive, and minimal DER (no leading zero byte): OpenSSL refuses padding
  const from = i.now.getTime() - 3600_000;
  const tbs = seq(
    der(0xa0, integer(Buffer.from([2]))),
    integer(serial),
    ecdsaWithSha256,
    i.issuerName ?? name(i.issuer),
    seq(time(new Date(from)), time(new Date(i.now.getTime() + i.validityDays * 86_400_000))),
    name(i.subject),
    i.publicKey.export({ type: "spki", format: "der" }),
    der(0xa3, seq(...i.extensions)),
  );
  const signature = sign("sha256", tbs, i.signingKey);
  const certificate = seq(tbs, ecdsaWithSha256, der(0x03, Buffer.concat([Buffer.from([0]), signature])));
  const b64 = certificate.toString("base64").replace(/.{64}/g, "$&\n").replace(/\n$/, "");
  return {
    cert: `-----BEGIN CERTIFICATE-----\n${b64}\n-----END CERTIFICATE-----\n`,
    key: privateKey.export({ type: "pkcs8", format: "pem" }) as string,
  };
}

function checkDays(where: string, days: number): number {
  if (typeof days !== "number" || !(days > 0) || !Number.isFinite(days)) {
    throw new TypeError(`${where}: validityDays must be a positive number of days, got ${JSON.stringify(days)}.`);
  }
  return days;
}

/** The GeneralNames of a subjectAltName, or undefined without any name. */
function subjectAltNames(where: string, dnsNames: readonly string[], ipAddresses: readonly string[]): Buffer | undefined {
  if (dnsNames.length === 0 && ipAddresses.length === 0) return undefined;
  const names: Buffer[] = [];
  for (const dns of dnsNames) {
    if (typeof dns !== "string" || !/^[\x21-\x7e]+$/.test(dns)) {
      throw new TypeError(`${where}: dnsNames holds ${JSON.stringify(dns)}, not a DNS name (printable ASCII without spaces, e.g. "webhook.operators.svc").`);
    }
    names.push(der(0x82, Buffer.from(dns, "ascii")));
  }
  for (const ip of ipAddresses) names.push(der(0x87, ipBytes(where, ip)));
  return seq(...names);
}

/** The 4 or 16 bytes of an IP address. */
function ipBytes(where: string, ip: string): Buffer {
  const family = typeof ip === "string" ? isIP(ip) : 0;
  if (family === 4) return Buffer.from(ip.split(".").map(Number));
  if (family !== 6) throw new TypeError(`${where}: ipAddresses holds ${JSON.stringify(ip)}, not an IPv4 or IPv6 address (e.g. "127.0.0.1", "::1").`);
  let text = ip.replace(/%.*$/, "");
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4[1]!.split(".").map(Number);
    text = text.slice(0, -v4[1]!.length) + `${((a! << 8) | b!).toString(16)}:${((c! << 8) | d!).toString(16)}`;
  }
  const [head, tail] = text.split("::") as [string, string | undefined];
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right];
  const out = Buffer.alloc(16);
  groups.forEach((g, i) => out.writeUInt16BE(parseInt(g, 16), i * 2));
  return out;
}

/** SHA-1 of the subjectPublicKey bits (RFC 5280 4.2.1.2, method 1). */
function keyIdentifier(publicKey: KeyObject): Buffer {
  const spki = publicKey.export({ type: "spki", format: "der" });
  // SubjectPublicKeyInfo ::= SEQUENCE { algorithm SEQUENCE, subjectPublicKey BIT STRING }
  const inner = readElement(spki, 0).content;
  const algorithm = readElement(inner, 0);
  const bits = readElement(inner, algorithm.end);
  return createHash("sha1").update(bits.content.subarray(1)).digest();
}

/** The DER subject Name of a certificate, as it is encoded there (the issuer of what it signs). */
function subjectOf(cert: X509Certificate): Buffer {
  // Certificate ::= SEQUENCE { tbsCertificate SEQUENCE { [0] version, serial, sigAlg, issuer, validity, subject, … } … }
  const tbs = readElement(readElement(cert.raw, 0).content, 0).content;
  let at = 0;
  const version = readElement(tbs, at);
  if (tbs[at] === 0xa0) at = version.end;
  for (let skip = 0; skip < 4; skip++) at = readElement(tbs, at).end; // serial, sigAlg, issuer, validity
  const subject = readElement(tbs, at);
  return tbs.subarray(at, subject.end);
}

/** The DER element at `at`: its content and where the next element starts. */
function readElement(buf: Buffer, at: number): { content: Buffer; end: number } {
  let len = buf[at + 1]!;
  let start = at + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    len = 0;
    for (let k = 0; k < n; k++) len = len * 256 + buf[start + k]!;
    start += n;
  }
  return { content: buf.subarray(start, start + len), end: start + len };
}

/** One DER element: tag, definite length, content. */
function der(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  const len = body.length;
  let header: Buffer;
  if (len < 0x80) header = Buffer.from([tag, len]);
  else {
    const bytes: number[] = [];
    for (let v = len; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
    header = Buffer.from([tag, 0x80 | bytes.length, ...bytes]);
  }
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

/** UTCTime `YYMMDDHHMMSSZ` before 2050, GeneralizedTime `YYYYMMDDHHMMSSZ` from 2050 (RFC 5280 4.1.2.5). */
function time(d: Date): Buffer {
  const iso = d.toISOString();
  const rest = `${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
  return d.getUTCFullYear() < 2050 ? der(0x17, Buffer.from(`${iso.slice(2, 4)}${rest}`)) : der(0x18, Buffer.from(`${iso.slice(0, 4)}${rest}`));
}

const name = (cn: string) => seq(set(seq(oid("2.5.4.3"), der(0x0c, Buffer.from(cn)))));

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return seq(oid(id), ...(critical ? [der(0x01, Buffer.from([0xff]))] : []), der(0x04, value));
}
