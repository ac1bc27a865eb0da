/**
 * The OpenAPI documents kubectl reads: `/openapi/v3` ({@link openApiRoot}),
 * `/openapi/v3/<gv path>` ({@link openApiGroupVersion}) and `/openapi/v2` ({@link openApiV2};
 * its protobuf form is in `openapi-v2-protobuf.ts`).
 *
 * What kubectl reads (checked against kubectl's query-param verifier, apply patcher and explain):
 * - The root's `paths` keys (`api/v1`, `apis/<group>/<version>`) and their `serverRelativeURL`;
 *   the `hash` query is kubectl's cache key, so it changes whenever the document does.
 * - In a group/version document, the `patch` operation whose `x-kubernetes-group-version-kind`
 *   object equals the GVK being applied; it must list a query parameter named `fieldValidation`.
 *   Then kubectl leaves validation to the server (`fieldValidation=Strict|Warn`). If the
 *   group/version is present but the GVK has no PATCH operation, kubectl falls back to
 *   `/openapi/v2` (protobuf only), so every kind of a served group/version gets one.
 * - For client-side `apply`, the PATCH operation's `requestBody.content`: only when it contains
 *   `application/strategic-merge-patch+json` does kubectl build the patch from the OpenAPI
 *   schemas. It is left out, so kubectl uses its compiled-in strategic-merge metadata for
 *   built-in kinds and JSON merge patch for CRs.
 * - `kubectl explain` (v3: `components.schemas`; `--output=plaintext-openapiv2` and kubectl ≤ 1.24
 *   client-side validation: the v2 `definitions`) finds a kind's schema by its
 *   `x-kubernetes-group-version-kind` extension.
 *
 * Custom resources are published as kube-apiserver does (see `openapi-crd.ts`): each served
 * CRD version's schema, its list, and the `meta/v1` schemas they refer to, with get, list,
 * create, replace and patch operations.
 *
 * Caveats: built-in kinds have no schemas (only their PATCH operations), so `kubectl explain`
 * of a built-in kind does not work.
 */
import { createHash } from "node:crypto";
import type { ResourceType } from "../resource-type.ts";
import { crdDefinitionName, crdSchemas } from "./openapi-crd.ts";
import { metaSchemas, refTo } from "./openapi-meta.ts";
import type { OpenApiSchema } from "./openapi-meta.ts";
import { EMULATED_VERSION } from "../openapi/emulated-version.ts";

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
 * openApiGroupVersionPath({ group: "apps", version: "v1" }); // "apis/apps/v1"
 */
export function openApiGroupVersionPath(t: Pick<ResourceType, "group" | "version">): string {
  return t.group === "" ? `api/${t.version}` : `apis/${t.group}/${t.version}`;
}

/**
 * The `/openapi/v3` root: one entry per served group/version, whose URL carries a hash of that
 * group/version's document (so it changes when a kind is added or removed).
 *
 * @example
 * openApiRoot(types).paths["api/v1"]; // { serverRelativeURL: "/openapi/v3/api/v1?hash=3F…" }
 */
export function openApiRoot(types: ResourceType[]): { paths: Record<string, OpenApiRootPath> } {
  const paths: Record<string, OpenApiRootPath> = {};
  const gvPaths = [...new Set(types.map(openApiGroupVersionPath))].sort(compareGvPaths);
  for (const gvPath of gvPaths) {
    const built = groupVersionDocument(types, gvPath);
    if (built === undefined) continue;
    paths[gvPath] = { serverRelativeURL: `/openapi/v3/${gvPath}?hash=${built.hash}` };
  }
  return { paths };
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
  const wanted = gvPath.replace(/\?.*$/, "").replace(/^\/+/, "").replace(/^openapi\/v3\//, "").replace(/\/+$/, "");
  const members = types
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
 * The OpenAPI v3 document of one group/version: one PATCH operation per kind, or `undefined`
 * if no type is served there. `gvPath` is `api/v1` or `apis/<group>/<version>` (a leading `/`
 * or `/openapi/v3/` and a `?hash=` query are ignored).
 *
 * @example
 * const doc = openApiGroupVersion(types, "api/v1");
 * doc?.paths["/api/v1/namespaces/{namespace}/configmaps/{name}"]?.patch;
 */
export function openApiGroupVersion(types: ResourceType[], gvPath: string): OpenApiGroupVersionDocument | undefined {
  return groupVersionDocument(types, gvPath)?.doc;
}

/**
 * A group/version document as served, with its hash (the `hash` of its root entry, and its
 * ETag), or `undefined` if no type is served there.
 *
 * @example
 * const served = openApiGroupVersionJson(types, "apis/apps/v1");
 * if (served) res.setHeader("ETag", `"${served.hash}"`);
 */
export function openApiGroupVersionJson(types: ResourceType[], gvPath: string): { json: string; hash: string; gvPath: string } | undefined {
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
    if (crSchemas === undefined) {
      paths[path] = { parameters: [pathParameter("name", `name of the ${t.kind}`), ...namespaceParam, pretty], patch: patchOperation(t) };
      continue;
    }
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
 * The Swagger 2.0 document for kubectl releases that read `/openapi/v2` (≤ 1.28 for
 * `apply|create|replace -f` with validation; ≤ 1.24 for client-side validation; any release for
 * `explain --output=plaintext-openapiv2`): one PATCH operation per kind with
 * `x-kubernetes-group-version-kind` and a `fieldValidation` query parameter (so kubectl ≥ 1.25
 * leaves validation to the server), without `strategic-merge-patch+json` in `consumes` (so
 * `apply` uses its compiled-in strategic-merge metadata for built-in kinds and JSON merge patch
 * for CRs). `definitions` hold the custom kinds' schemas in their v2 form (see
 * `openapi-crd.ts`) and the `meta/v1` schemas they refer to; built-in kinds have none, so
 * client-side validation skips them.
 *
 * @example
 * openApiV2(types).paths["/apis/apps/v1/namespaces/{namespace}/deployments/{name}"]?.patch;
 */
export function openApiV2(types: ResourceType[]): OpenApiV2Document {
  const paths: Record<string, { patch: V2Operation }> = {};
  let definitions: Record<string, OpenApiSchema> | undefined;
  const sorted = [...types].sort((a, b) => compareGvPaths(openApiGroupVersionPath(a), openApiGroupVersionPath(b))
    || (a.plural < b.plural ? -1 : a.plural > b.plural ? 1 : 0));
  for (const t of sorted) {
    const prefix = `/${openApiGroupVersionPath(t)}`;
    const path = t.namespaced ? `${prefix}/namespaces/{namespace}/${t.plural}/{name}` : `${prefix}/${t.plural}/{name}`;
    if (path in paths) continue;
    const schemas = crdSchemas(t, "v2");
    if (schemas !== undefined) definitions = { ...definitions, ...schemas };
    paths[path] = {
      patch: {
        description: `partially update the specified ${t.kind}`,
        operationId: `patch${operationGroup(t)}${t.namespaced ? "Namespaced" : ""}${t.kind}`,
        consumes: ["application/json-patch+json", "application/merge-patch+json", "application/apply-patch+yaml"],
        produces: ["application/json"],
        parameters: ["dryRun", "fieldManager", "fieldValidation"].map((name) => ({ name, in: "query", type: "string", uniqueItems: true })),
        responses: { "200": { description: "OK" }, "201": { description: "Created" } },
        "x-kubernetes-action": "patch",
        "x-kubernetes-group-version-kind": { group: t.group, version: t.version, kind: t.kind },
      },
    };
  }
  const doc: OpenApiV2Document = { swagger: "2.0", info: { title: "Kubernetes", version: KUBE_VERSION }, paths };
  if (definitions !== undefined) doc.definitions = { ...definitions, ...metaSchemas("v2") };
  return doc;
}

/** The `/openapi/v2` document of {@link openApiV2}. */
export interface OpenApiV2Document {
  swagger: string;
  info: Record<string, string>;
  paths: Record<string, { patch: V2Operation }>;
  /** Schemas by definition name; present when a custom kind is served. */
  definitions?: Record<string, OpenApiSchema>;
}

/** A PATCH operation of {@link openApiV2}. */
export interface V2Operation {
  description: string;
  operationId: string;
  consumes: string[];
  produces: string[];
  parameters: { name: string; in: string; type: string; uniqueItems: boolean }[];
  responses: Record<string, { description: string }>;
  "x-kubernetes-action": string;
  "x-kubernetes-group-version-kind": { group: string; version: string; kind: string };
}

