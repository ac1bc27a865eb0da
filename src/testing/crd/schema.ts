/**
 * The custom-resource pipeline: what the apiserver does to a CR body before storing it.
 *
 * {@link prepareCustomResource} runs the three steps in the apiserver's order — structural
 * pruning ({@link pruneUnknownFields}), defaulting ({@link applyDefaults}), validation
 * ({@link validateAgainstSchema}, then the CEL rules: {@link celRuleCauses}) — and throws the
 * 422 a real server would. The steps are
 * exported on their own too, with {@link schemaListType} for how CR lists merge.
 *
 * @module
 */
import type { KubeObject, ScaleSubresource } from "../resource-type.ts";
import type { StatusCause } from "../status.ts";
import { invalid } from "../status.ts";
import { celNotCheckedCause, schemaHasCelRules } from "./cel-rules.ts";
import { celRuleCauses } from "./cel-validate.ts";
import { applyDefaultsInPlace } from "./defaults.ts";
import { pruneUnknownFields } from "./prune.ts";
import { scaleCauses } from "./scale-validation.ts";
import type { JsonSchema } from "./schema-node.ts";
import { validateCustomResourceSchema } from "./validate.ts";

export { applyDefaults } from "./defaults.ts";
export { matchesFormat } from "./formats.ts";
export { listTypeOf, listUniquenessCauses, schemaListType } from "./list-type.ts";
export { pruneUnknownFields, unknownFieldMessage } from "./prune.ts";
export type { PruneResult } from "./prune.ts";
export type { JsonSchema } from "./schema-node.ts";
export { validateAgainstSchema, validateCustomResourceSchema } from "./validate.ts";
export type { SchemaValidationResult } from "./validate.ts";
export { scaleCauses } from "./scale-validation.ts";
export { celNotCheckedCause, schemaHasCelRules } from "./cel-rules.ts";
export { celRuleCauses } from "./cel-validate.ts";
export type { CelValidationOptions, CelValidationResult, ValidationRule } from "./cel-validate.ts";

const scaleBySchema = new WeakMap<JsonSchema, ScaleSubresource>();

/**
 * Records the scale subresource served with a version's schema, so that
 * {@link prepareCustomResource} checks its replica paths even when its caller passes no
 * `scale` in the context (the CRD controller registers each served version's pair).
 *
 * @example
 * ```ts
 * import type { KubeObject } from "../resource-type.ts";
 * import { crdVersions } from "./crd-validation.ts";
 *
 * declare const crd: KubeObject;
 * for (const version of crdVersions(crd)) rememberScaleOfSchema(version.schema, version.scale);
 * ```
 */
export function rememberScaleOfSchema(schema: JsonSchema, scale: ScaleSubresource | undefined): void {
  if (scale === undefined) scaleBySchema.delete(schema);
  else scaleBySchema.set(schema, scale);
}

/** Names a custom resource in its 422 error: `Widget.example.com "foo" is invalid: …`. */
export interface CustomResourceContext {
  /** The Kind, e.g. `Pinot`. */
  kind: string;
  /** The API group, e.g. `datainfra.io`. */
  group: string;
  /** `metadata.name` (or the generateName prefix) of the object being written. */
  name: string;
  /** The version's scale subresource; defaults to the one remembered for the schema. */
  scale?: ScaleSubresource;
  /**
   * On update (main resource or `status`), the stored object: CEL transition rules (`oldSelf`)
   * run against it, and failures of unchanged values are ratcheted into warnings.
   */
  old?: unknown;
}

/** What {@link prepareCustomResource} returns. */
export interface PreparedCustomResource {
  /** The pruned and defaulted object, ready to store. */
  object: KubeObject;
  /** The dropped field paths (`spec.x`), for `fieldValidation=Warn|Strict`. */
  prunedFields: string[];
  /**
   * Warnings to send back (`Warning: 299` headers): CEL rules failing on values an update left
   * unchanged (kube-apiserver ratchets them into warnings), as `<field>: <message>`.
   */
  warnings: string[];
}

/**
 * Prunes, defaults and validates a custom resource against its version's `openAPIV3Schema`.
 *
 * Expected flow: prune unknown fields → apply defaults → validate. `metadata` passes through
 * untouched (ObjectMeta rules are the caller's); the input is not modified.
 *
 * Errors: a `StatusError` 422 Invalid (`invalid(kind, group, name, causes)`) with the causes in
 * the apiserver's order: the schema errors sorted by field path; then the scale subresource's
 * accessor errors (`.spec.replicas: Invalid value: 0: .spec.replicas accessor error: …`); then
 * `x-kubernetes-list-type` duplicates; then the CEL rules' causes ({@link celRuleCauses}) or,
 * when an earlier error stops them from running, `<nil>: Invalid value: "null": some validation
 * rules were not checked…`. E.g.
 * `Widget.example.com "w" is invalid: spec.size: Invalid value: "string": spec.size in body must be of type integer: "string"`.
 * Pruned fields are never an error here: with `fieldValidation=Strict` the caller turns
 * `prunedFields` into one (see {@link unknownFieldMessage}).
 *
 * CEL rules (`x-kubernetes-validations`) run on `@bufbuild/cel` with the Kubernetes libraries
 * LocalCluster implements; see {@link celRuleCauses} for transition rules, ratcheting and cost.
 *
 * Performance: one copy of the input (while pruning), then defaulting in place and a
 * validation walk that visits only the schema-described parts: linear in the object's size.
 *
 * @example
 * ```ts
 * import type { KubeObject } from "../resource-type.ts";
 * import type { CrdVersion } from "./crd-validation.ts";
 *
 * declare const body: KubeObject, version: CrdVersion;
 * const { object, prunedFields } = prepareCustomResource(body, version.schema, {
 *   kind: "Pinot", group: "datainfra.io", name: body.metadata?.name ?? "",
 * });
 * ```
 */
export function prepareCustomResource(obj: KubeObject, schema: JsonSchema, ctx: CustomResourceContext): PreparedCustomResource {
  const { object, prunedFields } = pruneUnknownFields(obj, schema);
  applyDefaultsInPlace(object, schema);
  const { causes, warnings } = customResourceValidation(object, schema, ctx.scale ?? scaleBySchema.get(schema), ctx.old);
  if (causes.length > 0) throw invalid(ctx.kind, ctx.group, ctx.name, causes);
  return { object, prunedFields, warnings };
}

/**
 * Every validation cause of a pruned and defaulted custom resource, in the apiserver's order
 * (see {@link prepareCustomResource}); empty when valid.
 *
 * @example
 * ```ts
 * import type { KubeObject } from "../resource-type.ts";
 *
 * declare const widget: KubeObject, schema: JsonSchema;
 * customResourceCauses(widget, schema, { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas" });
 * ```
 */
export function customResourceCauses(object: unknown, schema: JsonSchema, scale?: ScaleSubresource, old?: unknown): StatusCause[] {
  return customResourceValidation(object, schema, scale, old).causes;
}

/**
 * Like {@link customResourceCauses}, with the warnings of ratcheted CEL rules (failing rules
 * without `oldSelf` on values `old` already had) kept apart, as kube-apiserver sends them.
 *
 * @example
 * ```ts
 * import type { KubeObject } from "../resource-type.ts";
 *
 * declare const widget: KubeObject, stored: KubeObject, schema: JsonSchema;
 * const { causes, warnings } = customResourceValidation(widget, schema, undefined, stored);
 * ```
 */
export function customResourceValidation(object: unknown, schema: JsonSchema, scale?: ScaleSubresource, old?: unknown): { causes: StatusCause[]; warnings: string[] } {
  const { schemaCauses, listCauses } = validateCustomResourceSchema(object, schema);
  const causes = [...schemaCauses];
  if (scale !== undefined) causes.push(...scaleCauses(object, scale));
  causes.push(...listCauses);
  if (!schemaHasCelRules(schema)) return { causes, warnings: [] };
  const notChecked = celNotCheckedCause(causes);
  if (notChecked !== undefined) {
    causes.push(notChecked);
    return { causes, warnings: [] };
  }
  const cel = celRuleCauses(object, old, schema);
  causes.push(...cel.causes);
  return { causes, warnings: cel.warnings };
}
