/**
 * JSON Patch (RFC 6902, `application/json-patch+json`) as the API server applies it.
 *
 * The six operations run in order against a copy of the stored object; the first failing
 * operation aborts the whole patch and nothing is changed.
 *
 * @module
 */

import { StatusError, badRequest } from "../status.ts";
import type { KubeObject } from "../resource-type.ts";
import { goJsonKind, isJsonObject, jsonEqualCountingUndefined, setMember } from "../json-value.ts";

/**
 * Identifies the object being patched. Accepted for callers' convenience: kube-apiserver's
 * 422 for a failing operation names no object (its `details` are empty), so neither does ours.
 *
 * @example
 * ```ts
 * const ctx: JsonPatchContext = { kind: "Deployment", group: "apps", name: "web" };
 * ```
 */
export interface JsonPatchContext {
  /** The Kind, e.g. `ConfigMap`. */
  kind: string;
  /** The API group, `""` for the core group. */
  group: string;
  /** `metadata.name` of the object. */
  name: string;
}

type Json = unknown;
type Container = Record<string, Json> | Json[];

/**
 * Raised inside this module for a failing operation, with the json-patch library's reason;
 * turned into kube-apiserver's generic 422 at the boundary (the reason is not sent).
 */
class OperationFailed extends Error {}

/** Most operations one JSON Patch may hold (kube-apiserver's `maxJSONPatchOperations`). */
export const MAX_JSON_PATCH_OPERATIONS = 10_000;

/**
 * Most bytes the `copy` operations of one patch may add in total (the JSON size of each copied
 * value, summed): kube-apiserver's `JSONPatchMaxCopyBytes` (3 MiB), which it hands to the
 * json-patch library as `AccumulatedCopySizeLimit`. Without it a short patch that copies a
 * value into itself again and again grows the document exponentially.
 */
export const MAX_JSON_PATCH_COPY_BYTES = 3 * 1024 * 1024;

/** The message kube-apiserver gives every failing operation (`NewGenericServerResponse(422)`). */
export const JSON_PATCH_REJECTED = "the server rejected our request due to an error in our request";

/**
 * Applies an RFC 6902 JSON Patch to `doc` and returns the patched copy. `doc` is never mutated.
 *
 * Errors, as kube-apiserver v1.36 answers them:
 * - 400 BadRequest when `patchBody` is not a JSON array of objects (the Go decoder's message).
 * - 413 RequestEntityTooLarge for more than {@link MAX_JSON_PATCH_OPERATIONS} operations
 *   (`Request entity too large: The allowed maximum operations in a JSON patch is 10000, got N`),
 *   before any operation runs.
 * - 422 Invalid when an operation cannot be applied: an unknown `op`, a missing `path`/`from`,
 *   a failed `test`, a missing target, or `copy` operations adding more than
 *   {@link MAX_JSON_PATCH_COPY_BYTES}. The real server drops the library's reason and answers
 *   {@link JSON_PATCH_REJECTED} with empty `details`; so does LocalCluster.
 * - 422 Invalid on the field `patch` when the result is not a JSON object (the decoder's error).
 *
 * @example
 * ```ts
 * import type { KubeObject } from "../resource-type.ts";
 *
 * declare const cm: KubeObject;
 * const next = applyJsonPatch(cm, [
 *   { op: "test", path: "/data/mode", value: "a" },
 *   { op: "replace", path: "/data/mode", value: "b" },
 * ], { kind: "ConfigMap", group: "", name: "settings" });
 * ```
 */
export function applyJsonPatch(doc: KubeObject, patchBody: unknown, _ctx?: JsonPatchContext): KubeObject {
  const ops = decodeOperations(patchBody);
  if (ops.length > MAX_JSON_PATCH_OPERATIONS) {
    throw new StatusError(413, "RequestEntityTooLarge",
      `Request entity too large: The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${ops.length}`);
  }
  let root: Json = structuredClone(doc);
  const budget = { copied: 0 };
  try {
    for (const op of ops) root = applyOperation(root, op, budget);
  } catch (err) {
    if (err instanceof OperationFailed) throw new StatusError(422, "Invalid", JSON_PATCH_REJECTED, {});
    throw err;
  }
  if (!isJsonObject(root)) throw notAnObject(root);
  return root as KubeObject;
}

/** The decoder's 422 for a patched document that is not an object (`patch: Invalid value: …`). */
function notAnObject(root: Json): StatusError {
  const detail = `couldn't get version/kind; json parse error: json: cannot unmarshal ${goJsonKind(root)} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`;
  const message = `Invalid value: ${JSON.stringify(JSON.stringify(root) ?? "null")}: ${detail}`;
  return new StatusError(422, "Invalid", ` "" is invalid: patch: ${message}`, {
    causes: [{ reason: "FieldValueInvalid", message, field: "patch" }],
  });
}

function decodeOperations(body: unknown): Record<string, Json>[] {
  if (!Array.isArray(body)) {
    throw badRequest(`json: cannot unmarshal ${goJsonKind(body)} into Go value of type jsonpatch.Patch`);
  }
  for (const op of body) {
    if (!isJsonObject(op)) {
      throw badRequest(`json: cannot unmarshal ${goJsonKind(op)} into Go value of type map[string]*json.RawMessage`);
    }
  }
  return body as Record<string, Json>[];
}

function applyOperation(root: Json, op: Record<string, Json>, budget: { copied: number }): Json {
  const kind = op["op"];
  if (typeof kind !== "string") throw new OperationFailed("operation missing op field");
  const path = pointerField(op, "path", kind);
  switch (kind) {
    case "add":
      return add(root, path, requireValue(op, kind), kind);
    case "remove":
      return remove(root, path, kind).root;
    case "replace": {
      const value = requireValue(op, kind);
      if (lookup(root, path) === undefined) {
        throw new OperationFailed(`replace operation does not apply: doc is missing key: ${path}: missing value`);
      }
      return add(remove(root, path, kind).root, path, value, kind);
    }
    case "move": {
      const from = pointerField(op, "from", kind);
      if (from === path) return root;
      if (path.startsWith(`${from}/`)) {
        throw new OperationFailed(`move operation does not apply: cannot move ${from} into its own child ${path}`);
      }
      const taken = remove(root, from, kind);
      return add(taken.root, path, taken.value, kind);
    }
    case "copy": {
      const from = pointerField(op, "from", kind);
      const value = lookup(root, from);
      if (value === undefined) {
        throw new OperationFailed(`copy operation does not apply: doc is missing from path: ${from}: missing value`);
      }
      // Measured before the value is cloned, so a runaway patch stops at the limit.
      budget.copied += Buffer.byteLength(JSON.stringify(value) ?? "null");
      if (budget.copied > MAX_JSON_PATCH_COPY_BYTES) {
        throw new OperationFailed(
          `Unable to complete the copy, the accumulated size increase of copy is ${budget.copied}, exceeding the limit ${MAX_JSON_PATCH_COPY_BYTES}`);
      }
      return add(root, path, structuredClone(value), kind);
    }
    case "test": {
      const expected = requireValue(op, kind);
      const actual = lookup(root, path);
      if (actual === undefined && expected !== null) {
        throw new OperationFailed(`test operation does not apply: is missing path: ${path}: missing value`);
      }
      if (!jsonEqualCountingUndefined(actual ?? null, expected)) {
        throw new OperationFailed(`testing value ${path} failed: test failed`);
      }
      return root;
    }
    default:
      throw new OperationFailed(`Unexpected kind: ${kind}`);
  }
}

function pointerField(op: Record<string, Json>, field: "path" | "from", kind: string): string {
  const value = op[field];
  if (typeof value !== "string") throw new OperationFailed(`${kind} operation missing ${field} field`);
  if (value !== "" && !value.startsWith("/")) {
    throw new OperationFailed(`${kind} operation does not apply: invalid JSON pointer ${JSON.stringify(value)}`);
  }
  return value;
}

function requireValue(op: Record<string, Json>, kind: string): Json {
  if (!Object.hasOwn(op, "value")) throw new OperationFailed(`${kind} operation missing value field`);
  return structuredClone(op["value"]);
}

/** Splits a JSON pointer into unescaped reference tokens. */
function tokens(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer.slice(1).split("/").map((t) => t.replaceAll("~1", "/").replaceAll("~0", "~"));
}

/** The value at `pointer`, or undefined when it does not exist. */
function lookup(root: Json, pointer: string): Json | undefined {
  let node: Json = root;
  for (const token of tokens(pointer)) {
    if (Array.isArray(node)) {
      const index = arrayIndex(token);
      if (index === undefined || index >= node.length) return undefined;
      node = node[index];
    } else if (isJsonObject(node) && Object.hasOwn(node, token)) {
      node = node[token];
    } else {
      return undefined;
    }
  }
  return node;
}

/** The container holding the last token of `pointer`, and that token. */
function parentOf(root: Json, pointer: string): { parent: Container; key: string } | undefined {
  const all = tokens(pointer);
  const key = all.pop();
  if (key === undefined) return undefined;
  const parent = lookup(root, all.length === 0 ? "" : `/${all.map(escapeToken).join("/")}`);
  if (!Array.isArray(parent) && !isJsonObject(parent)) return undefined;
  return { parent, key };
}

function escapeToken(token: string): string {
  return token.replaceAll("~", "~0").replaceAll("/", "~1");
}

function add(root: Json, path: string, value: Json, kind: string): Json {
  if (path === "") return value;
  const target = parentOf(root, path);
  if (target === undefined) {
    throw new OperationFailed(`${kind} operation does not apply: doc is missing path: ${JSON.stringify(path)}: missing value`);
  }
  const { parent, key } = target;
  if (Array.isArray(parent)) {
    const index = key === "-" ? parent.length : arrayIndex(key);
    if (index === undefined || index > parent.length) {
      throw new OperationFailed(`${kind} operation does not apply: index out of bounds: ${path}`);
    }
    parent.splice(index, 0, value);
  } else {
    setMember(parent, key, value);
  }
  return root;
}

function remove(root: Json, path: string, kind: string): { root: Json; value: Json } {
  const target = parentOf(root, path);
  const missing = (): OperationFailed =>
    new OperationFailed(`${kind} operation does not apply: doc is missing path: ${JSON.stringify(path)}: missing value`);
  if (target === undefined) {
    if (path === "") return { root: null, value: root };
    throw missing();
  }
  const { parent, key } = target;
  if (Array.isArray(parent)) {
    const index = arrayIndex(key);
    if (index === undefined || index >= parent.length) throw missing();
    const [value] = parent.splice(index, 1);
    return { root, value };
  }
  if (!Object.hasOwn(parent, key)) throw missing();
  const value = parent[key];
  delete parent[key];
  return { root, value };
}

/** A non-negative decimal array index without leading zeros, or undefined. */
function arrayIndex(token: string): number | undefined {
  return /^(0|[1-9][0-9]*)$/.test(token) ? Number(token) : undefined;
}
