/**
 * List continue tokens in kube-apiserver's format: unpadded base64url of
 * `{"v":"meta.k8s.io/v1","rv":N,"start":"<key>\u0000"}`, where the start key is relative to
 * the listed prefix (`name` in one namespace, `namespace/name` across namespaces) and the
 * trailing NUL makes the next page start strictly after the last object returned. A token that
 * does not decode is refused with kube-apiserver's words, e.g. `invalid continue token: continue
 * key is not valid: invalid character '\u0081' looking for beginning of value`.
 *
 * @module
 */
import { badRequest } from "./status.ts";
import { goJsonSyntaxError } from "./go-json-syntax.ts";

/** A decoded continue token: the list's resourceVersion and where its next page starts. */
export interface ContinueToken {
  /** The resourceVersion of the first page (negative: "the latest", as kube-apiserver reads it). */
  readonly rv: number;
  /** The first key of the next page, relative to the listed prefix (inclusive). */
  readonly start: string;
}

const VERSION = "meta.k8s.io/v1";
const INVALID = "continue key is not valid";
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * The token for the page after the object at `lastKey` (relative to the listed prefix) of a
 * list served at `rv`.
 *
 * @example
 * ```ts
 * encodeContinue(12, "c1"); // → base64url of {"v":"meta.k8s.io/v1","rv":12,"start":"c1\u0000"}
 * ```
 */
export function encodeContinue(rv: number, lastKey: string): string {
  return Buffer.from(JSON.stringify({ v: VERSION, rv, start: `${lastKey}\0` })).toString("base64url");
}

/**
 * Decodes a continue token as kube-apiserver's `DecodeContinue` does.
 *
 * @throws {StatusError} 400 `invalid continue token: continue key is not valid…` with the
 *   reason kube-apiserver gives (bad base64, Go's JSON error, unknown version, zero
 *   resourceVersion, empty or unclean start key).
 */
export function decodeContinue(text: string): ContinueToken {
  const problem = (detail: string) => badRequest(`invalid continue token: ${detail}`);
  const data = decodeRawUrlBase64(text);
  if (typeof data === "string") throw problem(`${INVALID}: ${data}`);
  const members: Member[] = [];
  const slice = (range: [number, number]) => new TextDecoder().decode(data.subarray(range[0], range[1]));
  const syntax = goJsonSyntaxError(data, (key, value) => members.push({ key: JSON.parse(slice(key)) as string, value: slice(value) }));
  if (syntax) throw problem(`${INVALID}: ${syntax}`);
  const fields = tokenFields(slice([0, data.length]).trim(), members);
  if (typeof fields === "string") throw problem(`${INVALID}: ${fields}`);
  if (fields.v !== VERSION) throw problem(`${INVALID}: server does not recognize this encoded version ${fields.v}`);
  if (fields.rv === 0) throw problem(`${INVALID}: incorrect encoded start resourceVersion (version ${VERSION})`);
  if (fields.start === "") throw problem(`${INVALID}: encoded start key empty (version ${VERSION})`);
  const key = fields.start.startsWith("/") ? fields.start : `/${fields.start}`;
  if (cleanRooted(key) !== key) throw problem(`${INVALID}: ${fields.start}`);
  return { rv: fields.rv, start: key.slice(1) };
}

/** Go's `base64.RawURLEncoding.DecodeString`: the bytes, or Go's error text. */
function decodeRawUrlBase64(text: string): Uint8Array | string {
  const input = Buffer.from(text, "utf8");
  const sextets: number[] = [];
  let lastIndex = 0;
  for (let i = 0; i < input.length; i++) {
    const c = input[i]!;
    if (c === 0x0a || c === 0x0d) continue;
    const v = URL_ALPHABET.indexOf(String.fromCharCode(c));
    if (v < 0) return `illegal base64 data at input byte ${i}`;
    sextets.push(v);
    lastIndex = i;
  }
  if (sextets.length % 4 === 1) return `illegal base64 data at input byte ${lastIndex}`;
  const out: number[] = [];
  for (let i = 0; i < sextets.length; i += 4) {
    const n = sextets.length - i;
    const bits = (sextets[i]! << 18) | ((sextets[i + 1] ?? 0) << 12) | ((sextets[i + 2] ?? 0) << 6) | (sextets[i + 3] ?? 0);
    out.push((bits >> 16) & 0xff);
    if (n > 2) out.push((bits >> 8) & 0xff);
    if (n > 3) out.push(bits & 0xff);
  }
  return Uint8Array.from(out);
}

const URL_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** One member of the token's top-level object: its key and its value's JSON text. */
interface Member {
  key: string;
  value: string;
}

/** The Go JSON kind of a value's text, as named in `cannot unmarshal <kind>`. */
function goKind(json: string): string {
  const c = json[0];
  if (c === "{") return "object";
  if (c === "[") return "array";
  if (c === '"') return "string";
  if (c === "t" || c === "f") return "bool";
  return "number";
}

/**
 * `json.Unmarshal` of syntactically valid JSON (`whole`, with `members` when it is an object)
 * into kube-apiserver's `continueToken` struct (`v` string, `rv` int64, `start` string; keys
 * matched case-insensitively, the last one winning, null leaving a field unset): the fields,
 * or Go's first type error.
 */
function tokenFields(whole: string, members: readonly Member[]): { v: string; rv: number; start: string } | string {
  const fields = { v: "", rv: 0, start: "" };
  if (whole === "null") return fields;
  if (!whole.startsWith("{")) return `json: cannot unmarshal ${goKind(whole)} into Go value of type storage.continueToken`;
  let firstError: string | undefined;
  for (const { key, value } of members) {
    const field = TOKEN_FIELDS.find((f) => f === key) ?? TOKEN_FIELDS.find((f) => f === key.toLowerCase());
    if (field === undefined || value === "null") continue;
    const kind = goKind(value);
    if (field === "rv") {
      if (kind === "number" && /^-?\d+$/.test(value) && BigInt(value) >= INT64_MIN && BigInt(value) <= INT64_MAX) fields.rv = Number(value);
      else firstError ??= `json: cannot unmarshal ${kind === "number" ? `number ${value}` : kind} into Go struct field continueToken.rv of type int64`;
    } else if (kind === "string") {
      fields[field] = JSON.parse(value) as string;
    } else {
      firstError ??= `json: cannot unmarshal ${kind} into Go struct field continueToken.${field} of type string`;
    }
  }
  return firstError ?? fields;
}

const TOKEN_FIELDS = ["v", "rv", "start"] as const;

/** Go's `path.Clean` of a rooted path. */
function cleanRooted(p: string): string {
  const out: string[] = [];
  for (const seg of p.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") out.pop();
    else out.push(seg);
  }
  return `/${out.join("/")}`;
}
