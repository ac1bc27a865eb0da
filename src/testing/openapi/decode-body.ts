/**
 * Where LocalCluster's write path decodes bodies of built-in kinds as kube-apiserver v1.36.2
 * does (see {@link decodeBuiltin}), and how it answers what decoding finds: unknown fields as
 * `fieldValidation` asks (a `Warning`, a 400 with Strict, nothing with Ignore), values of the
 * wrong type with a 400; for patches, the 422 on `patch`; for server-side apply, the 500 of its
 * typed conversion.
 *
 * The write path (`Writer.create` and `Writer.update`) calls {@link decodeBody} on every body
 * before anything else. Custom resources are left alone: their schema prunes them (`crd/prune.ts`).
 */
import type { KubeObject, ResourceType } from "../resource-type.ts";
import type { RuleContext } from "../rule-context.ts";
import { StatusError, badRequest, invalidValue } from "../status.ts";
import { isJsonObject, setMember } from "../json-value.ts";
import type { JsonObject } from "../json-value.ts";
import { goTypeOfKind } from "./decode-schema.ts";
import type { GoType } from "./decode-schema.ts";
import { decodeBuiltin, strictDecodingError, unknownFieldWarning } from "./decode-builtin.ts";
import { typedPatchError } from "./decode-apply.ts";

/**
 * Built-in kinds served at several versions that LocalCluster stores without converting
 * (`autoscaling/v1` and `v2` HorizontalPodAutoscalers): the write path sees the storage type
 * with a body in the request's shape, so the storage type's schema cannot decode it.
 */
const UNCONVERTED_VERSIONS: ReadonlySet<string> = new Set(["autoscaling/HorizontalPodAutoscaler"]);

function goTypeOf(type: ResourceType): GoType | undefined {
  if (!type.builtin || UNCONVERTED_VERSIONS.has(`${type.group}/${type.kind}`)) return undefined;
  return goTypeOfKind(type.group, type.version, type.kind);
}

/**
 * Decodes a built-in object in place: unknown fields and empty `omitempty` collections are
 * dropped; a value of the wrong type is a 400. Returns the paths of the unknown fields.
 */
function decodeInPlace(type: ResourceType, obj: KubeObject): string[] {
  const goType = goTypeOf(type);
  if (goType === undefined) return [];
  const { object, unknownFields, typeErrors } = decodeBuiltin(goType, obj);
  if (typeErrors.length) throw cannotBeHandled(type, typeErrors[0]!);
  // The root and its object members (metadata, spec, …) keep their identity: callers hold them.
  const target = obj as Record<string, unknown>;
  const members = new Map<string, unknown>();
  for (const key of Object.keys(target)) {
    members.set(key, target[key]);
    delete target[key];
  }
  for (const [key, value] of Object.entries(object)) {
    const held = members.get(key);
    target[key] = isJsonObject(held) && isJsonObject(value) && held !== value ? replaceContents(held, value) : value;
  }
  return unknownFields;
}

function replaceContents(target: JsonObject, source: JsonObject): JsonObject {
  for (const key of Object.keys(target)) delete target[key];
  for (const key of Object.keys(source)) setMember(target, key, source[key]);
  return target;
}

/** kube-apiserver's 400 for a create or update body it cannot decode. */
function cannotBeHandled(type: ResourceType, error: string): StatusError {
  return badRequest(`${type.kind} in version "${type.version}" cannot be handled as a ${type.kind}: ${error}`);
}

function answerUnknownFields(type: ResourceType, unknownFields: string[], ctx: RuleContext): void {
  if (unknownFields.length === 0 || ctx.fieldValidation === "Ignore") return;
  if (ctx.fieldValidation === "Strict") throw cannotBeHandled(type, strictDecodingError(unknownFields));
  ctx.warnings.push(...unknownFields.map(unknownFieldWarning));
}

/**
 * Decodes a create or update body of a built-in kind in place, as kube-apiserver reads it into
 * the kind's Go struct before anything else: unknown fields are dropped and answered as
 * `ctx.fieldValidation` asks, empty `omitempty` collections are left out, a value of the wrong
 * type is a 400 (`Deployment in version "v1" cannot be handled as a Deployment: json: cannot
 * unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32`).
 * Idempotent: decoding a decoded object finds nothing.
 */
export function decodeBody(type: ResourceType, obj: KubeObject, ctx: RuleContext): void {
  answerUnknownFields(type, decodeInPlace(type, obj), ctx);
}

/**
 * For a JSON or merge patch of a built-in object: kube-apiserver's 422 when the patched object
 * does not decode (a value of the wrong type, or unknown fields under `fieldValidation=Strict`),
 * an `Invalid value` on the field `patch` holding the patched object. With Warn, the warnings
 * come from the write's own decoding, worded as for any body.
 */
export function checkPatchedObject(type: ResourceType, patched: KubeObject, fieldValidation: RuleContext["fieldValidation"]): void {
  const goType = goTypeOf(type);
  if (goType === undefined) return;
  const { unknownFields, typeErrors } = decodeBuiltin(goType, patched);
  let error = typeErrors[0];
  if (error === undefined && unknownFields.length && fieldValidation === "Strict") error = strictDecodingError(unknownFields);
  if (error === undefined) return;
  const cause = invalidValue("patch", JSON.stringify(patched), error);
  throw new StatusError(422, "Invalid", ` "" is invalid: patch: ${cause.message}`, { causes: [cause] });
}

/**
 * kube-apiserver's 500 for a server-side apply configuration of a built-in kind with fields its
 * schema does not declare (see {@link typedPatchError}), or undefined. `namespace` is the one
 * the configuration was sent with ("" when none).
 */
export function applyConfigurationError(type: ResourceType, applied: KubeObject, namespace: string): StatusError | undefined {
  const goType = goTypeOf(type);
  if (goType === undefined) return undefined;
  const name = typeof applied.metadata?.name === "string" ? applied.metadata.name : "";
  return typedPatchError(goType, applied, type, namespace, name);
}
