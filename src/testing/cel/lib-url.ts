/**
 * Kubernetes' CEL URL library (`url()`, `isURL`, `getScheme`, `getHost`, `getHostname`,
 * `getPort`, `getEscapedPath`, `getQuery`), following Go's `net/url`: a string is a URL when
 * `url.ParseRequestURI` accepts it (an absolute URI or an absolute path), and its parts are
 * those `url.Parse` finds.
 *
 * @module
 */
import { CelScalar, celFunc, celMethod, listType, mapType } from "@bufbuild/cel";
import type { CelFunc } from "@bufbuild/cel";
import { opaqueType } from "./lib-opaque.ts";

/** The parts of a URL that `net/url` parses and the library reads. */
export interface ParsedUrl {
  readonly scheme: string;
  readonly opaque: string;
  readonly user: string;
  readonly host: string;
  readonly path: string;
  /** The path as written, when valid percent-encoding (Go's `RawPath` rule). */
  readonly rawPath: string;
  readonly rawQuery: string;
  readonly fragment: string;
}

class UrlError extends Error {}

function hex(c: string | undefined): boolean {
  return c !== undefined && /^[0-9A-Fa-f]$/.test(c);
}

const HOST_OK = /^[A-Za-z0-9\-_.~!$&'()*+,;=:[\]<>"]$/;

/** Go's `unescape` for `mode`: percent-decoding with its checks. */
function unescape(s: string, mode: "host" | "zone" | "path" | "fragment" | "query" | "userinfo"): string {
  const bytes: number[] = [];
  const enc = new TextEncoder();
  for (let i = 0; i < s.length; ) {
    const c = s[i]!;
    if (c === "%") {
      if (!hex(s[i + 1]) || !hex(s[i + 2])) {
        let bad = s.slice(i);
        if (bad.length > 3) bad = bad.slice(0, 3);
        throw new UrlError(`invalid URL escape ${JSON.stringify(bad)}`);
      }
      const v = parseInt(s.slice(i + 1, i + 3), 16);
      if (mode === "host" && v < 0x80 && s.slice(i, i + 3) !== "%25") throw new UrlError(`invalid URL escape ${JSON.stringify(s.slice(i, i + 3))}`);
      bytes.push(v);
      i += 3;
      continue;
    }
    const code = c.charCodeAt(0);
    if ((mode === "host" || mode === "zone") && code < 0x80 && !HOST_OK.test(c)) throw new UrlError(`invalid character ${JSON.stringify(c)} in host name`);
    if (mode === "query" && c === "+") bytes.push(0x20);
    else bytes.push(...enc.encode(String.fromCodePoint(s.codePointAt(i)!)));
    i += String.fromCodePoint(s.codePointAt(i)!).length;
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/** Go's `shouldEscape(c, encodePath)` for an ASCII character. */
function pathKeeps(c: string): boolean {
  return /^[A-Za-z0-9\-_.~$&+,/:;=@]$/.test(c);
}

/** Go's `escape(s, encodePath)`. */
function escapePath(s: string): string {
  let out = "";
  for (const b of new TextEncoder().encode(s)) {
    const c = String.fromCharCode(b);
    out += b < 0x80 && pathKeeps(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** Go's `validEncoded(s, encodePath)`. */
function validEncodedPath(s: string): boolean {
  for (const c of s) {
    if ("!$&'()*+,;=:@[]".includes(c) || c === "%") continue;
    if (c.charCodeAt(0) < 0x80 && pathKeeps(c)) continue;
    return false;
  }
  return true;
}

function validOptionalPort(port: string): boolean {
  return port === "" || /^:[0-9]*$/.test(port);
}

function parseHost(host: string): string {
  if (host.startsWith("[")) {
    const i = host.lastIndexOf("]");
    if (i < 0) throw new UrlError("missing ']' in host");
    const colonPort = host.slice(i + 1);
    if (!validOptionalPort(colonPort)) throw new UrlError(`invalid port ${JSON.stringify(colonPort)} after host`);
    const zone = host.slice(0, i).indexOf("%25");
    if (zone >= 0) {
      return unescape(host.slice(0, zone), "host") + unescape(host.slice(zone, i), "zone") + unescape(host.slice(i), "host");
    }
  } else {
    const i = host.lastIndexOf(":");
    if (i >= 0 && !validOptionalPort(host.slice(i))) throw new UrlError(`invalid port ${JSON.stringify(host.slice(i))} after host`);
  }
  return unescape(host, "host");
}

const USERINFO_OK = /^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/;

/** Go's `url.parse(rawURL, viaRequest)` (no fragment handling). */
function parse(raw: string, viaRequest: boolean): ParsedUrl {
  if (/[\x00-\x1f\x7f]/.test(raw)) throw new UrlError("net/url: invalid control character in URL");
  if (raw === "" && viaRequest) throw new UrlError("empty url");
  const base = { scheme: "", opaque: "", user: "", host: "", path: "", rawPath: "", rawQuery: "", fragment: "" };
  if (raw === "*") return { ...base, path: "*" };
  let scheme = "";
  let rest = raw;
  const m = /^[A-Za-z][A-Za-z0-9+\-.]*:/.exec(raw);
  if (raw.startsWith(":")) throw new UrlError("missing protocol scheme");
  if (m) {
    scheme = m[0].slice(0, -1).toLowerCase();
    rest = raw.slice(m[0].length);
  }
  let rawQuery = "";
  if (rest.endsWith("?") && rest.split("?").length === 2) rest = rest.slice(0, -1);
  else {
    const q = rest.indexOf("?");
    if (q >= 0) {
      rawQuery = rest.slice(q + 1);
      rest = rest.slice(0, q);
    }
  }
  if (!rest.startsWith("/")) {
    if (scheme !== "") return { ...base, scheme, opaque: rest, rawQuery };
    if (viaRequest) throw new UrlError("invalid URI for request");
    const slash = rest.indexOf("/");
    if ((slash < 0 ? rest : rest.slice(0, slash)).includes(":")) throw new UrlError("first path segment in URL cannot contain colon");
  }
  let user = "";
  let host = "";
  if ((scheme !== "" || (!viaRequest && !rest.startsWith("///"))) && rest.startsWith("//")) {
    let authority = rest.slice(2);
    rest = "";
    const slash = authority.indexOf("/");
    if (slash >= 0) {
      rest = authority.slice(slash);
      authority = authority.slice(0, slash);
    }
    const at = authority.lastIndexOf("@");
    host = parseHost(at < 0 ? authority : authority.slice(at + 1));
    if (at >= 0) {
      const userinfo = authority.slice(0, at);
      if (!USERINFO_OK.test(userinfo)) throw new UrlError("net/url: invalid userinfo");
      user = unescape(userinfo, "userinfo");
    }
  }
  const path = unescape(rest, "path");
  const rawPath = escapePath(path) === rest ? "" : rest;
  return { ...base, scheme, user, host, path, rawPath, rawQuery };
}

function quoteGo(s: string): string {
  return JSON.stringify(s);
}

/**
 * Go's `url.ParseRequestURI` then `url.Parse`: the URL, or the error kube-apiserver reports.
 *
 * @example
 * ```ts
 * import { parseUrl } from "./lib-url.ts";
 * (parseUrl("https://example.com:80/p") as { host: string }).host; // "example.com:80"
 * parseUrl("../relative"); // 'parse "../relative": invalid URI for request'
 * ```
 */
export function parseUrl(s: string): ParsedUrl | string {
  try {
    parse(s, true);
  } catch (e) {
    if (e instanceof UrlError) return `parse ${quoteGo(s)}: ${e.message}`;
    throw e;
  }
  const hash = s.indexOf("#");
  const u = hash < 0 ? s : s.slice(0, hash);
  try {
    const parsed = parse(u, false);
    return hash < 0 ? parsed : { ...parsed, fragment: unescape(s.slice(hash + 1), "fragment") };
  } catch (e) {
    if (e instanceof UrlError) return `parse ${quoteGo(hash < 0 ? u : s)}: ${e.message}`;
    throw e;
  }
}

/**
 * The error of Go's `url.ParseRequestURI(s)` (`parse "<s>": <why>`), or undefined when `s` is an
 * absolute URI or an absolute path.
 *
 * @example
 * ```ts
 * import { requestUriError } from "./lib-url.ts";
 * requestUriError("relative"); // 'parse "relative": invalid URI for request'
 * requestUriError("/ok");      // undefined
 * ```
 */
export function requestUriError(s: string): string | undefined {
  try {
    parse(s, true);
    return undefined;
  } catch (e) {
    if (e instanceof UrlError) return `parse ${quoteGo(s)}: ${e.message}`;
    throw e;
  }
}

function splitHostPort(hostPort: string): [string, string] {
  let host = hostPort;
  let port = "";
  const colon = host.lastIndexOf(":");
  if (colon >= 0 && validOptionalPort(host.slice(colon))) {
    port = host.slice(colon + 1);
    host = host.slice(0, colon);
  }
  if (host.startsWith("[") && host.endsWith("]")) host = host.slice(1, -1);
  return [host, port];
}

/** Go's `url.ParseQuery`, keeping what parses (as `URL.Query` does). */
function parseQuery(raw: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of raw.split("&")) {
    if (part === "" || part.includes(";")) continue;
    const eq = part.indexOf("=");
    try {
      const key = unescape(eq < 0 ? part : part.slice(0, eq), "query");
      const value = unescape(eq < 0 ? "" : part.slice(eq + 1), "query");
      out.set(key, [...(out.get(key) ?? []), value]);
    } catch (e) {
      if (!(e instanceof UrlError)) throw e;
    }
  }
  return out;
}

const urlT = opaqueType<ParsedUrl>("kubernetes.URL", (key) => JSON.parse(key) as ParsedUrl);
const U = urlT.type;
const { STRING, BOOL } = CelScalar;

/**
 * The URL library.
 *
 * @example
 * ```ts
 * import { run } from "@bufbuild/cel";
 * import { URL_FUNCS } from "./lib-url.ts";
 * run("url('https://[::1]:80/').getHostname()", {}, { funcs: [...URL_FUNCS] }); // "::1"
 * ```
 */
export const URL_FUNCS: readonly CelFunc[] = [
  celFunc("url", [STRING], U, (s) => {
    const u = parseUrl(s);
    if (typeof u === "string") throw new Error(`URL parse error during conversion from string: ${u}`);
    return urlT.wrap(u, JSON.stringify(u));
  }),
  celFunc("isURL", [STRING], BOOL, (s) => {
    try {
      parse(s, true);
      return true;
    } catch (e) {
      if (e instanceof UrlError) return false;
      throw e;
    }
  }),
  celMethod("getScheme", U, [], STRING, function () {
    return urlT.unwrap(this).scheme;
  }),
  celMethod("getHost", U, [], STRING, function () {
    return urlT.unwrap(this).host;
  }),
  celMethod("getHostname", U, [], STRING, function () {
    return splitHostPort(urlT.unwrap(this).host)[0];
  }),
  celMethod("getPort", U, [], STRING, function () {
    return splitHostPort(urlT.unwrap(this).host)[1];
  }),
  celMethod("getEscapedPath", U, [], STRING, function () {
    const u = urlT.unwrap(this);
    if (u.rawPath !== "" && validEncodedPath(u.rawPath)) return u.rawPath;
    return escapePath(u.path);
  }),
  celMethod("getQuery", U, [], mapType(STRING, listType(STRING)), function () {
    return parseQuery(urlT.unwrap(this).rawQuery);
  }),
];
