/**
 * Decoded protobuf messages → the JSON the API uses for the same object.
 *
 * Field names are the proto names (Kubernetes' `generated.proto` already spells them as the Go
 * JSON tags). Types with their own JSON form are converted as apimachinery marshals them:
 * `IntOrString` → number or string, `Quantity` → string, `Time` → RFC 3339 seconds,
 * `MicroTime` → RFC 3339 microseconds, `FieldsV1` and `RawExtension` → the JSON they hold,
 * `bytes` → base64; embedded structs ({@link isInline}) spread into their parent. Empty values are left out the way Go's `omitempty` leaves them out: absent
 * or empty lists and maps, empty strings, zero numbers and `false` (except the pointer fields
 * of {@link keepsZero}); a message that is on the wire stays, even empty (`resources: {}`), as
 * a Go struct or non-nil pointer would.
 */
import protobuf from "protobufjs";
import type { MessageType } from "./schema.ts";
import { keepsZero } from "./keep-zero.ts";
import { isInline } from "./inline-fields.ts";
import { badRequest } from "../status.ts";
import { LOCAL_MAX_NESTING_DEPTH, depthError, jsonNestingDepth } from "../nesting-depth.ts";

const APIMACHINERY = "k8s.io.apimachinery.pkg";

/** A decoded message: protobufjs puts fields read from the wire on the object itself. */
type Decoded = Record<string, unknown>;

/** A 64-bit integer as protobufjs decodes it (a `Long` when the `long` package is present). */
interface LongLike {
  toNumber(): number;
}

/** The JSON value of `msg` of message `type`, or undefined when Go would omit it. */
export function messageToJson(type: MessageType, msg: Decoded): unknown {
  const name = fullName(type);
  switch (name) {
    case `${APIMACHINERY}.util.intstr.IntOrString`:
      return Number(numberOf(msg.type ?? 0)) === 1 ? String(msg.strVal ?? "") : numberOf(msg.intVal ?? 0);
    case `${APIMACHINERY}.api.resource.Quantity`:
      return typeof msg.string === "string" && msg.string !== "" ? msg.string : "0";
    case `${APIMACHINERY}.apis.meta.v1.Time`:
      return timeOf(msg, false);
    case `${APIMACHINERY}.apis.meta.v1.MicroTime`:
      return timeOf(msg, true);
    case `${APIMACHINERY}.apis.meta.v1.FieldsV1`:
      return embeddedJson(msg.Raw, "FieldsV1");
    case `${APIMACHINERY}.runtime.RawExtension`:
      return embeddedJson(msg.raw, "RawExtension");
    default:
      return fieldsOf(type, name, msg);
  }
}

function fullName(type: MessageType): string {
  return type.fullName.startsWith(".") ? type.fullName.slice(1) : type.fullName;
}

function fieldsOf(type: MessageType, name: string, msg: Decoded): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of type.fieldsArray) {
    if (!Object.hasOwn(msg, field.name)) continue;
    const value = msg[field.name];
    const nested = field.resolvedType instanceof protobuf.Type ? field.resolvedType : undefined;
    const convert = (v: unknown): unknown => (nested ? messageToJson(nested, v as Decoded) : scalarOf(field.type, v));
    let json: unknown;
    if (field.map) {
      const entries = Object.entries(value as Record<string, unknown>);
      if (entries.length === 0) continue;
      json = Object.fromEntries(entries.map(([k, v]) => [k, convert(v) ?? null]));
    } else if (field.repeated) {
      const items = value as unknown[];
      if (items.length === 0) continue;
      json = items.map((v) => convert(v) ?? null);
    } else {
      json = convert(value);
      if (!nested && isZero(json) && !keepsZero(name, field.name)) continue;
    }
    if (json === undefined) continue;
    if (isInline(name, field.name) && json !== null && typeof json === "object") Object.assign(out, json);
    else out[field.name] = json;
  }
  return out;
}

function isZero(v: unknown): boolean {
  return v === "" || v === 0 || v === false;
}

function numberOf(v: unknown): number {
  if (typeof v === "number") return v;
  if (v !== null && typeof v === "object" && typeof (v as LongLike).toNumber === "function") return (v as LongLike).toNumber();
  return Number(v);
}

function scalarOf(protoType: string, v: unknown): unknown {
  switch (protoType) {
    case "bytes":
      return Buffer.from(v as Uint8Array).toString("base64");
    case "string":
    case "bool":
      return v;
    default:
      return numberOf(v);
  }
}

/** A `Time`/`MicroTime`: an empty message is Go's zero time, which JSON writes as null (left out). */
function timeOf(msg: Decoded, micro: boolean): string | undefined {
  if (!Object.hasOwn(msg, "seconds") && !Object.hasOwn(msg, "nanos")) return undefined;
  const seconds = numberOf(msg.seconds ?? 0);
  const nanos = numberOf(msg.nanos ?? 0);
  const date = new Date(seconds * 1000);
  const year = date.getUTCFullYear();
  if (!Number.isFinite(date.getTime()) || year < 0 || year > 9999 || nanos < 0 || nanos > 999_999_999) {
    throw badRequest(`protobuf body: timestamp out of range (seconds ${seconds}, nanos ${nanos})`);
  }
  const base = date.toISOString().slice(0, 19);
  return micro ? `${base}.${String(Math.floor(nanos / 1000)).padStart(6, "0")}Z` : `${base}Z`;
}

/**
 * The JSON document a `FieldsV1` or `RawExtension` carries; left out when empty. Its nesting is
 * measured before parsing, as for a JSON body (see `nesting-depth.ts`): the decoder caps the
 * whole object's depth afterwards, but a document deep enough to overflow the parser or the
 * code that copies it must not get that far.
 */
function embeddedJson(raw: unknown, what: string): unknown {
  const bytes = raw instanceof Uint8Array ? raw : new Uint8Array();
  if (bytes.length === 0) return undefined;
  const text = Buffer.from(bytes).toString("utf8");
  const depth = jsonNestingDepth(text, LOCAL_MAX_NESTING_DEPTH);
  if (depth > LOCAL_MAX_NESTING_DEPTH) throw badRequest(`protobuf body: the ${what} does not hold JSON: ${depthError(depth)}`);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw badRequest(`protobuf body: the ${what} does not hold JSON: ${(err as Error).message}`);
  }
}
