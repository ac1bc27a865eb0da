/**
 * The OpenAPI documents kubectl reads: `/openapi/v3` ({@link openApiRoot}),
 * `/openapi/v3/<path>` ({@link openApiGroupVersionJson}) and `/openapi/v2` ({@link openApiV2Json};
 * its protobuf form is in `openapi-v2-protobuf.ts`).
 *
 * Built-in group/versions are served with kube-apiserver v1.36.2's own documents, byte for byte
 * (vendored in `../openapi/kube-openapi-1.36/`): the `/openapi/v3` index's paths and hashes, each
 * group/version document, and the Swagger 2.0 document. Custom resources are added as
 * kube-apiserver publishes them (see `openapi-crd.ts`): each served CRD version's schema, its
 * list, with get, list, create, replace, patch and delete operations, in a document of their own
 * per group/version under `/openapi/v3` and merged into the Swagger 2.0 document.
 *
 * What kubectl reads (checked against kubectl's query-param verifier, apply patcher and explain):
 * - The root's `paths` keys (`api/v1`, `apis/<group>/<version>`) and their `serverRelativeURL`;
 *   the `hash` query is kubectl's cache key, so it changes whenever the document does.
 * - In a group/version document, the `patch` operation whose `x-kubernetes-group-version-kind`
 *   object equals the GVK being applied; it must list a query parameter named `fieldValidation`.
 *   Then kubectl leaves validation to the server (`fieldValidation=Strict|Warn`).
 * - For client-side `apply`, the PATCH operation's `requestBody.content`: built-in kinds list
 *   `application/strategic-merge-patch+json`, so kubectl builds strategic merge patches from
 *   their schemas (`x-kubernetes-patch-strategy` / `x-kubernetes-patch-merge-key`), as against a
 *   real server; custom kinds do not, so kubectl sends them JSON merge patches.
 * - `kubectl explain` (v3: `components.schemas`; `--output=plaintext-openapiv2` and kubectl ≤ 1.24
 *   client-side validation: the v2 `definitions`) finds a kind's schema by its
 *   `x-kubernetes-group-version-kind` extension.
 *
 * Caveats: the built-in documents describe everything kube-apiserver v1.36.2 serves, including
 * the few resources and subresources LocalCluster leaves out (see `builtin-kinds.ts`); a CRD
 * whose group/version is a built-in one is not added to that group/version's document.
 */
import { createHash } from "node:crypto";
import type { ResourceType } from "../resource-type.ts";
import { crdDefinitionName, crdSchemas } from "./openapi-crd.ts";
import { metaSchemas, refTo } from "./openapi-meta.ts";
import type { OpenApiSchema } from "./openapi-meta.ts";
import { EMULATED_VERSION } from "../openapi/emulated-version.ts";
import { builtinV3Document, builtinV3Index } from "../openapi/builtin-openapi-v3.ts";
import { builtinSwagger, builtinSwaggerText } from "../openapi/builtin-openapi.ts";
import type { SwaggerDocument } from "../openapi/builtin-openapi.ts";

/** The Kubernetes version the documents claim (matches LocalCluster's `/version`). */
const KUBE_VERSION = EMULATED_VERSION.gitVersion;

/** One entry of the `/openapi/v3` root document. */
export interface OpenApiRootPath {
  serverRelativeURL: string;
}

/**
 * The OpenAPI v3 path of a group/version, as used in the root document's keys:
 * `api/v1` for core, `apis/<group>/<version>` otherwise.
 *
 * @example
 * ```ts
 * openApiGroupVersionPath({ group: "apps", version: "v1" }); // → "apis/apps/v1"
 * ```
 */
export function openApiGroupVersionPath(t: Pick<ResourceType, "group" | "version">): string {
  return t.group === "" ? `api/${t.version}` : `apis/${t.group}/${t.version}`;
}

/**
 * The `/openapi/v3` root: kube-apiserver v1.36.2's index (every path it publishes a document
 * for, with that document's hash), plus one entry per group/version of custom resources whose
 * URL carries a hash of its document (so it changes when a kind or schema does). Keys are in
 * byte order, as kube-apiserver writes them.
 *
 * @example
 * ```ts
 * import type { Registry } from "../registry.ts";
 *
 * declare const registry: Registry;
 * const types = [...registry.all()];
 * openApiRoot(types).paths["api/v1"]; // → { serverRelativeURL: "/openapi/v3/api/v1?hash=7C93…" }
 * ```
 */
export function openApiRoot(types: ResourceType[]): { paths: Record<string, OpenApiRootPath> } {
  const entries = new Map<string, string>(builtinV3Index());
  const custom = customTypes(types);
  for (const gvPath of new Set(custom.map(openApiGroupVersionPath))) {
    if (entries.has(gvPath)) continue;
    const built = groupVersionDocument(custom, gvPath);
    if (built !== undefined) entries.set(gvPath, built.hash);
  }
  const paths: Record<string, OpenApiRootPath> = {};
  for (const gvPath of [...entries.keys()].sort(byteOrder)) paths[gvPath] = { serverRelativeURL: `/openapi/v3/${gvPath}?hash=${entries.get(gvPath)}` };
  return { paths };
}

function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The types of custom resources (built-in kinds are in the vendored documents). */
function customTypes(types: readonly ResourceType[]): ResourceType[] {
  return types.filter((t) => !t.builtin);
}

/** `api/v1` from `/openapi/v3/api/v1?hash=…`, `api/v1/` or `api/v1`. */
function cleanGvPath(gvPath: string): string {
  return gvPath.replace(/\?.*$/, "").replace(/^\/+/, "").replace(/^openapi\/v3\//, "").replace(/\/+$/, "");
}

/** The OpenAPI v3 document of one group/version (see {@link openApiGroupVersion}). */
export interface OpenApiGroupVersionDocument {
  openapi: string;
  info: Record<string, string>;
  paths: Record<string, unknown>;
  /** Present when a custom kind is served at the group/version. */
  components?: { schemas: Record<string, OpenApiSchema> };
}

interface BuiltDocument {
  /** The types the document was built from, in order (the cache key). */
  members: ResourceType[];
  doc: OpenApiGroupVersionDocument;
  /** The document as served. */
  json: string;
  /** Upper-case hex SHA-512 of `json`: the root's `hash` query and the document's ETag. */
  hash: string;
}

/**
 * The last document built per group/version, keyed by its first type (so it goes when the types
 * do) and reused while its types are the same objects: the registry replaces a CRD's types
 * whenever the CRD changes.
 */
const built = new WeakMap<ResourceType, BuiltDocument>();

function groupVersionDocument(types: readonly ResourceType[], gvPath: string): BuiltDocument | undefined {
  const wanted = cleanGvPath(gvPath);
  const members = customTypes(types)
    .filter((t) => openApiGroupVersionPath(t) === wanted)
    .sort((a, b) => (a.plural < b.plural ? -1 : a.plural > b.plural ? 1 : 0));
  if (members.length === 0) return undefined;
  const cached = built.get(members[0]!);
  if (cached && cached.members.length === members.length && cached.members.every((t, i) => t === members[i])) return cached;
  const doc = buildGroupVersion(members, wanted);
  const json = JSON.stringify(doc);
  const hash = createHash("sha512").update(json).digest("hex").toUpperCase();
  const entry = { members, doc, json, hash };
  built.set(members[0]!, entry);
  return entry;
}

/**
 * The OpenAPI v3 document at an index path, parsed: kube-apiserver v1.36.2's own for a built-in
 * path (`api/v1`, `apis/batch/v1`, `apis/apps`, `version`), else the document of the custom
 * kinds served at a group/version, or `undefined`. A leading `/` or `/openapi/v3/` and a
 * `?hash=` query are ignored.
 *
 * @example
 * ```ts
 * import type { ResourceType } from "../resource-type.ts";
 *
 * declare const types: ResourceType[]; // [...registry.all()]
 * const doc = openApiGroupVersion(types, "apis/batch/v1");
 * doc?.paths["/apis/batch/v1/namespaces/{namespace}/jobs/{name}"]; // → { get, put, delete, patch, parameters }
 * ```
 */
export function openApiGroupVersion(types: ResourceType[], gvPath: string): OpenApiGroupVersionDocument | undefined {
  const builtin = builtinV3Document(cleanGvPath(gvPath));
  if (builtin !== undefined) return JSON.parse(builtin.json) as OpenApiGroupVersionDocument;
  return groupVersionDocument(types, gvPath)?.doc;
}

/**
 * A document of the `/openapi/v3` index as served, with its hash (the `hash` of its root entry,
 * and its ETag) and its clean path, or `undefined` if none is served there.
 *
 * @example
 * ```ts
 * import type { ServerResponse } from "node:http";
 * import type { ResourceType } from "../resource-type.ts";
 *
 * declare const types: ResourceType[], res: ServerResponse; // types: [...registry.all()]
 * const served = openApiGroupVersionJson(types, "apis/apps/v1");
 * if (served) res.setHeader("ETag", `"${served.hash}"`);
 * ```
 */
export function openApiGroupVersionJson(types: ResourceType[], gvPath: string): { json: string; hash: string; gvPath: string } | undefined {
  const wanted = cleanGvPath(gvPath);
  const builtin = builtinV3Document(wanted);
  if (builtin !== undefined) return { json: builtin.json, hash: builtin.hash, gvPath: wanted };
  const entry = groupVersionDocument(types, gvPath);
  return entry && { json: entry.json, hash: entry.hash, gvPath: openApiGroupVersionPath(entry.members[0]!) };
}

function buildGroupVersion(inGv: ResourceType[], wanted: string): OpenApiGroupVersionDocument {
  const paths: Record<string, unknown> = {};
  let schemas: Record<string, OpenApiSchema> | undefined;
  for (const t of inGv) {
    const prefix = `/${wanted}`;
    const collection = t.namespaced ? `${prefix}/namespaces/{namespace}/${t.plural}` : `${prefix}/${t.plural}`;
    const path = `${collection}/{name}`;
    if (path in paths) continue;
    const namespaceParam = t.namespaced ? [pathParameter("namespace", "object name and auth scope, such as for teams and projects")] : [];
    const pretty = queryParameter("pretty", "string", "If 'true', then the output is pretty printed.");
    const crSchemas = crdSchemas(t, "v3");
    if (crSchemas === undefined) continue;
    schemas = { ...schemas, ...crSchemas };
    const kindRef = refTo(crdDefinitionName(t.group, t.version, t.kind), "v3");
    const listRef = refTo(crdDefinitionName(t.group, t.version, t.listKind ?? `${t.kind}List`), "v3");
    paths[collection] = {
      parameters: [...namespaceParam, pretty],
      get: crOperation(t, "list", `list objects of kind ${t.kind}`, listRef),
      post: crOperation(t, "create", `create ${article(t.kind)} ${t.kind}`, kindRef),
    };
    paths[path] = {
      parameters: [pathParameter("name", `name of the ${t.kind}`), ...namespaceParam, pretty],
      get: crOperation(t, "read", `read the specified ${t.kind}`, kindRef),
      put: crOperation(t, "replace", `replace the specified ${t.kind}`, kindRef),
      patch: { ...patchOperation(t), responses: jsonResponses(kindRef, ["200", "201"]) },
    };
  }
  const doc: OpenApiGroupVersionDocument = { openapi: "3.0.0", info: { title: "Kubernetes", version: KUBE_VERSION }, paths };
  if (schemas !== undefined) doc.components = { schemas: { ...schemas, ...metaSchemas("v3") } };
  return doc;
}

/** A get/list/create/replace operation of a custom kind, answering with `ref`. */
function crOperation(t: ResourceType, verb: "list" | "create" | "read" | "replace", description: string, ref: string): Record<string, unknown> {
  const action = { list: "list", create: "post", read: "get", replace: "put" }[verb];
  const writes = verb === "create" || verb === "replace";
  return {
    tags: [tagOf(t)],
    description,
    operationId: `${verb}${operationGroup(t)}${t.namespaced ? "Namespaced" : ""}${t.kind}`,
    ...(writes
      ? {
          parameters: ["dryRun", "fieldManager", "fieldValidation"].map((name) => queryParameter(name, "string", `The ${name} option of the request.`)),
          requestBody: { content: { "application/json": { schema: { $ref: ref } } }, required: true },
        }
      : {}),
    responses: jsonResponses(ref, verb === "create" ? ["200", "201", "202"] : verb === "replace" ? ["200", "201"] : ["200"]),
    "x-kubernetes-action": action,
    "x-kubernetes-group-version-kind": { group: t.group, version: t.version, kind: t.kind },
  };
}

function jsonResponses(ref: string, codes: string[]): Record<string, unknown> {
  const text: Record<string, string> = { "200": "OK", "201": "Created", "202": "Accepted" };
  const responses: Record<string, unknown> = {};
  for (const code of codes) {
    responses[code] = { description: text[code], content: { "application/json": { schema: { $ref: ref } }, "application/yaml": { schema: { $ref: ref } } } };
  }
  responses["401"] = { description: "Unauthorized" };
  return responses;
}

/** "a" or "an", as kube-apiserver words "create a Widget" / "create an Ingress". */
function article(noun: string): string {
  return /^[aeiou]/i.test(noun) ? "an" : "a";
}

function patchOperation(t: ResourceType): Record<string, unknown> {
  const anyObject = { schema: { type: "object" } };
  return {
    tags: [tagOf(t)],
    description: `partially update the specified ${t.kind}`,
    operationId: `patch${operationGroup(t)}${t.namespaced ? "Namespaced" : ""}${t.kind}`,
    parameters: [
      queryParameter("dryRun", "string", "When present, indicates that modifications should not be persisted. The only valid value is All."),
      queryParameter("fieldManager", "string", "A name associated with the actor or entity that is making these changes."),
      queryParameter(
        "fieldValidation",
        "string",
        "How the server handles unknown or duplicate fields in the request body: Ignore, Warn (default) or Strict.",
      ),
      queryParameter("force", "boolean", "Force is going to \"force\" Apply requests. It must be unset for non-apply patch requests."),
    ],
    requestBody: {
      content: {
        "application/json-patch+json": anyObject,
        "application/merge-patch+json": anyObject,
        "application/apply-patch+yaml": anyObject,
      },
      required: true,
    },
    responses: {
      "200": { description: "OK", content: { "application/json": anyObject } },
      "201": { description: "Created", content: { "application/json": anyObject } },
      "401": { description: "Unauthorized" },
    },
    "x-kubernetes-action": "patch",
    "x-kubernetes-group-version-kind": { group: t.group, version: t.version, kind: t.kind },
  };
}

function pathParameter(name: string, description: string): Record<string, unknown> {
  return { name, in: "path", description, required: true, schema: { type: "string", uniqueItems: true } };
}

function queryParameter(name: string, type: string, description: string): Record<string, unknown> {
  return { name, in: "query", description, schema: { type, uniqueItems: true } };
}

/** `core_v1`, `apps_v1`, `example.com_v1` — the tag kube-apiserver groups operations by. */
function tagOf(t: ResourceType): string {
  const group = t.group === "" ? "core" : t.group.replace(/\.k8s\.io$/, "").replace(/\./g, "");
  return `${group}_${t.version}`;
}

/** `CoreV1`, `AppsV1`, `RbacAuthorizationV1`, `ExampleComV1alpha1` for operation IDs. */
function operationGroup(t: ResourceType): string {
  const group = t.group === "" ? "core" : t.group.replace(/\.k8s\.io$/, "");
  const words = group.split(/[.-]/).filter((w) => w !== "");
  return [...words, t.version].map((w) => w[0]!.toUpperCase() + w.slice(1)).join("");
}

/** `api/v1` first, then `apis/…` alphabetically. */
function compareGvPaths(a: string, b: string): number {
  const core = (p: string) => (p.startsWith("api/") ? 0 : 1);
  return core(a) - core(b) || (a < b ? -1 : a > b ? 1 : 0);
}

/**
 * The media type kubectl ≤ 1.28 asks `/openapi/v2` for (`Accept`) is
 * `application/com.github.proto-openapi.spec.v2@v1.0+protobuf`; the response must carry this
 * spelling (no `@`), since client-go parses the response Content-Type with Go's `mime` package,
 * which rejects the `@` ("mime: unexpected content after media subtype").
 */
export const OPENAPI_V2_PROTOBUF = "application/com.github.proto-openapi.spec.v2.v1.0+protobuf";

/**
 * The Swagger 2.0 document (`/openapi/v2`), for kubectl releases that read it (≤ 1.28 for
 * `apply|create|replace -f` with validation; ≤ 1.24 for client-side validation; any release for
 * `explain --output=plaintext-openapiv2`): kube-apiserver v1.36.2's own document with the
 * custom kinds' paths ({@link customV2Paths}) and schemas (their v2 form, see `openapi-crd.ts`)
 * added. Without custom kinds it is the vendored document itself (shared: do not modify).
 *
 * @example
 * ```ts
 * import type { ResourceType } from "../resource-type.ts";
 *
 * declare const types: ResourceType[]; // [...registry.all()]
 * openApiV2(types).paths["/apis/apps/v1/namespaces/{namespace}/deployments/{name}"]?.patch;
 * ```
 */
export function openApiV2(types: ResourceType[]): SwaggerDocument {
  return v2Entry(types).doc;
}

/** {@link openApiV2} as served (JSON text; the vendored text when no custom kind is served). */
export function openApiV2Json(types: ResourceType[]): string {
  const entry = v2Entry(types);
  return (entry.json ??= entry.custom.length === 0 ? builtinSwaggerText() : JSON.stringify(entry.doc));
}

/** The custom kinds' part of the Swagger 2.0 document: their paths and definitions. */
export interface CustomV2Part {
  paths: Record<string, Record<string, unknown>>;
  definitions: Record<string, OpenApiSchema>;
}

interface V2Entry {
  /** The custom types it was built from (the cache key). */
  custom: ResourceType[];
  part: CustomV2Part;
  doc: SwaggerDocument;
  json?: string;
  /** Cache slot for the protobuf encoding (see `openapi-v2-protobuf.ts`). */
  protobuf?: Buffer;
}

let lastV2: V2Entry | undefined;

function v2Entry(types: readonly ResourceType[]): V2Entry {
  const custom = customTypes(types).sort((a, b) => compareGvPaths(openApiGroupVersionPath(a), openApiGroupVersionPath(b))
    || (a.plural < b.plural ? -1 : a.plural > b.plural ? 1 : 0));
  if (lastV2 && lastV2.custom.length === custom.length && lastV2.custom.every((t, i) => t === custom[i])) return lastV2;
  const part = customV2Part(custom);
  const base = builtinSwagger();
  const doc: SwaggerDocument = custom.length === 0
    ? base
    : { ...base, paths: { ...base.paths, ...part.paths }, definitions: { ...base.definitions, ...part.definitions } as SwaggerDocument["definitions"] };
  lastV2 = { custom, part, doc };
  return lastV2;
}

/**
 * The Swagger 2.0 document's cache entry for `types`, for the protobuf encoder: the custom part
 * and a slot to keep its encoding in while the custom types stay the same objects.
 */
export function openApiV2Entry(types: ResourceType[]): { part: CustomV2Part; protobuf?: Buffer } {
  return v2Entry(types);
}

/**
 * The custom kinds' paths and definitions for the Swagger 2.0 document: per kind, its
 * collection (list, create, deletecollection), its objects (read, replace, patch, delete) and,
 * when served, its `status` subresource, with the definitions of the kind and its list. PATCH
 * consumes JSON patch, merge patch and apply patch (no strategic merge: custom kinds have no
 * patch strategies), and lists `fieldValidation`.
 *
 * @example
 * ```ts
 * import type { ResourceType } from "../resource-type.ts";
 *
 * declare const widgetType: ResourceType; // the CRD's com.example/v1 Widget
 * customV2Part([widgetType]).definitions["com.example.v1.Widget"];
 * ```
 */
export function customV2Part(custom: readonly ResourceType[]): CustomV2Part {
  const paths: Record<string, Record<string, unknown>> = {};
  let definitions: Record<string, OpenApiSchema> = {};
  for (const t of custom) {
    const schemas = crdSchemas(t, "v2");
    if (schemas === undefined) continue;
    definitions = { ...definitions, ...schemas };
    const prefix = `/${openApiGroupVersionPath(t)}`;
    const collection = t.namespaced ? `${prefix}/namespaces/{namespace}/${t.plural}` : `${prefix}/${t.plural}`;
    const item = `${collection}/{name}`;
    if (item in paths) continue;
    const kindRef = refTo(crdDefinitionName(t.group, t.version, t.kind), "v2");
    const listRef = refTo(crdDefinitionName(t.group, t.version, t.listKind ?? `${t.kind}List`), "v2");
    const scope = t.namespaced ? "Namespaced" : "";
    const namespaceParam = t.namespaced ? [v2Param("namespace", "path", "string", "object name and auth scope, such as for teams and projects", true)] : [];
    const pretty = v2Param("pretty", "query", "string", "If 'true', then the output is pretty printed.");
    const nameParam = v2Param("name", "path", "string", `name of the ${t.kind}`, true);
    const op = (action: string, operationId: string, description: string, extra: Record<string, unknown>, suffix = "") => ({
      description,
      consumes: ["*/*"],
      produces: ["application/json", "application/yaml"],
      schemes: ["https"],
      tags: [tagOf(t)],
      operationId: `${operationId}${operationGroup(t)}${scope}${t.kind}${suffix}`,
      ...extra,
      "x-kubernetes-action": action,
      "x-kubernetes-group-version-kind": { group: t.group, kind: t.kind, version: t.version },
    });
    const ok = (ref: string, codes: string[]) => ({
      ...Object.fromEntries(codes.map((c) => [c, { description: ({ "200": "OK", "201": "Created", "202": "Accepted" } as Record<string, string>)[c], schema: { $ref: ref } }])),
      "401": { description: "Unauthorized" },
    });
    const body = (ref: string) => ({ name: "body", in: "body", required: true, schema: { $ref: ref } });
    const writeParams = ["dryRun", "fieldManager", "fieldValidation"].map((n) => v2Param(n, "query", "string", `The ${n} option of the request.`));
    paths[collection] = {
      get: op("list", "list", `list objects of kind ${t.kind}`, { responses: ok(listRef, ["200"]) }),
      post: op("post", "create", `create ${article(t.kind)} ${t.kind}`, { parameters: [body(kindRef), ...writeParams], responses: ok(kindRef, ["200", "201", "202"]) }),
      delete: op("deletecollection", "deleteCollection", `delete collection of ${t.kind}`, { responses: ok("#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Status", ["200"]) }),
      parameters: [...namespaceParam, pretty],
    };
    const patch = (status: boolean) => op("patch", "patch", `partially update ${status ? "status of " : ""}the specified ${t.kind}`, {
      consumes: ["application/json-patch+json", "application/merge-patch+json", "application/apply-patch+yaml"],
      parameters: [
        { name: "body", in: "body", required: true, schema: { $ref: "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Patch" } },
        ...writeParams,
        v2Param("force", "query", "boolean", "Force is going to \"force\" Apply requests. It must be unset for non-apply patch requests."),
      ],
      responses: ok(kindRef, ["200", "201"]),
    }, status ? "Status" : "");
    paths[item] = {
      get: op("get", "read", `read the specified ${t.kind}`, { responses: ok(kindRef, ["200"]) }),
      put: op("put", "replace", `replace the specified ${t.kind}`, { parameters: [body(kindRef), ...writeParams], responses: ok(kindRef, ["200", "201"]) }),
      delete: op("delete", "delete", `delete ${article(t.kind)} ${t.kind}`, { responses: ok("#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Status", ["200", "202"]) }),
      patch: patch(false),
      parameters: [nameParam, ...namespaceParam, pretty],
    };
    if (t.status) {
      paths[`${item}/status`] = {
        get: op("get", "read", `read status of the specified ${t.kind}`, { responses: ok(kindRef, ["200"]) }, "Status"),
        put: op("put", "replace", `replace status of the specified ${t.kind}`, { parameters: [body(kindRef), ...writeParams], responses: ok(kindRef, ["200", "201"]) }, "Status"),
        patch: patch(true),
        parameters: [nameParam, ...namespaceParam, pretty],
      };
    }
  }
  return { paths, definitions };
}

function v2Param(name: string, where: string, type: string, description: string, required = false): Record<string, unknown> {
  return { uniqueItems: true, type, description, name, in: where, ...(required ? { required: true } : {}) };
}
