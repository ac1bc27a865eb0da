/**
 * Reading request bodies and writing JSON responses the way kube-apiserver does: every
 * response is `application/json`, errors are `Status` bodies, bodies are size-limited.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { load as loadYaml } from "js-yaml";
import { StatusError, badRequest } from "./status.ts";
import { LOCAL_MAX_NESTING_DEPTH, depthError, jsonNestingDepth, valueTooDeep } from "./nesting-depth.ts";
import { yamlAliasProblem } from "./yaml-aliases.ts";
import { goJsonSyntaxError } from "./go-json-syntax.ts";
import { goJsonKind } from "./json-value.ts";

/** The API server's request body limit (3 MiB). */
export const MAX_BODY_BYTES = 3 * 1024 * 1024;

/** Reads the whole body, rejecting more than {@link MAX_BODY_BYTES} with 413. */
export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function tooLarge(): StatusError {
  return new StatusError(413, "RequestEntityTooLarge", `Request entity too large: limit is ${MAX_BODY_BYTES}`);
}

/** The media type of a request without parameters, lower-cased. */
export function mediaType(req: IncomingMessage): string {
  return (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
}

/**
 * Parses a JSON (or, for apply and yaml bodies, YAML) object body; 400 on bad syntax, on
 * nesting deeper than the decoder allows (see `nesting-depth.ts`), and on YAML whose aliases
 * would expand it excessively or into a cycle (see {@link yamlAliasProblem}).
 *
 * `expectedKind` is the kind a create or update URL takes (`ConfigMap`, `Scale`): a JSON body
 * that does not decode is then answered as kube-apiserver's handlers do, naming the kind and
 * quoting the body's start — `the object provided is unrecognized (must be of type ConfigMap):
 * couldn't get version/kind; json parse error: invalid character 'n' looking for beginning of
 * object key string ({not json)` — with Go's own syntax errors.
 */
export function parseObjectBody(buf: Buffer, type: string, expectedKind?: string): Record<string, unknown> {
  const text = buf.toString("utf8");
  const yaml = type.endsWith("yaml");
  const decodeError = (detail: string) => {
    const error = `couldn't get version/kind; json parse error: ${detail}`;
    if (expectedKind === undefined || yaml) return badRequest(error);
    return badRequest(`the object provided is unrecognized (must be of type ${expectedKind}): ${error} (${summarizeBody(buf)})`);
  };
  if (!yaml) {
    const depth = jsonNestingDepth(text);
    if (depth > LOCAL_MAX_NESTING_DEPTH) throw decodeError(depthError(depth));
  }
  let value: unknown;
  try {
    // js-yaml's own depth guard is looser than ours (its levels are not ours); valueTooDeep decides.
    value = yaml ? loadYaml(text, { maxDepth: 2 * LOCAL_MAX_NESTING_DEPTH }) : JSON.parse(text);
  } catch (err) {
    // js-yaml parses recursively: a body nested past its guard or the stack is a depth error too.
    const tooDeep = err instanceof RangeError || /exceeded maxDepth/.test((err as Error).message);
    if (tooDeep) throw decodeError(depthError(LOCAL_MAX_NESTING_DEPTH + 1));
    throw decodeError((yaml ? undefined : goJsonSyntaxError(buf)) ?? (err as Error).message.split("\n")[0]!);
  }
  // Aliases first: the depth walk below would otherwise expand an alias bomb.
  const aliasProblem = yaml ? yamlAliasProblem(value) : undefined;
  if (aliasProblem) throw badRequest(`error decoding YAML: ${aliasProblem}`);
  if (yaml && valueTooDeep(value)) throw decodeError(depthError(LOCAL_MAX_NESTING_DEPTH + 1));
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    if (expectedKind !== undefined && !yaml && value !== null) throw decodeError(`json: cannot unmarshal ${goJsonKind(value)} into Go value of type ${KIND_PROBE_TYPE}`);
    throw badRequest("couldn't get version/kind; json parse error: the body is not a JSON object");
  }
  return value as Record<string, unknown>;
}

/** The Go type kube-apiserver first decodes a body into, to read its apiVersion and kind. */
const KIND_PROBE_TYPE = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

/**
 * kube-apiserver's `summarizeData(body, 30)`: `<empty>`, a body starting with `{` as text, any
 * other as hex, cut after 30 bytes with ` ...`.
 */
export function summarizeBody(data: Uint8Array): string {
  if (data.length === 0) return "<empty>";
  const head = Buffer.from(data.subarray(0, 30));
  const more = data.length > 30 ? " ..." : "";
  return (data[0] === 0x7b ? head.toString("utf8") : head.toString("hex")) + more;
}

/** Parses any JSON value (json-patch bodies are arrays); 400 when nested too deep. */
export function parseJsonBody(buf: Buffer): unknown {
  const text = buf.toString("utf8");
  const depth = jsonNestingDepth(text);
  if (depth > LOCAL_MAX_NESTING_DEPTH) throw badRequest(`error decoding patch: ${depthError(depth)}`);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw badRequest(`error decoding patch: ${(err as Error).message}`);
  }
}

/** Sends a JSON text with a status code. */
export function sendJson(res: ServerResponse, code: number, json: string, headers?: Record<string, string | string[]>): void {
  res.writeHead(code, {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(json),
    "Cache-Control": "no-cache, private",
    ...headers,
  });
  res.end(json);
}

/** Sends an error as a Status body; unknown errors become 500 InternalError. */
export function sendError(res: ServerResponse, err: unknown): number {
  const status =
    err instanceof StatusError
      ? err
      : new StatusError(500, "InternalError", `Internal error occurred: ${(err as Error)?.message ?? String(err)}`);
  if (res.headersSent) {
    res.destroy();
    return status.code;
  }
  const headers: Record<string, string> = {};
  if (status.details?.retryAfterSeconds !== undefined) headers["Retry-After"] = String(status.details.retryAfterSeconds);
  sendJson(res, status.code, JSON.stringify(status.toStatus()), headers);
  return status.code;
}

/** `Warning` headers in the `299 - "text"` form. */
export function warningHeaders(warnings: string[]): Record<string, string[]> | undefined {
  if (warnings.length === 0) return undefined;
  return { Warning: warnings.map((w) => `299 - ${JSON.stringify(w)}`) };
}
