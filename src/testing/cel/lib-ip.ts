/**
 * Kubernetes' CEL IP and CIDR libraries (`ip()`, `isIP`, `ip.isCanonical`, `family`,
 * `isUnspecified`, `isLoopback`, `isLinkLocalMulticast`, `isLinkLocalUnicast`,
 * `isGlobalUnicast`, `cidr()`, `isCIDR`, `containsIP`, `containsCIDR`, `ip()` of a CIDR,
 * `masked`, `prefixLength`, `string()` of both), with Go's `net/netip` parsing rules and error
 * texts: no IPv4 octet with a leading zero, no zone, no IPv4-mapped IPv6 address.
 *
 * @module
 */
import { CelScalar, celFunc, celMethod } from "@bufbuild/cel";
import type { CelFunc } from "@bufbuild/cel";
import { opaqueType } from "./lib-opaque.ts";

/** An IP address: 4 or 16 bytes, and the zone netip parsed (always "" once `ip()` accepted it). */
export interface ParsedAddr {
  readonly bytes: readonly number[];
  readonly zone: string;
}

/** A CIDR prefix: its address as written (not masked) and its length in bits. */
export interface ParsedPrefix {
  readonly addr: ParsedAddr;
  readonly bits: number;
}

class AddrError extends Error {
  constructor(input: string, msg: string, at = "") {
    super(`ParseAddr(${JSON.stringify(input)}): ${msg}${at === "" ? "" : ` (at ${JSON.stringify(at)})`}`);
  }
}

function ipv4Fields(input: string, s: string): number[] {
  const fields: number[] = [];
  let val = 0;
  let digits = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c >= "0" && c <= "9") {
      if (digits === 1 && val === 0) throw new AddrError(input, "IPv4 field has octet with leading zero");
      val = val * 10 + Number(c);
      digits++;
      if (val > 255) throw new AddrError(input, "IPv4 field has value >255");
    } else if (c === ".") {
      if (i === 0 || i === s.length - 1 || s[i - 1] === ".") throw new AddrError(input, "IPv4 field must have at least one digit", s.slice(i));
      if (fields.length === 3) throw new AddrError(input, "IPv4 address too long");
      fields.push(val);
      val = 0;
      digits = 0;
    } else {
      throw new AddrError(input, "unexpected character", s.slice(i));
    }
  }
  if (fields.length < 3) throw new AddrError(input, "IPv4 address too short");
  fields.push(val);
  return fields;
}

function ipv6(input: string): ParsedAddr {
  let s = input;
  let zone = "";
  const pct = s.indexOf("%");
  if (pct >= 0) {
    zone = s.slice(pct + 1);
    s = s.slice(0, pct);
    if (zone === "") throw new AddrError(input, "zone must be a non-empty string");
  }
  const ip = new Array<number>(16).fill(0);
  let ellipsis = -1;
  if (s.startsWith("::")) {
    ellipsis = 0;
    s = s.slice(2);
    if (s === "") return { bytes: ip, zone };
  }
  let i = 0;
  while (i < 16) {
    let off = 0;
    let acc = 0;
    for (; off < s.length; off++) {
      const d = parseInt(s[off]!, 16);
      if (!/^[0-9a-fA-F]$/.test(s[off]!)) break;
      acc = acc * 16 + d;
      if (off > 3) throw new AddrError(input, "each group must have 4 or less digits", s);
      if (acc > 0xffff) throw new AddrError(input, "IPv6 field has value >=2^16", s);
    }
    if (off === 0) throw new AddrError(input, "each colon-separated field must have at least one digit", s);
    if (off < s.length && s[off] === ".") {
      if (ellipsis < 0 && i !== 12) throw new AddrError(input, "embedded IPv4 address must replace the final 2 fields of the address", s);
      if (i + 4 > 16) throw new AddrError(input, "too many hex fields to fit an embedded IPv4 at the end of the address", s);
      const v4 = ipv4Fields(input, s);
      ip.splice(i, 4, ...v4);
      s = "";
      i += 4;
      break;
    }
    ip[i] = acc >> 8;
    ip[i + 1] = acc & 0xff;
    i += 2;
    s = s.slice(off);
    if (s === "") break;
    if (s[0] !== ":") throw new AddrError(input, "unexpected character, want colon", s);
    if (s.length === 1) throw new AddrError(input, "colon must be followed by more characters", s);
    s = s.slice(1);
    if (s[0] === ":") {
      if (ellipsis >= 0) throw new AddrError(input, "multiple :: in address", s);
      ellipsis = i;
      s = s.slice(1);
      if (s === "") break;
    }
  }
  if (s !== "") throw new AddrError(input, "trailing garbage after address", s);
  if (i < 16) {
    if (ellipsis < 0) throw new AddrError(input, "address string too short");
    const n = 16 - i;
    for (let j = i - 1; j >= ellipsis; j--) ip[j + n] = ip[j]!;
    for (let j = ellipsis; j < ellipsis + n; j++) ip[j] = 0;
  } else if (ellipsis >= 0) {
    throw new AddrError(input, "the :: must expand to at least one field of zeros", s);
  }
  return { bytes: ip, zone };
}

/** Go's `netip.ParseAddr`; throws its error. */
function netipParseAddr(s: string): ParsedAddr {
  for (const c of s) {
    if (c === ".") return { bytes: ipv4Fields(s, s), zone: "" };
    if (c === ":") return ipv6(s);
    if (c === "%") throw new AddrError(s, "missing IPv6 address");
  }
  throw new AddrError(s, "unable to parse IP");
}

const is4 = (a: ParsedAddr) => a.bytes.length === 4;
const is4In6 = (a: ParsedAddr) => !is4(a) && a.bytes.slice(0, 10).every((b) => b === 0) && a.bytes[10] === 0xff && a.bytes[11] === 0xff;

/**
 * Go's `netip.Addr.String()`: dotted IPv4, RFC 5952 IPv6.
 *
 * @example
 * ```ts
 * import { addrString } from "./lib-ip.ts";
 * addrString({ bytes: [0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xab, 0xcd], zone: "" }); // "2001:db8::abcd"
 * ```
 */
export function addrString(a: ParsedAddr): string {
  const b = a.bytes;
  if (is4(a)) return b.join(".");
  const zone = a.zone === "" ? "" : `%${a.zone}`;
  if (is4In6(a)) return `::ffff:${b.slice(12).join(".")}${zone}`;
  const groups = Array.from({ length: 8 }, (_, g) => (b[2 * g]! << 8) | b[2 * g + 1]!);
  let bestStart = -1;
  let bestLen = 0;
  for (let g = 0; g < 8; ) {
    if (groups[g] !== 0) {
      g++;
      continue;
    }
    let e = g;
    while (e < 8 && groups[e] === 0) e++;
    if (e - g >= 2 && e - g > bestLen) {
      bestStart = g;
      bestLen = e - g;
    }
    g = e;
  }
  const hexes = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hexes.join(":") + zone;
  return `${hexes.slice(0, bestStart).join(":")}::${hexes.slice(bestStart + bestLen).join(":")}${zone}`;
}

/**
 * The library's `parseIPAddr`: the address, or the error kube-apiserver reports.
 *
 * @example
 * ```ts
 * import { parseIp } from "./lib-ip.ts";
 * parseIp("::ffff:1.2.3.4"); // 'IPv4-mapped IPv6 address "::ffff:1.2.3.4" is not allowed'
 * ```
 */
export function parseIp(raw: string): ParsedAddr | string {
  let addr: ParsedAddr;
  try {
    addr = netipParseAddr(raw);
  } catch (e) {
    if (e instanceof AddrError) return `IP Address ${JSON.stringify(raw)} parse error during conversion from string: ${e.message}`;
    throw e;
  }
  if (addr.zone !== "") return `IP address ${JSON.stringify(raw)} with zone value is not allowed`;
  if (is4In6(addr)) return `IPv4-mapped IPv6 address ${JSON.stringify(raw)} is not allowed`;
  return addr;
}

const PREFIX_PARSE = "network address parse error during conversion from string: ";

/**
 * The CIDR library's `parseCIDR` (Go's `netip.ParsePrefix` plus the IPv4-mapped check): the
 * prefix, or the error `cidr()` reports (its double prefix is kube-apiserver's own).
 *
 * @example
 * ```ts
 * import { parseCidr } from "./lib-ip.ts";
 * (parseCidr("10.0.0.0/8") as { bits: number }).bits; // 8
 * ```
 */
export function parseCidr(raw: string): ParsedPrefix | string {
  const fail = (msg: string) => `${PREFIX_PARSE}${PREFIX_PARSE}netip.ParsePrefix(${JSON.stringify(raw)}): ${msg}`;
  const slash = raw.lastIndexOf("/");
  if (slash < 0) return fail("no '/'");
  let addr: ParsedAddr;
  try {
    addr = netipParseAddr(raw.slice(0, slash));
  } catch (e) {
    if (e instanceof AddrError) return fail(e.message);
    throw e;
  }
  if (!is4(addr) && addr.zone !== "") return fail("IPv6 zones cannot be present in a prefix");
  const bitsStr = raw.slice(slash + 1);
  if (!/^[0-9]+$/.test(bitsStr) || (bitsStr.length > 1 && bitsStr[0] === "0")) return fail(`bad bits after slash: ${JSON.stringify(bitsStr)}`);
  const bits = Number(bitsStr);
  if (bits > (is4(addr) ? 32 : 128)) return fail("prefix length out of range");
  if (is4In6(addr)) return `${PREFIX_PARSE}IPv4-mapped IPv6 address ${JSON.stringify(raw)} is not allowed`;
  return { addr, bits };
}

function maskAddr(a: ParsedAddr, bits: number): ParsedAddr {
  const bytes = a.bytes.map((b, i) => {
    const keep = Math.max(0, Math.min(8, bits - i * 8));
    return b & ((0xff << (8 - keep)) & 0xff);
  });
  return { bytes, zone: a.zone };
}

const sameAddr = (a: ParsedAddr, b: ParsedAddr) => a.bytes.length === b.bytes.length && a.bytes.every((x, i) => x === b.bytes[i]) && a.zone === b.zone;

/** Go's `netip.Prefix.Contains`. */
function prefixContains(p: ParsedPrefix, ip: ParsedAddr): boolean {
  if (ip.zone !== "" || ip.bytes.length !== p.addr.bytes.length) return false;
  return sameAddr(maskAddr(ip, p.bits), maskAddr(p.addr, p.bits));
}

const ipKey = (a: ParsedAddr) => addrString(a);
const ipT = opaqueType<ParsedAddr>("net.IP", (key) => parseIp(key) as ParsedAddr);
const cidrT = opaqueType<ParsedPrefix>("net.CIDR", (key) => parseCidr(key) as ParsedPrefix);
const wrapIp = (a: ParsedAddr) => ipT.wrap(a, ipKey(a));
const wrapCidr = (p: ParsedPrefix) => cidrT.wrap(p, `${ipKey(p.addr)}/${p.bits}`);
const IP = ipT.type;
const CIDR = cidrT.type;
const { STRING, BOOL, INT } = CelScalar;

function ipOrThrow(s: string): ParsedAddr {
  const a = parseIp(s);
  if (typeof a === "string") throw new Error(a);
  return a;
}

function cidrOrThrow(s: string): ParsedPrefix {
  const p = parseCidr(s);
  if (typeof p === "string") throw new Error(p);
  return p;
}

const bytesEq = (a: ParsedAddr, want: number[]) => a.bytes.length === want.length && a.bytes.every((b, i) => b === want[i]);
const isLoopback = (a: ParsedAddr) => (is4(a) ? a.bytes[0] === 127 : bytesEq(a, [...new Array<number>(15).fill(0), 1]));
const isMulticast = (a: ParsedAddr) => (is4(a) ? (a.bytes[0]! & 0xf0) === 0xe0 : a.bytes[0] === 0xff);
const isLinkLocalUnicast = (a: ParsedAddr) => (is4(a) ? a.bytes[0] === 169 && a.bytes[1] === 254 : a.bytes[0] === 0xfe && (a.bytes[1]! & 0xc0) === 0x80);
const isUnspecified = (a: ParsedAddr) => a.bytes.every((b) => b === 0);

function containsCidr(p: ParsedPrefix, other: ParsedPrefix): boolean {
  // kube-apiserver compares p.Masked() with PrefixFrom(other.Addr(), p.Bits()), which does not
  // mask `other`'s address: it must equal p's network address exactly.
  const masked = maskAddr(p.addr, p.bits);
  return sameAddr(masked, other.addr) && p.bits <= other.bits;
}

/**
 * The IP and CIDR libraries.
 *
 * @example
 * ```ts
 * import { run } from "@bufbuild/cel";
 * import { IP_FUNCS } from "./lib-ip.ts";
 * run("cidr('192.168.0.0/24').containsIP('192.168.0.1')", {}, { funcs: [...IP_FUNCS] }); // true
 * ```
 */
export const IP_FUNCS: readonly CelFunc[] = [
  celFunc("ip", [STRING], IP, (s) => wrapIp(ipOrThrow(s))),
  celFunc("isIP", [STRING], BOOL, (s) => typeof parseIp(s) !== "string"),
  celFunc("ip.isCanonical", [STRING], BOOL, (s) => addrString(ipOrThrow(s)) === s),
  celFunc("string", [IP], STRING, (a) => addrString(ipT.unwrap(a))),
  celMethod("family", IP, [], INT, function () {
    return is4(ipT.unwrap(this)) ? 4n : 6n;
  }),
  celMethod("isUnspecified", IP, [], BOOL, function () {
    return isUnspecified(ipT.unwrap(this));
  }),
  celMethod("isLoopback", IP, [], BOOL, function () {
    return isLoopback(ipT.unwrap(this));
  }),
  celMethod("isLinkLocalMulticast", IP, [], BOOL, function () {
    const a = ipT.unwrap(this);
    return is4(a) ? a.bytes[0] === 224 && a.bytes[1] === 0 && a.bytes[2] === 0 : a.bytes[0] === 0xff && (a.bytes[1]! & 0x0f) === 0x02;
  }),
  celMethod("isLinkLocalUnicast", IP, [], BOOL, function () {
    return isLinkLocalUnicast(ipT.unwrap(this));
  }),
  celMethod("isGlobalUnicast", IP, [], BOOL, function () {
    const a = ipT.unwrap(this);
    if (is4(a) && a.bytes.every((b) => b === 255)) return false;
    return !isUnspecified(a) && !isLoopback(a) && !isMulticast(a) && !isLinkLocalUnicast(a);
  }),
  celFunc("cidr", [STRING], CIDR, (s) => wrapCidr(cidrOrThrow(s))),
  celFunc("isCIDR", [STRING], BOOL, (s) => typeof parseCidr(s) !== "string"),
  celFunc("string", [CIDR], STRING, (p) => {
    const v = cidrT.unwrap(p);
    return `${addrString(v.addr)}/${v.bits}`;
  }),
  celMethod("containsIP", CIDR, [IP], BOOL, function (a) {
    return prefixContains(cidrT.unwrap(this), ipT.unwrap(a));
  }),
  celMethod("containsIP", CIDR, [STRING], BOOL, function (s) {
    if (typeof parseIp(s) === "string") throw new Error("no such overload");
    return prefixContains(cidrT.unwrap(this), ipOrThrow(s));
  }),
  celMethod("containsCIDR", CIDR, [CIDR], BOOL, function (o) {
    return containsCidr(cidrT.unwrap(this), cidrT.unwrap(o));
  }),
  celMethod("containsCIDR", CIDR, [STRING], BOOL, function (s) {
    return containsCidr(cidrT.unwrap(this), cidrOrThrow(s));
  }),
  celMethod("ip", CIDR, [], IP, function () {
    return wrapIp(cidrT.unwrap(this).addr);
  }),
  celMethod("masked", CIDR, [], CIDR, function () {
    const p = cidrT.unwrap(this);
    return wrapCidr({ addr: maskAddr(p.addr, p.bits), bits: p.bits });
  }),
  celMethod("prefixLength", CIDR, [], INT, function () {
    return BigInt(cidrT.unwrap(this).bits);
  }),
];
