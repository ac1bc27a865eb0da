/**
 * POST, PUT, PATCH (json, merge, strategic, apply) and DELETE requests.
 */
import type { ApiContext, ResourceRequest } from "./api-context.ts";
import type { KubeObject, ResourceType } from "./resource-type.ts";
import { apiVersionOf } from "./resource-type.ts";
import type { StoredObject } from "./object-store.ts";
import type { DeleteOptions, WriteOptions } from "./write-path.ts";
import { StatusError, badRequest, invalidValue, unsupportedMediaType } from "./status.ts";
import { stringMapDecodeError } from "./string-maps.ts";
import { mediaType, parseJsonBody, parseObjectBody, readBody, sendJson, warningHeaders } from "./http-io.ts";
import { fromView, storageApiVersion, toView } from "./object-view.ts";
import { keyFieldDefaults } from "./kind-rules.ts";
import { applyJsonPatch } from "./patch/json-patch.ts";
import { applyMergePatch } from "./patch/merge-patch.ts";
import { applyStrategicMergePatch } from "./patch/strategic-merge.ts";
import { ignoredFieldsFor, serverSideApply } from "./apply/server-side-apply.ts";
import { validateEventsV1Create, validateEventsV1Update } from "./views/events.ts";
import { selectorOf, withShard } from "./read-handlers.ts";
import { shardSelectionOf } from "./shard-selector.ts";
import { getScale, scaleToObject } from "./scale.ts";
import { queryBool } from "./request-info.ts";
import { PROTOBUF_MEDIA_TYPE, acceptsProtobuf, decodeProtobufObject } from "./protobuf/decode.ts";

const BODY_TYPES = new Set(["application/json", "application/yaml", ""]);
const PATCH_TYPES =
  "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml";

/** The storage type behind a (possibly converted) view type. */
function storageType(ctx: ApiContext, type: ResourceType): ResourceType {
  if (storageApiVersion(type) === apiVersionOf(type)) return type;
  const [group, version] = splitApiVersion(storageApiVersion(type));
  return ctx.registry.byPath(group, version, type.plural) ?? type;
}

function splitApiVersion(av: string): [string, string] {
  const i = av.indexOf("/");
  return i < 0 ? ["", av] : [av.slice(0, i), av.slice(i + 1)];
}

/** Common write options from the query string. */
function writeOptions(r: ResourceRequest, manager?: string): WriteOptions {
  const q = r.query;
  const dryRun = q.getAll("dryRun");
  for (const d of dryRun) {
    if (d !== "All") throw new StatusError(400, "BadRequest", `Invalid dryRun value: ${d}. Valid values are: All`);
  }
  const fm = q.get("fieldManager") ?? manager ?? defaultManager(r);
  if (fm.length > 128) {
    throw new StatusError(422, "Invalid", `CreateOptions.meta.k8s.io "" is invalid: fieldManager: Too long: may not be more than 128 bytes`);
  }
  const fv = q.get("fieldValidation") ?? "Warn";
  if (fv !== "Ignore" && fv !== "Warn" && fv !== "Strict") {
    throw badRequest(`fieldValidation must be one of "Ignore", "Warn", or "Strict", got ${fv}`);
  }
  if (q.has("force") && mediaType(r.req) !== "application/apply-patch+yaml") {
    throw new StatusError(422, "Invalid", `PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch`);
  }
  return {
    dryRun: dryRun.length > 0,
    manager: fm,
    fieldValidation: fv,
    ...(r.path.subresource ? { subresource: r.path.subresource } : {}),
    ...(r.admit ? { admit: r.admit } : {}),
  };
}

function defaultManager(r: ResourceRequest): string {
  const ua = r.req.headers["user-agent"] ?? "";
  return ua.split("/")[0] ?? "";
}

function respond(r: ResourceRequest, code: number, type: ResourceType, obj: KubeObject, warnings: string[]): void {
  sendJson(r.res, code, JSON.stringify(toView(type, obj)), warningHeaders(warnings));
}

function requireExisting(ctx: ApiContext, r: ResourceRequest): StoredObject {
  const existing = ctx.store.get(r.type.storageKey, r.path.namespace ?? "", r.path.name!);
  if (!existing) throw ctx.writer.notFound(r.type, r.path.name!);
  return existing;
}

/**
 * The object in a POST/PUT body: JSON, YAML, or (built-in kinds only, as kube-apiserver) protobuf.
 * `expected` is the kind the URL takes: the resource's own, or `autoscaling/v1` Scale.
 */
export async function objectBody(r: ResourceRequest, expected = { apiVersion: apiVersionOf(r.type), kind: r.type.kind }): Promise<KubeObject> {
  const type = mediaType(r.req);
  const protobuf = acceptsProtobuf(expected.apiVersion, expected.kind);
  if (type === PROTOBUF_MEDIA_TYPE && protobuf) return decodeProtobufObject(await readBody(r.req), expected) as KubeObject;
  if (!BODY_TYPES.has(type)) {
    throw unsupportedMediaType(
      `the body of the request was in an unknown format - accepted media types include: application/json, application/yaml${protobuf ? `, ${PROTOBUF_MEDIA_TYPE}` : ""}`);
  }
  return parseObjectBody(await readBody(r.req), type) as KubeObject;
}

const SCALE_KIND = { apiVersion: "autoscaling/v1", kind: "Scale" };

/** Checks apiVersion/kind of a body and fills them (and the URL's namespace) when absent. */
export function checkKind(r: ResourceRequest, body: KubeObject): void {
  const want = apiVersionOf(r.type);
  if (body.apiVersion !== undefined && body.apiVersion !== want) {
    throw badRequest(`the API version in the data (${body.apiVersion}) does not match the expected API version (${want})`);
  }
  if (body.kind !== undefined && body.kind !== r.type.kind) {
    throw badRequest(`the kind in the data (${body.kind}) does not match the expected kind (${r.type.kind})`);
  }
  normalizeBody(r, body);
}

function normalizeBody(r: ResourceRequest, body: KubeObject): void {
  const want = apiVersionOf(r.type);
  body.metadata ??= {};
  if (r.type.namespaced && r.path.namespace && body.metadata.namespace === undefined) {
    body.metadata.namespace = r.path.namespace;
  }
  if (body.apiVersion === undefined) body.apiVersion = want;
  if (body.kind === undefined) body.kind = r.type.kind;
}

/**
 * kube-apiserver's 400 for a create, update or apply body its decoder cannot read into the
 * kind's struct (see {@link stringMapDecodeError}); also normalizes `null` map values.
 */
function checkDecodable(r: ResourceRequest, body: KubeObject): void {
  const error = stringMapDecodeError(r.type, body);
  if (error) throw badRequest(`${r.type.kind} in version "${r.type.version}" cannot be handled as a ${r.type.kind}: ${error}`);
}

/**
 * kube-apiserver's 422 for a JSON or merge patch whose result its decoder cannot read into the
 * kind's struct: an `Invalid value` on the field `patch`, holding the patched object.
 */
function checkPatchedDecodable(r: ResourceRequest, patched: KubeObject): void {
  const error = stringMapDecodeError(r.type, patched);
  if (!error) return;
  const cause = invalidValue("patch", JSON.stringify(patched), error);
  throw new StatusError(422, "Invalid", ` "" is invalid: patch: ${cause.message}`, { causes: [cause] });
}

/** POST a new object. */
export async function handleCreate(ctx: ApiContext, r: ResourceRequest): Promise<void> {
  const body = await objectBody(r);
  if (typeof body.metadata?.name === "string" && body.metadata.name !== "") {
    r.named = body.metadata.name;
    await r.faultByName?.(body.metadata.name);
  }
  checkKind(r, body);
  checkDecodable(r, body);
  const opts = writeOptions(r);
  if (r.type.group === "events.k8s.io") validateEventsV1Create(body);
  const st = storageType(ctx, r.type);
  const result = ctx.writer.create(st, r.path.namespace, fromView(r.type, body), opts);
  respond(r, 201, r.type, result.object, result.warnings);
}

/** PUT a whole object (or its /status). */
export async function handleUpdate(ctx: ApiContext, r: ResourceRequest): Promise<void> {
  if (r.path.subresource === "scale") return updateScale(ctx, r, await objectBody(r, SCALE_KIND));
  const body = await objectBody(r);
  checkKind(r, body);
  checkDecodable(r, body);
  const existing = requireExisting(ctx, r);
  if (r.type.group === "events.k8s.io") validateEventsV1Update(toView(r.type, existing.object()), body);
  const opts = { ...writeOptions(r), requireResourceVersion: true };
  const result = ctx.writer.update(storageType(ctx, r.type), existing, fromView(r.type, body), opts);
  respond(r, 200, r.type, result.object, result.warnings);
}

/** PATCH in any of the four formats. */
export async function handlePatch(ctx: ApiContext, r: ResourceRequest): Promise<void> {
  const type = mediaType(r.req);
  const buf = await readBody(r.req);
  const name = r.path.name!;
  const ctxInfo = { kind: r.type.kind, group: r.type.group, name };
  if (type === "application/apply-patch+yaml") return apply(ctx, r, parseObjectBody(buf, type) as KubeObject);
  const existing = requireExisting(ctx, r);
  if (r.path.subresource === "scale") {
    const scale = getScale(r.type, existing.object());
    return updateScale(ctx, r, patchDocument(type, scale, buf, r.type, ctxInfo), existing);
  }
  const current = toView(r.type, existing.object());
  const patched = patchDocument(type, current, buf, r.type, ctxInfo);
  checkPatchedDecodable(r, patched);
  if (r.type.group === "events.k8s.io") validateEventsV1Update(current, patched);
  const result = ctx.writer.update(storageType(ctx, r.type), existing, fromView(r.type, patched), writeOptions(r));
  respond(r, 200, r.type, result.object, result.warnings);
}

function patchDocument(
  media: string,
  doc: KubeObject,
  buf: Buffer,
  type: ResourceType,
  info: { kind: string; group: string; name: string },
): KubeObject {
  switch (media) {
    case "application/json-patch+json":
      return applyJsonPatch(doc, parseJsonBody(buf), info);
    case "application/merge-patch+json":
      return applyMergePatch(doc, parseJsonBody(buf)) as KubeObject;
    case "application/strategic-merge-patch+json":
      if (!type.builtin) throw unsupportedMediaType(PATCH_TYPES);
      return applyStrategicMergePatch(doc, parseJsonBody(buf), type.listType) as KubeObject;
    default:
      throw unsupportedMediaType(PATCH_TYPES);
  }
}

async function apply(ctx: ApiContext, r: ResourceRequest, body: KubeObject): Promise<void> {
  const manager = r.query.get("fieldManager");
  if (!manager) {
    throw new StatusError(422, "Invalid",
      `PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch`);
  }
  checkKind(r, body);
  checkDecodable(r, body);
  const opts = writeOptions(r, manager);
  const force = queryBool(r.query, "force") === true;
  const existing = ctx.store.get(r.type.storageKey, r.path.namespace ?? "", r.path.name!);
  if (body.metadata?.name !== undefined && body.metadata.name !== r.path.name) {
    throw badRequest(`the name of the object (${body.metadata.name}) does not match the name on the URL (${r.path.name})`);
  }
  if (!existing && r.path.subresource) throw ctx.writer.notFound(r.type, r.path.name!);
  const live = existing ? toView(r.type, existing.object()) : undefined;
  const applied: KubeObject = { ...body, metadata: { ...body.metadata, name: r.path.name } };
  keyFieldDefaults(r.type, applied);
  const { object } = serverSideApply({
    live,
    applied,
    manager,
    force,
    apiVersion: apiVersionOf(r.type),
    listType: r.type.listType,
    now: new Date().toISOString().replace(/\.\d+Z$/, "Z"),
    ...(r.path.subresource ? { subresource: r.path.subresource } : {}),
    ignoredFields: ignoredFieldsFor({ statusSubresource: r.type.status, ...(r.path.subresource ? { subresource: r.path.subresource } : {}) }),
  });
  const managedFields = object.metadata?.managedFields ?? [];
  const st = storageType(ctx, r.type);
  if (!existing) {
    if (r.type.group === "events.k8s.io") validateEventsV1Create(object);
    const result = ctx.writer.create(st, r.path.namespace, fromView(r.type, object), { ...opts, managedFields });
    respond(r, 201, r.type, result.object, result.warnings);
    return;
  }
  const result = ctx.writer.update(st, existing, fromView(r.type, object), { ...opts, managedFields });
  respond(r, 200, r.type, result.object, result.warnings);
}

async function updateScale(ctx: ApiContext, r: ResourceRequest, scale: KubeObject, existing?: StoredObject): Promise<void> {
  const stored = existing ?? requireExisting(ctx, r);
  const obj = scaleToObject(r.type, stored.object(), scale);
  if (!obj) throw badRequest("spec.replicas: Required value");
  const result = ctx.writer.update(r.type, stored, obj, writeOptions(r));
  sendJson(r.res, 200, JSON.stringify(getScale(r.type, result.object)));
}

/** DeleteOptions from the body (if any) or the query. */
async function deleteOptions(r: ResourceRequest): Promise<DeleteOptions & { orphanDependents?: boolean }> {
  const buf = await readBody(r.req);
  const q = r.query;
  const src: Record<string, unknown> =
    buf.length > 0
      ? mediaType(r.req) === PROTOBUF_MEDIA_TYPE
        ? decodeProtobufObject(buf, { apiVersion: "meta.k8s.io/v1", kind: "DeleteOptions" })
        : (parseObjectBody(buf, "application/json") as Record<string, unknown>)
      : {
          propagationPolicy: q.get("propagationPolicy") ?? undefined,
          orphanDependents: queryBool(q, "orphanDependents"),
          dryRun: q.getAll("dryRun"),
        };
  let policy = src.propagationPolicy as DeleteOptions["propagationPolicy"];
  if (policy !== undefined && policy !== "Background" && policy !== "Foreground" && policy !== "Orphan") {
    throw new StatusError(422, "Invalid",
      `DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "${policy}": supported values: "Foreground", "Background", "Orphan", "nil"`);
  }
  if (policy === undefined && src.orphanDependents === true) policy = "Orphan";
  const dry = (src.dryRun as string[] | undefined) ?? [];
  return {
    ...(policy ? { propagationPolicy: policy } : {}),
    ...(src.preconditions ? { preconditions: src.preconditions as DeleteOptions["preconditions"] } : {}),
    dryRun: dry.includes("All"),
    ...(typeof src.orphanDependents === "boolean" ? { orphanDependents: src.orphanDependents } : {}),
  };
}

/** Kinds whose DELETE returns the object rather than a Status. */
function returnsObject(type: ResourceType): boolean {
  return !type.builtin || type.kind === "Pod" || type.kind === "Namespace";
}

/** DELETE one object. */
export async function handleDelete(ctx: ApiContext, r: ResourceRequest): Promise<void> {
  const opts = await deleteOptions(r);
  const existing = requireExisting(ctx, r);
  const { object, removed } = ctx.writer.delete(storageType(ctx, r.type), existing, opts);
  if (removed && !returnsObject(r.type)) {
    const status = {
      kind: "Status", apiVersion: "v1", metadata: {}, status: "Success",
      details: { name: existing.name, ...(r.type.group ? { group: r.type.group } : {}), kind: r.type.plural, uid: existing.uid },
    };
    sendJson(r.res, 200, JSON.stringify(status));
    return;
  }
  const code = !removed && opts.orphanDependents === false ? 202 : 200;
  sendJson(r.res, code, JSON.stringify(toView(r.type, object)));
}

/**
 * DELETE a collection: every matching object (label, field and shard selectors, as
 * kube-apiserver honours `shardSelector` on deletecollection), answered with the list of them.
 */
export async function handleDeleteCollection(ctx: ApiContext, r: ResourceRequest): Promise<void> {
  const opts = await deleteOptions(r);
  const labelsAndFields = selectorOf(r.type, r.query);
  const match = withShard(labelsAndFields, shardSelectionOf(ctx, r.query));
  const items: KubeObject[] = [];
  for (const o of ctx.store.list(r.type.storageKey, r.path.namespace)) {
    if (!match(o)) continue;
    items.push(toView(r.type, ctx.writer.delete(storageType(ctx, r.type), o, opts).object));
  }
  const list = { kind: `${r.type.kind}List`, apiVersion: apiVersionOf(r.type), metadata: { resourceVersion: String(ctx.store.resourceVersion) }, items };
  sendJson(r.res, 200, JSON.stringify(list));
}
