/**
 * The OpenAPI documents of kube-apiserver v1.36.2 (vendored in `kube-openapi-1.36/`), loaded
 * lazily: the Swagger 2.0 document with every built-in kind's schema, and the per-group/version
 * OpenAPI v3 documents kubectl ≥ 1.27 reads.
 *
 * Definitions are keyed by their Swagger names (`io.k8s.api.apps.v1.Deployment`); a kind's
 * definition is found by its `x-kubernetes-group-version-kind` extension ({@link definitionOfKind}).
 */
import { readFileSync } from "node:fs";
import { brotliDecompressSync } from "node:zlib";

const DATA = new URL("./kube-openapi-1.36/", import.meta.url);

/** A schema of the Swagger 2.0 document (`definitions` values and their nested properties). */
export interface SwaggerSchema {
  type?: string;
  format?: string;
  description?: string;
  properties?: Record<string, SwaggerSchema>;
  additionalProperties?: SwaggerSchema | boolean;
  items?: SwaggerSchema;
  required?: string[];
  enum?: unknown[];
  default?: unknown;
  $ref?: string;
  "x-kubernetes-group-version-kind"?: { group: string; version: string; kind: string }[];
  "x-kubernetes-list-type"?: "atomic" | "set" | "map";
  "x-kubernetes-list-map-keys"?: string[];
  "x-kubernetes-map-type"?: "atomic" | "granular";
  "x-kubernetes-patch-merge-key"?: string;
  "x-kubernetes-patch-strategy"?: string;
  "x-kubernetes-unions"?: unknown[];
  [extension: string]: unknown;
}

/** The parts of the Swagger 2.0 document LocalCluster reads. */
export interface SwaggerDocument {
  swagger: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, unknown>>;
  definitions: Record<string, SwaggerSchema>;
  [key: string]: unknown;
}

let swagger: SwaggerDocument | undefined;
let swaggerText: string | undefined;
let byKind: Map<string, string> | undefined;
const v3Text = new Map<string, string | null>();

function readBrotli(relative: string): string | undefined {
  try {
    return brotliDecompressSync(readFileSync(new URL(relative, DATA))).toString("utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}

/** kube-apiserver v1.36.2's `/openapi/v2` document as it sent it (JSON text). */
export function builtinSwaggerText(): string {
  return (swaggerText ??= readBrotli("swagger.json.br")!);
}

/** kube-apiserver v1.36.2's `/openapi/v2` document, parsed (shared: do not modify). */
export function builtinSwagger(): SwaggerDocument {
  return (swagger ??= JSON.parse(builtinSwaggerText()) as SwaggerDocument);
}

/** Every built-in definition by Swagger name (shared: do not modify). */
export function builtinDefinitions(): Record<string, SwaggerSchema> {
  return builtinSwagger().definitions;
}

/**
 * The Swagger definition name of a built-in kind, or `undefined` if kube-apiserver v1.36.2
 * serves no such kind.
 *
 * @example
 * ```ts
 * definitionOfKind("batch", "v1", "Job"); // → "io.k8s.api.batch.v1.Job"
 * ```
 */
export function definitionOfKind(group: string, version: string, kind: string): string | undefined {
  if (!byKind) {
    byKind = new Map();
    for (const [name, schema] of Object.entries(builtinDefinitions())) {
      const gvks = schema["x-kubernetes-group-version-kind"] ?? [];
      // Only the definition a kind is stored as: its own name ends with the kind.
      for (const gvk of gvks) if (name.endsWith(`.${gvk.kind}`)) byKind.set(`${gvk.group}/${gvk.version}/${gvk.kind}`, name);
    }
  }
  return byKind.get(`${group}/${version}/${kind}`);
}

/** The definition a `$ref` (`#/definitions/…` or `#/components/schemas/…`) names. */
export function resolveRef(ref: string): SwaggerSchema | undefined {
  const name = ref.replace(/^#\/(definitions|components\/schemas)\//, "");
  return builtinDefinitions()[name];
}

/**
 * kube-apiserver v1.36.2's `/openapi/v3/<gvPath>` document (JSON text), or `undefined` if it
 * serves no such group/version. `gvPath` is `api/v1` or `apis/<group>/<version>`.
 *
 * @example
 * ```ts
 * builtinOpenApiV3Text("apis/batch/v1"); // → '{"openapi":"3.0.0",…'
 * ```
 */
export function builtinOpenApiV3Text(gvPath: string): string | undefined {
  if (!/^(api\/v1|apis\/[a-z0-9.-]+\/v[a-z0-9]+)$/.test(gvPath)) return undefined;
  if (!v3Text.has(gvPath)) v3Text.set(gvPath, readBrotli(`v3/${gvPath.replace(/\//g, "__")}.json.br`) ?? null);
  return v3Text.get(gvPath) ?? undefined;
}

/** The group/version paths kube-apiserver v1.36.2 publishes under `/openapi/v3` (its index). */
export function builtinOpenApiV3Paths(): string[] {
  const index = JSON.parse(readBrotli("v3/index.json.br")!) as { paths: Record<string, unknown> };
  return Object.keys(index.paths);
}

/** kube-apiserver v1.36.2's `/version` answer. */
export function builtinVersionInfo(): Record<string, string> {
  return JSON.parse(readFileSync(new URL("version.json", DATA), "utf8")) as Record<string, string>;
}
