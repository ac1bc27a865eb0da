/**
 * POST, PUT, PATCH (json, merge, strategic, apply) and DELETE requests.
 */
import { pruneUnknownFields, unknownFieldMessage } from "./crd/prune.ts";
import { applyDefaultsInPlace } from "./crd/defaults.ts";
import type { ApiContext, ResourceRequest } from "./api-context.ts";
import type { KubeObject, ResourceType } from "./resource-type.ts";
import { apiVersionOf } from "./resource-type.ts";
import type { StoredObject } from "./object-store.ts";
import type { DeleteOptions, WriteOptions, WriteResult } from "./write-path.ts";
import { ChangedMeanwhileError } from "./write-path.ts";
import type { StatusCause } from "./status.ts";
import { StatusError, badRequest, conflict, forbidden, goStringSlice, invalidOptions, invalidValue, unsupportedMediaType, unsupportedValue } from "./status.ts";
import { stringMapDecodeError } from "./string-maps.ts";
import { mediaType, parseJsonBody, parseObjectBody, readBody, sendJson, warningHeaders } from "./http-io.ts";
import { fromViewAsync, storageApiVersion, toViewAsync } from "./object-view.ts";
import { applyConfigurationError, checkPatchedObject, decodeBody, fieldDefaults } from "./kind-rules.ts";
import { validateListOptions } from "./list-params.ts";
import { applyJsonPatch } from "./patch/json-patch.ts";
import { applyMergePatch } from "./patch/merge-patch.ts";
import { mergePatchInPlace } from "../util/merge-patch.ts";
import { isJsonObject } from "./json-value.ts";
import { applyStrategicMergePatch } from "./patch/strategic-merge.ts";
import { ignoredFieldsFor, serverSideApply } from "./apply/server-side-apply.ts";
import { validateEventsV1Create, validateEventsV1Update } from "./views/events.ts";
import { selectorOf, withShard } from "./read-handlers.ts";
import { shardSelectionOf } from "./shard-selector.ts";
import { getScale, scaleToObject } from "./scale.ts";
import { queryBool } from "./request-info.ts";
import { PROTOBUF_MEDIA_TYPE, acceptsProtobuf, decodeProtobufObject } from "./protobuf/decode.ts";
import { ADMIN_USER } from "./auth/user-info.ts";
import type { AdmissionAttributes, AdmissionPlan } from "./admission/chain.ts";

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

/** The kind of options a write's query decodes into (its name in a 422). */
type OptionsKind = "CreateOptions" | "UpdateOptions" | "PatchOptions";

/**
 * Common write options from the query string, validated as kube-apiserver's handlers do before
 * anything else (`ValidateCreateOptions`, `…UpdateOptions`, `…PatchOptions`): every problem
 * becomes one cause of a 422 `CreateOptions.meta.k8s.io "" is invalid: …`.
 */
function writeOptions(r: ResourceRequest, kind: OptionsKind, manager?: string): WriteOptions {
  const q = r.query;
  const dryRun = q.getAll("dryRun");
  const sentManager = q.get("fieldManager") ?? manager ?? "";
  const fv = q.get("fieldValidation") ?? "";
  const causes: StatusCause[] = [];
  if (kind === "PatchOptions" && q.has("force") && mediaType(r.req) !== "application/apply-patch+yaml") {
    causes.push(forbidden("force", "may not be specified for non-apply patch"));
  }
  causes.push(...fieldManagerCauses(sentManager), ...dryRunCauses(dryRun));
  if (!["", "Ignore", "Warn", "Strict"].includes(fv)) causes.push(unsupportedValue("fieldValidation", fv, ["", "Ignore", "Strict", "Warn"]));
  if (causes.length) throw invalidOptions(kind, causes);
  return {
    dryRun: dryRun.length > 0,
    manager: sentManager || defaultManager(r),
    fieldValidation: (fv || "Warn") as WriteOptions["fieldValidation"],
    ...(r.path.subresource ? { subresource: r.path.subresource } : {}),
    ...(r.admit ? { admit: r.admit } : {}),
  };
}

/** Most bytes of a field manager's name (`FieldManagerMaxLength`). */
const FIELD_MANAGER_MAX_BYTES = 128;

/** `ValidateFieldManager`: at most 128 bytes, printable characters only. */
function fieldManagerCauses(manager: string): StatusCause[] {
  const causes: StatusCause[] = [];
  if (Buffer.byteLength(manager) > FIELD_MANAGER_MAX_BYTES) {
    causes.push({ reason: "FieldValueTooLong", field: "fieldManager", message: `Too long: may not be more than ${FIELD_MANAGER_MAX_BYTES} bytes` });
  }
  let position = 0;
  for (const ch of manager) {
    if (!isGoPrintable(ch)) {
      const code = ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");
      causes.push(invalidValue("fieldManager", manager, `invalid character U+${code} (at position ${position})`));
    }
    position += Buffer.byteLength(ch);
  }
  return causes;
}

/** Go's `unicode.IsPrint`: letters, marks, numbers, punctuation, symbols and the ASCII space. */
function isGoPrintable(ch: string): boolean {
  return ch === " " || /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u.test(ch);
}

/** `ValidateDryRun`: every value must be `All` (the message shows the whole list, Go-printed). */
function dryRunCauses(dryRun: string[]): StatusCause[] {
  if (dryRun.every((d) => d === "All")) return [];
  return [{ reason: "FieldValueNotSupported", field: "dryRun", message: `Unsupported value: ${goStringSlice(dryRun)}: supported values: "All"` }];
}

/**
 * The manager of a write that names none: the user agent up to its first `/`, printable
 * characters only, cut to 128 bytes (apiserver's `prefixFromUserAgent`).
 */
function defaultManager(r: ResourceRequest): string {
  const ua = (r.req.headers["user-agent"] ?? "").split("/")[0] ?? "";
  let out = "";
  for (const ch of ua) {
    if (!isGoPrintable(ch)) continue;
    if (Buffer.byteLength(out + ch) > FIELD_MANAGER_MAX_BYTES) break;
    out += ch;
  }
  return out;
}

/** Answers with a write's object in `type`'s view; reuses the stored text when the view is the stored form. */
async function respond(r: ResourceRequest, code: number, type: ResourceType, result: WriteResult): Promise<void> {
  const view = await toViewAsync(type, result.object);
  const text = view === result.object && result.json !== undefined ? result.json : JSON.stringify(view);
  sendJson(r.res, code, text, warningHeaders(result.warnings));
}

function requireExisting(ctx: ApiContext, r: ResourceRequest): StoredObject {
  const existing = ctx.store.get(r.type.storageKey, r.path.namespace ?? "", r.path.name!);
  if (!existing) throw ctx.writer.notFound(r.type, r.path.name!);
  return existing;
}

/**
 * An update read `existing`, then waited for a conversion webhook (its CRD's strategy is
 * `Webhook`): another write may have been stored meanwhile, which committing over `existing`
 * would lose. Answers what is stored now when it is still `existing`; otherwise what the
 * write may go on with (`reread`: a PUT's body does not depend on the stored object, so it
 * goes on against the current one, whose resourceVersion precondition then answers the 409
 * kube-apiserver gives) or throws a {@link ChangedMeanwhileError} (a patch, apply or scale
 * prepared from `existing`: it is applied again, once, to the current object).
 * Types without a conversion webhook never wait between the read and the write: their
 * callers keep `existing` without this check.
 */
function storedAfterConversion(ctx: ApiContext, r: ResourceRequest, existing: StoredObject, reread: boolean): StoredObject {
  const now = ctx.store.get(r.type.storageKey, existing.namespace, existing.name);
  if (now && now.rv === existing.rv) return existing;
  if (!now) throw ctx.writer.notFound(r.type, existing.name);
  if (reread) return now;
  const c = conflict(r.type.plural, r.type.group, existing.name);
  throw new ChangedMeanwhileError(c.code, c.reason, c.message, c.details);
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
  return parseObjectBody(await readBody(r.req), type, expected.kind) as KubeObject;
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
  const opts = writeOptions(r, "CreateOptions");
  const body = await objectBody(r);
  if (typeof body.metadata?.name === "string" && body.metadata.name !== "") {
    r.named = body.metadata.name;
    await r.faultByName?.(body.metadata.name);
  }
  checkKind(r, body);
  checkDecodable(r, body);
  if (r.type.group === "events.k8s.io") validateEventsV1Create(body);
  const st = storageType(ctx, r.type);
  // The body was just decoded for this request: the writer may work on it in place.
  const result = await createObject(ctx, r, st, body, { ...opts, ownsBody: true }, optionsObject(r, "CreateOptions"));
  await respond(r, 201, r.type, result);
}

/** PUT a whole object (or its /status). */
export async function handleUpdate(ctx: ApiContext, r: ResourceRequest): Promise<void> {
  const opts = { ...writeOptions(r, "UpdateOptions"), requireResourceVersion: true };
  if (r.path.subresource === "scale") {
    const scale = await objectBody(r, SCALE_KIND);
    if (!r.type.conversion) return updateScale(ctx, r, scale, opts);
    // A scale prepared while a conversion webhook was called is prepared again, once, on what is stored now.
    try {
      return await updateScale(ctx, r, structuredClone(scale), opts);
    } catch (err) {
      if (!(err instanceof ChangedMeanwhileError)) throw err;
      return updateScale(ctx, r, scale, opts);
    }
  }
  const body = await objectBody(r);
  checkKind(r, body);
  checkDecodable(r, body);
  const existing = requireExisting(ctx, r);
  if (r.type.group === "events.k8s.io") validateEventsV1Update(await toViewAsync(r.type, existing.object()), body);
  const st = storageType(ctx, r.type);
  // An unconditional PUT (no resourceVersion) that another write overtook while webhooks were
  // called is applied again to what is stored now, as kube-apiserver's update retries it.
  const unconditional = !body.metadata?.resourceVersion;
  let result: WriteResult | undefined;
  for (let attempt = 1; result === undefined; attempt++) {
    const current = attempt === 1 ? existing : requireExisting(ctx, r);
    try {
      result = await updateObject(ctx, r, st, current, unconditional ? structuredClone(body) : body, attempt === 1 ? opts : withoutHandover(opts), optionsObject(r, "UpdateOptions"));
    } catch (err) {
      if (!(err instanceof ChangedMeanwhileError) || !unconditional || attempt >= MAX_WRITE_ATTEMPTS) throw err;
    }
  }
  await respond(r, 200, r.type, result);
}

/** PATCH in any of the four formats. */
export async function handlePatch(ctx: ApiContext, r: ResourceRequest): Promise<void> {
  const type = mediaType(r.req);
  checkPatchType(r.type, type);
  const buf = await readBody(r.req);
  // The object may change while admission or conversion webhooks are called: the patch is
  // applied again to the new one, as kube-apiserver's patcher retries on a conflict (a patch
  // carrying a resourceVersion then fails its precondition: a 409, as it should).
  for (let attempt = 1; ; attempt++) {
    try {
      return await patchOnce(ctx, r, type, buf);
    } catch (err) {
      if (!(err instanceof ChangedMeanwhileError) || attempt >= MAX_WRITE_ATTEMPTS) throw err;
    }
  }
}

/** How often a write overtaken while webhooks were called is tried (kube-apiserver's patcher: 5). */
const MAX_WRITE_ATTEMPTS = 5;

async function patchOnce(ctx: ApiContext, r: ResourceRequest, type: string, buf: Buffer): Promise<void> {
  const name = r.path.name!;
  const ctxInfo = { kind: r.type.kind, group: r.type.group, name };
  if (type === "application/apply-patch+yaml") return apply(ctx, r, parseObjectBody(buf, type) as KubeObject);
  const opts = writeOptions(r, "PatchOptions");
  const existing = requireExisting(ctx, r);
  if (r.path.subresource === "scale") {
    const scale = getScale(r.type, await toViewAsync(r.type, existing.object()));
    return updateScale(ctx, r, patchDocument(type, scale, buf, r.type, ctxInfo), opts, existing);
  }
  const fresh = existing.object();
  const current = await toViewAsync(r.type, fresh);
  // A merge patch of the unconverted stored object works on this fresh copy itself.
  const inPlace = type === "application/merge-patch+json" && current === fresh;
  const patched = patchDocument(type, current, buf, r.type, ctxInfo, inPlace);
  checkPatchedDecodable(r, patched);
  checkPatchedObject(r.type, patched, (r.query.get("fieldValidation") ?? "Warn") as "Ignore" | "Warn" | "Strict");
  if (r.type.group === "events.k8s.io") validateEventsV1Update(current, patched);
  // The other patch formats work on a copy of `current`: unconverted, it is the stored object
  // the update would parse again.
  const handover = current === fresh && !inPlace ? { current: fresh } : {};
  const result = await updateObject(ctx, r, storageType(ctx, r.type), existing, patched, { ...opts, ...handover }, optionsObject(r, "UpdateOptions"));
  await respond(r, 200, r.type, result);
}

/** Patch media types the built-in resources' routes accept (others never reach the handler). */
const BUILTIN_PATCH_TYPES = new Set([
  "application/json-patch+json", "application/merge-patch+json", "application/strategic-merge-patch+json", "application/apply-patch+yaml",
]);

/**
 * 415 for a PATCH body in a format the resource does not take, before anything else is read.
 * A built-in resource's route filters the Content-Type first and answers as its HTTP router
 * does (`415: Unsupported Media Type`, empty `details`); a custom resource's handler lists
 * the types it accepts (no strategic merge patch).
 */
function checkPatchType(type: ResourceType, media: string): void {
  if (type.builtin) {
    if (!BUILTIN_PATCH_TYPES.has(media)) throw new StatusError(415, "UnsupportedMediaType", "415: Unsupported Media Type", {});
  } else if (media === "application/strategic-merge-patch+json" || !BUILTIN_PATCH_TYPES.has(media)) {
    throw unsupportedMediaType(PATCH_TYPES);
  }
}

function patchDocument(
  media: string,
  doc: KubeObject,
  buf: Buffer,
  type: ResourceType,
  info: { kind: string; group: string; name: string },
  ownsDoc = false,
): KubeObject {
  switch (media) {
    case "application/json-patch+json":
      return applyJsonPatch(doc, parseJsonBody(buf), info);
    case "application/merge-patch+json": {
      const patch = parseJsonBody(buf);
      // A document the caller gives up is patched in place (applyMergePatch answers the 400 for a non-object patch).
      if (ownsDoc && isJsonObject(patch)) return mergePatchInPlace(doc, patch) as KubeObject;
      return applyMergePatch(doc, patch) as KubeObject;
    }
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
      `PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch`,
      { group: "meta.k8s.io", kind: "PatchOptions", causes: [{ reason: "FieldValueRequired", message: "Required value: is required for apply patch", field: "fieldManager" }] });
  }
  const sentNamespace = typeof body.metadata?.namespace === "string" ? body.metadata.namespace : "";
  checkKind(r, body);
  checkDecodable(r, body);
  const opts = writeOptions(r, "PatchOptions", manager);
  const force = queryBool(r.query, "force") === true;
  const existing = ctx.store.get(r.type.storageKey, r.path.namespace ?? "", r.path.name!);
  if (body.metadata?.name !== undefined && body.metadata.name !== r.path.name) {
    throw badRequest(`the name of the object (${body.metadata.name}) does not match the name on the URL (${r.path.name})`);
  }
  if (!existing && r.path.subresource) throw ctx.writer.notFound(r.type, r.path.name!);
  const live = existing ? await toViewAsync(r.type, existing.object()) : undefined;
  const applied: KubeObject = { ...body, metadata: { ...body.metadata, name: r.path.name } };
  const untyped = applyConfigurationError(r.type, applied, sentNamespace);
  if (untyped) throw untyped;
  const { object } = serverSideApply({
    live,
    applied,
    manager,
    force,
    apiVersion: apiVersionOf(r.type),
    listType: r.type.listType,
    schema: r.type.schema,
    now: new Date().toISOString().replace(/\.\d+Z$/, "Z"),
    ...(r.path.subresource ? { subresource: r.path.subresource } : {}),
    ignoredFields: ignoredFieldsFor({ statusSubresource: r.type.status, ...(r.path.subresource ? { subresource: r.path.subresource } : {}) }),
  });
  const managedFields = object.metadata?.managedFields ?? [];
  const st = storageType(ctx, r.type);
  if (!existing) {
    if (r.type.group === "events.k8s.io") validateEventsV1Create(object);
    const result = await createObject(ctx, r, st, object, { ...opts, managedFields }, optionsObject(r, "CreateOptions", manager));
    await respond(r, 201, r.type, result);
    return;
  }
  const result = await updateObject(ctx, r, st, existing, object, { ...opts, managedFields }, optionsObject(r, "UpdateOptions", manager));
  await respond(r, 200, r.type, result);
}

async function updateScale(ctx: ApiContext, r: ResourceRequest, scale: KubeObject, opts: WriteOptions, existing?: StoredObject): Promise<void> {
  const stored = existing ?? requireExisting(ctx, r);
  const { requireResourceVersion: _unused, ...scaleOpts } = opts;
  const plan = admissionPlan(ctx, r, "UPDATE", stored.name, optionsObject(r, "UpdateOptions"), scaleOpts.dryRun === true, { group: "autoscaling", version: "v1", kind: "Scale" });
  // The scale paths are the requested version's: read and write the object in that view.
  const st = storageType(ctx, r.type);
  const view = await toViewAsync(r.type, stored.object());
  const withScale = async (s: KubeObject): Promise<KubeObject> => {
    const obj = scaleToObject(r.type, view, s);
    if (!obj) throw badRequest("spec.replicas: Required value");
    return fromViewAsync(r.type, obj);
  };
  const scaleOf = async (obj: KubeObject) => getScale(r.type, await toViewAsync(r.type, obj));
  if (!plan) {
    const updated = await withScale(scale);
    const current = r.type.conversion ? storedAfterConversion(ctx, r, stored, false) : stored;
    const result = ctx.writer.update(st, current, updated, scaleOpts);
    sendJson(r.res, 200, JSON.stringify(await scaleOf(result.object)));
    return;
  }
  const result = await admitted(r, plan, async () => {
    const oldScale = getScale(r.type, view);
    const mutated = (await plan.mutate(scale, oldScale)) ?? scale;
    const prepared = ctx.writer.update(st, stored, await withScale(mutated), { ...scaleOpts, dryRun: true });
    if (plan.validates) await plan.validate(await scaleOf(prepared.object), oldScale);
    return scaleOpts.dryRun ? prepared : ctx.writer.commitUpdate(st, stored, prepared);
  });
  sendJson(r.res, 200, JSON.stringify(await scaleOf(result.object)), warningHeaders(result.warnings));
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
  const dry = ((src.dryRun as unknown[] | undefined) ?? []).map(String);
  // ValidateDeleteOptions, before the object is looked up.
  const causes: StatusCause[] = [];
  if (typeof src.orphanDependents === "boolean" && policy !== undefined && policy !== null) {
    causes.push(invalidValue("propagationPolicy", policy, "orphanDependents and deletionPropagation cannot be both set"));
  }
  if (policy !== undefined && policy !== null && policy !== "Background" && policy !== "Foreground" && policy !== "Orphan") {
    causes.push(unsupportedValue("propagationPolicy", policy, ["Foreground", "Background", "Orphan", "nil"]));
  }
  causes.push(...dryRunCauses(dry));
  if (causes.length) throw invalidOptions("DeleteOptions", causes);
  if (policy === null) policy = undefined;
  if (policy === undefined && src.orphanDependents === true) policy = "Orphan";
  return {
    ...(policy ? { propagationPolicy: policy } : {}),
    ...(src.preconditions ? { preconditions: src.preconditions as DeleteOptions["preconditions"] } : {}),
    dryRun: dry.includes("All"),
    ...(typeof src.orphanDependents === "boolean" ? { orphanDependents: src.orphanDependents } : {}),
  };
}

/**
 * Built-in resources whose storage answers a DELETE that removed the object with the object
 * itself (`ReturnDeletedObject`, or a REST storage of its own); every other resource, custom
 * resources included, answers with a `Status` of `Success`.
 */
const RETURNS_DELETED_OBJECT = new Set(["/Pod", "/Namespace", "/Service", "/ServiceAccount", "/PersistentVolume", "/PersistentVolumeClaim"]);

/** Whether a DELETE of `type` that removed the object returns the object rather than a Status. */
function returnsObject(type: ResourceType): boolean {
  return type.builtin && RETURNS_DELETED_OBJECT.has(`${type.group}/${type.kind}`);
}

/** DELETE one object. */
export async function handleDelete(ctx: ApiContext, r: ResourceRequest): Promise<void> {
  const opts = await deleteOptions(r);
  let existing = requireExisting(ctx, r);
  const warnings: string[] = [];
  const plan = admissionPlan(ctx, r, "DELETE", existing.name, deleteOptionsObject(opts), opts.dryRun === true);
  if (plan) {
    await admitDelete(r, plan, existing);
    warnings.push(...plan.warnings);
    // The webhooks took time: delete what is stored now.
    existing = requireExisting(ctx, r);
  }
  const headers = warningHeaders(warnings);
  const { object, removed } = ctx.writer.delete(storageType(ctx, r.type), existing, opts);
  if (removed && !returnsObject(r.type)) {
    const status = {
      kind: "Status", apiVersion: "v1", metadata: {}, status: "Success",
      details: { name: existing.name, ...(r.type.group ? { group: r.type.group } : {}), kind: r.type.plural, uid: existing.uid },
    };
    sendJson(r.res, 200, JSON.stringify(status), headers);
    return;
  }
  const code = !removed && opts.orphanDependents === false ? 202 : 200;
  sendJson(r.res, code, JSON.stringify(await toViewAsync(r.type, object)), headers);
}

/**
 * DELETE a collection: every matching object (label, field and shard selectors, as
 * kube-apiserver honours `shardSelector` on deletecollection), answered with the list of them.
 */
export async function handleDeleteCollection(ctx: ApiContext, r: ResourceRequest): Promise<void> {
  const opts = await deleteOptions(r);
  validateListOptions(r.query, false);
  const labelsAndFields = selectorOf(r.type, r.query);
  const match = withShard(labelsAndFields, shardSelectionOf(ctx, r.query));
  const items: KubeObject[] = [];
  const warnings: string[] = [];
  const options = deleteOptionsObject(opts);
  for (let o of ctx.store.list(r.type.storageKey, r.path.namespace)) {
    if (!match(o)) continue;
    // kube-apiserver admits each object of a collection delete as a DELETE of that object.
    const plan = admissionPlan(ctx, r, "DELETE", o.name, options, opts.dryRun === true, undefined, o.namespace);
    if (plan) {
      await admitDelete(r, plan, o, warnings);
      for (const w of plan.warnings) if (!warnings.includes(w)) warnings.push(w);
      const now = ctx.store.get(r.type.storageKey, o.namespace, o.name);
      if (!now) continue;
      o = now;
    }
    const item = await toViewAsync(r.type, ctx.writer.delete(storageType(ctx, r.type), o, opts).object);
    // A built-in list's items are encoded without their apiVersion and kind (custom resources keep them).
    if (r.type.builtin) {
      delete item.apiVersion;
      delete item.kind;
    }
    items.push(item);
  }
  const list = { kind: `${r.type.kind}List`, apiVersion: apiVersionOf(r.type), metadata: { resourceVersion: String(ctx.store.resourceVersion) }, items };
  sendJson(r.res, 200, JSON.stringify(list), warningHeaders(warnings));
}

/**
 * The admission webhooks a write calls (see `AdmissionChain.plan`), or undefined when none
 * match: the write then takes its usual path.
 */
function admissionPlan(
  ctx: ApiContext, r: ResourceRequest, operation: AdmissionAttributes["operation"], name: string, options: KubeObject, dryRun: boolean,
  objectKind?: AdmissionAttributes["objectKind"], namespace = r.path.namespace ?? "",
): AdmissionPlan | undefined {
  const chain = ctx.admission;
  if (!chain) return undefined;
  const isNamespace = r.type.group === "" && r.type.plural === "namespaces";
  return chain.plan({
    operation, type: r.type, subresource: r.path.subresource ?? "", namespace: isNamespace ? name : namespace, name,
    user: r.user ?? ADMIN_USER, dryRun, options, ...(objectKind ? { objectKind } : {}),
  });
}

/** The CreateOptions/UpdateOptions admission sends, from the request's query (apply: its manager). */
function optionsObject(r: ResourceRequest, kind: "CreateOptions" | "UpdateOptions", manager?: string): KubeObject {
  const q = r.query;
  const dryRun = q.getAll("dryRun");
  const fieldManager = manager ?? q.get("fieldManager") ?? "";
  const fieldValidation = q.get("fieldValidation") ?? "";
  return {
    kind, apiVersion: "meta.k8s.io/v1",
    ...(dryRun.length ? { dryRun } : {}),
    ...(fieldManager ? { fieldManager } : {}),
    ...(fieldValidation ? { fieldValidation } : {}),
  } as KubeObject;
}

/** The DeleteOptions admission sends. */
function deleteOptionsObject(opts: DeleteOptions & { orphanDependents?: boolean }): KubeObject {
  return {
    kind: "DeleteOptions", apiVersion: "meta.k8s.io/v1",
    ...(opts.dryRun ? { dryRun: ["All"] } : {}),
    ...(opts.propagationPolicy ? { propagationPolicy: opts.propagationPolicy } : {}),
    ...(opts.preconditions ? { preconditions: opts.preconditions } : {}),
    ...(opts.orphanDependents !== undefined ? { orphanDependents: opts.orphanDependents } : {}),
  } as KubeObject;
}

/**
 * Runs a write's admission steps; the webhooks' warnings go with the answer, an error's too
 * (kube-apiserver sends the `Warning` headers it collected with a refusal).
 */
async function admitted(r: ResourceRequest, plan: AdmissionPlan, write: () => Promise<WriteResult>): Promise<WriteResult> {
  try {
    const result = await write();
    const warnings = [...result.warnings];
    for (const w of plan.warnings) if (!warnings.includes(w)) warnings.push(w);
    return { ...result, warnings };
  } catch (err) {
    const headers = warningHeaders(plan.warnings);
    if (headers && !r.res.headersSent) r.res.setHeader("Warning", headers.Warning!);
    throw err;
  }
}

/**
 * A create through the admission chain: mutating webhooks on the body, a dry run of the write
 * (defaults, generated name, uid…), validating webhooks on that result, then the result stored
 * as they saw it. Without matching webhooks, just the write.
 */
async function createObject(ctx: ApiContext, r: ResourceRequest, st: ResourceType, view: KubeObject, opts: WriteOptions, options: KubeObject): Promise<WriteResult> {
  const name = typeof view.metadata?.name === "string" ? view.metadata.name : "";
  const plan = admissionPlan(ctx, r, "CREATE", name, options, opts.dryRun === true);
  if (!plan) return ctx.writer.create(st, r.path.namespace, await fromViewAsync(r.type, view), opts);
  // What kube-apiserver checks before admission: the body's namespace, then NamespaceLifecycle.
  if (r.type.namespaced && r.path.namespace) {
    const sent = view.metadata?.namespace;
    if (sent && sent !== r.path.namespace) throw badRequest("the namespace of the provided object does not match the namespace sent on the request");
    ctx.writer.guardNamespace(r.path.namespace);
  }
  return await admitted(r, plan, async () => {
    const decoded = plan.mutates ? decodeForMutation(r.type, view, opts) : { view, warnings: [] };
    const decodeWarnings = decoded.warnings;
    const mutated = (await plan.mutate(decoded.view, undefined)) ?? decoded.view;
    // The body was decoded (and warned about) before the webhooks; what they add that the
    // schema does not know is dropped silently, as kube-apiserver does.
    const prepared = ctx.writer.create(st, r.path.namespace, await fromViewAsync(r.type, mutated), { ...opts, dryRun: true, ...(plan.mutates ? IGNORE_UNKNOWN : {}) });
    prepared.warnings.unshift(...decodeWarnings);
    if (plan.validates) await plan.validate(await toViewAsync(r.type, prepared.object), undefined);
    return opts.dryRun ? prepared : ctx.writer.commitCreate(st, prepared);
  });
}

/** The write after mutating webhooks: unknown fields were judged when the body was decoded. */
const IGNORE_UNKNOWN: Pick<WriteOptions, "fieldValidation"> = { fieldValidation: "Ignore" };

/** Write options without a handed-over copy of a stored object that is no longer current. */
function withoutHandover(opts: WriteOptions): WriteOptions {
  const { current: _stale, ...rest } = opts;
  return rest;
}

/** An update (PUT, PATCH, apply) through the admission chain, as {@link createObject}. */
async function updateObject(
  ctx: ApiContext, r: ResourceRequest, st: ResourceType, existing: StoredObject, view: KubeObject, opts: WriteOptions, options: KubeObject,
): Promise<WriteResult> {
  const plan = admissionPlan(ctx, r, "UPDATE", existing.name, options, opts.dryRun === true);
  if (!plan) {
    if (!r.type.conversion) return ctx.writer.update(st, existing, await fromViewAsync(r.type, view), opts);
    // Reading the view (patch, apply) and converting the body may both have called the webhook.
    const body = await fromViewAsync(r.type, view);
    const current = storedAfterConversion(ctx, r, existing, r.req.method === "PUT");
    return ctx.writer.update(st, current, body, current === existing ? opts : withoutHandover(opts));
  }
  const { current: _handedOver, ...rest } = opts;
  return await admitted(r, plan, async () => {
    const oldView = await toViewAsync(r.type, existing.object());
    const decoded = plan.mutates ? decodeForMutation(r.type, view, opts) : { view, warnings: [] };
    const decodeWarnings = decoded.warnings;
    const mutated = (await plan.mutate(decoded.view, oldView)) ?? decoded.view;
    const prepared = ctx.writer.update(st, existing, await fromViewAsync(r.type, mutated), { ...rest, dryRun: true, ...(plan.mutates ? IGNORE_UNKNOWN : {}) });
    prepared.warnings.unshift(...decodeWarnings);
    if (plan.validates) await plan.validate(await toViewAsync(r.type, prepared.object), oldView);
    return opts.dryRun ? prepared : ctx.writer.commitUpdate(st, existing, prepared);
  });
}

/**
 * The object as kube-apiserver hands it to mutating webhooks, as it decoded the body: a
 * built-in kind decoded into its Go type (unknown fields dropped; 400 for a wrong type) and
 * defaulted (`SetDefaults_*`) in place; a custom resource pruned and defaulted by the requested
 * version's schema. Returns that object and the decoding's warnings; `fieldValidation=Strict`
 * refuses an unknown field here. The write after the webhooks ignores unknown fields (what a
 * webhook adds that the schema does not know is dropped silently, as on kube-apiserver).
 */
function decodeForMutation(type: ResourceType, view: KubeObject, opts: WriteOptions): { view: KubeObject; warnings: string[] } {
  if (!type.builtin) {
    if (!type.schema) return { view, warnings: [] };
    const { object, prunedFields } = pruneUnknownFields(view, type.schema);
    applyDefaultsInPlace(object, type.schema);
    const validation = opts.fieldValidation ?? "Warn";
    const messages = prunedFields.map(unknownFieldMessage);
    if (messages.length > 0 && validation === "Strict") throw badRequest(`strict decoding error: ${messages.join(", ")}`);
    return { view: object, warnings: validation === "Ignore" ? [] : messages };
  }
  if (type.group === "events.k8s.io") return { view, warnings: [] };
  const warnings: string[] = [];
  decodeBody(type, view, { fieldValidation: opts.fieldValidation ?? "Warn", warnings } as unknown as Parameters<typeof decodeBody>[2]);
  fieldDefaults(type, view);
  return { view, warnings };
}

/** A DELETE's admission: mutating then validating webhooks, with the stored object as `oldObject`. */
async function admitDelete(r: ResourceRequest, plan: AdmissionPlan, existing: StoredObject, earlier: string[] = []): Promise<void> {
  try {
    const oldView = await toViewAsync(r.type, existing.object());
    await plan.mutate(undefined, oldView);
    await plan.validate(undefined, oldView);
  } catch (err) {
    const headers = warningHeaders([...earlier, ...plan.warnings.filter((w) => !earlier.includes(w))]);
    if (headers && !r.res.headersSent) r.res.setHeader("Warning", headers.Warning!);
    throw err;
  }
}
