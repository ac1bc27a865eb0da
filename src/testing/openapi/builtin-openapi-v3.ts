/**
 * kube-apiserver v1.36.2's `/openapi/v3` documents as it served them (vendored in
 * `kube-openapi-1.36/v3/`), by their path in its index: the group/version documents
 * (`api/v1`, `apis/apps/v1`) and the few others it publishes (`api`, `apis`, `apis/<group>`,
 * `version`). Each is kept as the exact text the server sent, with the hash its index gave it
 * (upper-case hex SHA-512 of that text: the `?hash=` of the index's URLs and the ETag).
 *
 * Read lazily: a document is decompressed on its first request and kept.
 */
import { existsSync, readFileSync } from "node:fs";
import { brotliDecompressSync } from "node:zlib";

const V3 = new URL("./kube-openapi-1.36/v3/", import.meta.url);

/** A vendored document as served: its JSON text and hash. */
export interface BuiltinV3Document {
  json: string;
  hash: string;
}

let index: Map<string, string> | undefined;
const documents = new Map<string, BuiltinV3Document | null>();

function fileOf(path: string): URL {
  return new URL(`${path.replace(/\//g, "__")}.json.br`, V3);
}

function readBrotli(file: URL): string | undefined {
  try {
    return brotliDecompressSync(readFileSync(file)).toString("utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}

/**
 * The paths of kube-apiserver v1.36.2's `/openapi/v3` index that LocalCluster can serve (every
 * one with a vendored document; the OIDC discovery paths have none), with each document's hash.
 *
 * @example
 * ```ts
 * builtinV3Index().get("apis/batch/v1"); // → "94F997B5…" (the document's SHA-512, 128 hex digits)
 * ```
 */
export function builtinV3Index(): ReadonlyMap<string, string> {
  if (index) return index;
  const text = readBrotli(fileOf("index"));
  const parsed = JSON.parse(text ?? '{"paths":{}}') as { paths: Record<string, { serverRelativeURL: string }> };
  index = new Map();
  for (const [path, entry] of Object.entries(parsed.paths)) {
    const hash = /[?&]hash=([0-9A-F]+)/.exec(entry.serverRelativeURL)?.[1];
    if (hash !== undefined && /^[a-z0-9./-]+$/.test(path) && !path.startsWith(".") && !path.includes("..") && existsDocument(path)) index.set(path, hash);
  }
  return index;
}

function existsDocument(path: string): boolean {
  return existsSync(fileOf(path));
}

/**
 * The vendored document at an index path (`api/v1`, `apis/batch/v1`, `version`), or `undefined`
 * when kube-apiserver v1.36.2 publishes none there.
 *
 * @example
 * ```ts
 * builtinV3Document("apis/batch/v1")?.json.startsWith('{"openapi":"3.0.0"'); // → true
 * ```
 */
export function builtinV3Document(path: string): BuiltinV3Document | undefined {
  const hash = builtinV3Index().get(path);
  if (hash === undefined) return undefined;
  let doc = documents.get(path);
  if (doc === undefined) {
    const json = readBrotli(fileOf(path));
    doc = json === undefined ? null : { json, hash };
    documents.set(path, doc);
  }
  return doc ?? undefined;
}
