/**
 * The smallest OpenAPI v3 that lets `kubectl apply|create|replace -f` run with the default
 * `--validate=true`. Served at `/openapi/v3` ({@link openApiRoot}) and
 * `/openapi/v3/<gv path>` ({@link openApiGroupVersion}).
 *
 * What kubectl reads (checked against kubectl's query-param verifier and apply patcher):
 * - The root's `paths` keys (`api/v1`, `apis/<group>/<version>`) and their `serverRelativeURL`;
 *   the `hash` query only serves as a cache key.
 * - In a group/version document, the `patch` operation whose `x-kubernetes-group-version-kind`
 *   object equals the GVK being applied; it must list a query parameter named `fieldValidation`.
 *   Then kubectl leaves validation to the server (`fieldValidation=Strict|Warn`) and never needs
 *   `components.schemas`. If the group/version is present but the GVK has no PATCH operation,
 *   kubectl falls back to `/openapi/v2` (protobuf only) and fails, so every kind of a served
 *   group/version gets one. A CR group/version missing from the root makes kubectl reuse the
 *   `Namespace` operation of `api/v1`; listing CR group/versions too is harmless.
 * - For client-side `apply`, the PATCH operation's `requestBody.content`: only when it contains
 *   `application/strategic-merge-patch+json` does kubectl build the patch from the OpenAPI
 *   schemas (which this document lacks). It is left out, so kubectl uses its compiled-in
 *   strategic-merge metadata for built-in kinds and JSON merge patch for CRs.
 *
 * Caveats: no schemas, so `kubectl explain` and client-side schema validation
 * (`--validate=strict` against a server without `fieldValidation`) do not work.
 */
import { createHash } from "node:crypto";
import type { ResourceType } from "../resource-type.ts";

/** The Kubernetes version the documents claim (matches LocalCluster's `/version`). */
const KUBE_VERSION = "v1.33.0";

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
    const doc = openApiGroupVersion(types, gvPath);
    if (doc === undefined) continue;
    const hash = createHash("sha512").update(JSON.stringify(doc)).digest("hex").toUpperCase();
    paths[gvPath] = { serverRelativeURL: `/openapi/v3/${gvPath}?hash=${hash}` };
  }
  return { paths };
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
export function openApiGroupVersion(
  types: ResourceType[],
  gvPath: string,
): { openapi: string; info: Record<string, string>; paths: Record<string, unknown> } | undefined {
  const wanted = gvPath.replace(/\?.*$/, "").replace(/^\/+/, "").replace(/^openapi\/v3\//, "").replace(/\/+$/, "");
  const inGv = types
    .filter((t) => openApiGroupVersionPath(t) === wanted)
    .sort((a, b) => (a.plural < b.plural ? -1 : a.plural > b.plural ? 1 : 0));
  if (inGv.length === 0) return undefined;
  const paths: Record<string, unknown> = {};
  for (const t of inGv) {
    const prefix = `/${wanted}`;
    const path = t.namespaced ? `${prefix}/namespaces/{namespace}/${t.plural}/{name}` : `${prefix}/${t.plural}/{name}`;
    if (path in paths) continue;
    paths[path] = {
      parameters: [
        pathParameter("name", `name of the ${t.kind}`),
        ...(t.namespaced ? [pathParameter("namespace", "object name and auth scope, such as for teams and projects")] : []),
        queryParameter("pretty", "string", "If 'true', then the output is pretty printed."),
      ],
      patch: patchOperation(t),
    };
  }
  return { openapi: "3.0.0", info: { title: "Kubernetes", version: KUBE_VERSION }, paths };
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
 * The smallest Swagger 2.0 document for kubectl releases that read `/openapi/v2` (≤ 1.28 for
 * `apply|create|replace -f` with validation; 1.20 for client-side validation): one PATCH
 * operation per kind with `x-kubernetes-group-version-kind` and a `fieldValidation` query
 * parameter (so kubectl ≥ 1.25 leaves validation to the server), and no `definitions` (so
 * client-side validation finds no model and skips, and `apply` uses its compiled-in
 * strategic-merge metadata for built-in kinds and JSON merge patch for CRs).
 *
 * @example
 * openApiV2(types).paths["/apis/apps/v1/namespaces/{namespace}/deployments/{name}"]?.patch;
 */
export function openApiV2(types: ResourceType[]): {
  swagger: string;
  info: Record<string, string>;
  paths: Record<string, { patch: V2Operation }>;
} {
  const paths: Record<string, { patch: V2Operation }> = {};
  const sorted = [...types].sort((a, b) => compareGvPaths(openApiGroupVersionPath(a), openApiGroupVersionPath(b))
    || (a.plural < b.plural ? -1 : a.plural > b.plural ? 1 : 0));
  for (const t of sorted) {
    const prefix = `/${openApiGroupVersionPath(t)}`;
    const path = t.namespaced ? `${prefix}/namespaces/{namespace}/${t.plural}/{name}` : `${prefix}/${t.plural}/{name}`;
    if (path in paths) continue;
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
  return { swagger: "2.0", info: { title: "Kubernetes", version: KUBE_VERSION }, paths };
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

/**
 * {@link openApiV2} encoded as gnostic's `openapi.v2.Document` protobuf, the only form
 * client-go's `OpenAPISchema()` reads. Field numbers from gnostic's `OpenAPIv2.proto`;
 * vendor extensions are `NamedAny{name, Any{yaml}}`.
 */
export function openApiV2Protobuf(types: ResourceType[]): Buffer {
  const doc = openApiV2(types);
  const pathItems = Object.entries(doc.paths).map(([name, item]) =>
    message([str(1, name), sub(2, message([sub(8, operationMessage(item.patch))]))]));
  return message([
    str(1, doc.swagger),
    sub(2, message([str(1, doc.info.title!), str(2, doc.info.version!)])),
    sub(8, message(pathItems.map((p) => sub(2, p)))),
  ]);
}

function operationMessage(op: V2Operation): Buffer {
  const gvk = op["x-kubernetes-group-version-kind"];
  const params = op.parameters.map((p) =>
    // ParametersItem.parameter(1) → Parameter.non_body_parameter(2) → query_parameter_sub_schema(3)
    sub(8, message([sub(1, message([sub(2, message([sub(3, message([
      str(2, p.in), str(4, p.name), str(6, p.type), varintField(20, p.uniqueItems ? 1 : 0),
    ]))]))]))])));
  const responses = Object.entries(op.responses).map(([code, r]) =>
    // NamedResponseValue{name, ResponseValue.response(1){description}}
    sub(1, message([str(1, code), sub(2, message([sub(1, message([str(1, r.description)]))]))])));
  const extension = (name: string, yaml: string) => sub(13, message([str(1, name), sub(2, message([str(2, yaml)]))]));
  return message([
    str(3, op.description),
    str(5, op.operationId),
    ...op.produces.map((m) => str(6, m)),
    ...op.consumes.map((m) => str(7, m)),
    ...params,
    sub(9, message(responses)),
    extension("x-kubernetes-action", `${op["x-kubernetes-action"]}\n`),
    extension("x-kubernetes-group-version-kind", `group: ${JSON.stringify(gvk.group)}\nkind: ${gvk.kind}\nversion: ${gvk.version}\n`),
  ]);
}

function message(fields: Buffer[]): Buffer {
  return Buffer.concat(fields);
}

function varint(n: number): Buffer {
  const bytes: number[] = [];
  while (n > 0x7f) {
    bytes.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  bytes.push(n);
  return Buffer.from(bytes);
}

function varintField(field: number, value: number): Buffer {
  return value === 0 ? Buffer.alloc(0) : Buffer.concat([varint(field << 3), varint(value)]);
}

function sub(field: number, body: Buffer): Buffer {
  return Buffer.concat([varint((field << 3) | 2), varint(body.length), body]);
}

function str(field: number, s: string): Buffer {
  return s === "" ? Buffer.alloc(0) : sub(field, Buffer.from(s, "utf8"));
}
