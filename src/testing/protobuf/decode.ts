/**
 * Reads `application/vnd.kubernetes.protobuf` request bodies into the JSON form of the object.
 *
 * Wire format (apimachinery's protobuf serializer): the 4 bytes `k8s\0`, then a
 * `runtime.Unknown` message: `typeMeta` (apiVersion, kind), `raw` (the object encoded with
 * its kind's message from `generated.proto`), `contentEncoding`, `contentType`. Any malformed
 * body answers 400 BadRequest, never 500; so does one nested deeper than a JSON body may be
 * (see `nesting-depth.ts`), through the JSON that `FieldsV1` and `RawExtension` embed.
 */
import { StatusError, badRequest } from "../status.ts";
import { messageToJson } from "./to-json.ts";
import { UNKNOWN_MESSAGE, messageNameFor, messageNamed } from "./schema.ts";
import { LOCAL_MAX_NESTING_DEPTH, depthError, valueTooDeep } from "../nesting-depth.ts";

/** The protobuf media type Kubernetes clients send. */
export const PROTOBUF_MEDIA_TYPE = "application/vnd.kubernetes.protobuf";

/** `k8s\0`: the prefix of every Kubernetes protobuf document. */
const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

/** The `runtime.Unknown` envelope of a protobuf body. */
export interface ProtobufEnvelope {
  apiVersion: string;
  kind: string;
  raw: Uint8Array;
  contentEncoding: string;
  contentType: string;
}

/** The apiVersion and kind the request's URL expects. */
export interface ExpectedKind {
  apiVersion: string;
  kind: string;
}

/**
 * Whether a protobuf body for `kind` of `apiVersion` can be read: built-in kinds whose
 * definitions are vendored. Custom resources have no message (kube-apiserver answers 415).
 */
export function acceptsProtobuf(apiVersion: string, kind: string): boolean {
  return messageNameFor(apiVersion, kind) !== undefined;
}

/** Splits a protobuf body into its envelope; 400 on a missing prefix or a broken envelope. */
export function readEnvelope(body: Uint8Array): ProtobufEnvelope {
  if (body.length < MAGIC.length || !MAGIC.equals(body.subarray(0, MAGIC.length))) {
    throw badRequest(`provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]`);
  }
  const unknown = decodeMessage(UNKNOWN_MESSAGE, body.subarray(MAGIC.length), "runtime.Unknown envelope");
  const typeMeta = (unknown.typeMeta ?? {}) as Record<string, unknown>;
  return {
    apiVersion: String(typeMeta.apiVersion ?? ""),
    kind: String(typeMeta.kind ?? ""),
    raw: unknown.raw instanceof Uint8Array ? unknown.raw : new Uint8Array(),
    contentEncoding: String(unknown.contentEncoding ?? ""),
    contentType: String(unknown.contentType ?? ""),
  };
}

/**
 * Decodes a protobuf request body into the object's JSON form. The envelope's apiVersion and
 * kind win when set (a mismatch with the URL is then reported by the caller, as for JSON);
 * when empty, `expected` picks the message and the fields are left for the caller to fill.
 *
 * @throws {StatusError} 400 for a malformed body, an unknown kind or an encoding other than none.
 */
export function decodeProtobufObject(body: Uint8Array, expected: ExpectedKind): Record<string, unknown> {
  const env = readEnvelope(body);
  if (env.contentEncoding !== "") {
    throw badRequest(`protobuf body: unsupported content encoding "${env.contentEncoding}"`);
  }
  if (env.contentType !== "" && env.contentType !== PROTOBUF_MEDIA_TYPE) {
    throw badRequest(`protobuf body: unsupported embedded content type "${env.contentType}"`);
  }
  const apiVersion = env.apiVersion || expected.apiVersion;
  const kind = env.kind || expected.kind;
  const name = messageNameFor(apiVersion, kind);
  if (!name) throw badRequest(`no kind "${kind}" is registered for version "${apiVersion}"`);
  const type = messageNamed(name);
  const msg = decodeMessage(name, env.raw, kind);
  let json: Record<string, unknown>;
  try {
    json = messageToJson(type, msg) as Record<string, unknown>;
  } catch (err) {
    if (err instanceof StatusError) throw err;
    throw badRequest(`unable to read the protobuf ${kind}: ${(err as Error)?.message ?? String(err)}`);
  }
  // Embedded JSON (FieldsV1, RawExtension) sits a few levels down: the object as a whole obeys
  // the same nesting limit as a JSON body.
  if (valueTooDeep(json)) throw badRequest(`unable to read the protobuf ${kind}: ${depthError(LOCAL_MAX_NESTING_DEPTH + 1)}`);
  return {
    ...(env.apiVersion ? { apiVersion: env.apiVersion } : {}),
    ...(env.kind ? { kind: env.kind } : {}),
    ...json,
  };
}

/** Decodes one message; any failure (truncation, bad wire type) is a 400 naming `what`. */
function decodeMessage(name: string, bytes: Uint8Array, what: string): Record<string, unknown> {
  try {
    return messageNamed(name).decode(bytes) as unknown as Record<string, unknown>;
  } catch (err) {
    if (err instanceof StatusError) throw err;
    throw badRequest(`unable to decode the protobuf body as ${what}: ${(err as Error)?.message ?? String(err)}`);
  }
}
