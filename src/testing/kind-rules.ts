/**
 * Per-kind rules applied on create and update: defaults a real API server fills in, and the
 * validation of kinds LocalCluster understands (CRDs, CRs, Events, owner references).
 */
import type { KubeObject, ResourceType } from "./resource-type.ts";
import type { StatusCause } from "./status.ts";
import { badRequest, invalid, invalidValue, requiredValue } from "./status.ts";
import { prepareCustomResource } from "./crd/schema.ts";
import { validateCrd } from "./crd/crd-validation.ts";
import { recordStorageVersion } from "./conversion/stored-versions.ts";
import { checkObjectLimits } from "./metadata-validation.ts";
import { updateCauses } from "./immutable-fields.ts";
import { isRbacType, rbacCauses } from "./rbac/rbac-validation.ts";
import { builtinCauses } from "./kinds/validation.ts";
import { createDefaults as kindCreateDefaults, fieldDefaults as kindFieldDefaults } from "./kinds/defaulting.ts";
export { applyConfigurationError, checkPatchedObject, decodeBody } from "./openapi/decode-body.ts";

export type { RuleContext } from "./rule-context.ts";
import type { RuleContext } from "./rule-context.ts";

/**
 * Fills server-side defaults of a new object (after metadata is set). The write path has
 * decoded the body first (`decodeBody`), as kube-apiserver does before it defaults.
 */
export function createDefaults(type: ResourceType, obj: KubeObject, ctx: RuleContext): void {
  kindCreateDefaults(type, obj, ctx);
}

/** Field defaults applied to every decoded body (see `decodeBody`). */
export function fieldDefaults(type: ResourceType, obj: KubeObject): void {
  kindFieldDefaults(type, obj);
}

/** Validates a new or updated object; throws 422/400 as the API server would. */
export function validateObject(type: ResourceType, obj: KubeObject, old: KubeObject | undefined, ctx: RuleContext): KubeObject {
  const name = obj.metadata?.name ?? "";
  const causes: StatusCause[] = validateOwnerReferences(obj);
  if (causes.length) throw invalid(type.kind, type.group, name, causes);
  checkObjectLimits(type, obj);
  if (!type.builtin && type.schema) {
    const { object, prunedFields, warnings } = prepareCustomResource(obj, type.schema, { kind: type.kind, group: type.group, name, ...(old ? { old } : {}) });
    ctx.warnings.push(...warnings);
    if (prunedFields.length && ctx.fieldValidation !== "Ignore") {
      const msgs = prunedFields.map((f) => `unknown field "${f}"`);
      if (ctx.fieldValidation === "Strict") throw badRequest(`strict decoding error: ${msgs.join(", ")}`);
      ctx.warnings.push(...msgs);
    }
    return object;
  }
  if (type.kind === "CustomResourceDefinition") {
    // The CRD strategy's PrepareForUpdate records a storage version switch (never removes one),
    // then the update is validated against the stored CRD.
    if (old) recordStorageVersion(obj);
    validateCrd(obj, old);
  }
  if (isRbacType(type)) {
    const rbacErrors = rbacCauses(type.kind, obj, old);
    if (rbacErrors.length) throw invalid(type.kind, type.group, name, rbacErrors);
  }
  const kindErrors = builtinCauses(type, obj, old);
  const updateErrors = old ? updateCauses(type, obj, old, ctx) : [];
  // One 422 with both lists, in kube-apiserver's order for the kind: ValidateXUpdate of these
  // kinds checks immutability before the object itself; workloads validate the spec first.
  const all = UPDATE_CAUSES_FIRST.has(type.kind) ? [...updateErrors, ...kindErrors] : [...kindErrors, ...updateErrors];
  if (all.length) throw invalid(type.kind, type.group, name, all);
  return obj;
}

/** Kinds whose update validation reports immutable-field causes before the object's own. */
const UPDATE_CAUSES_FIRST: ReadonlySet<string> = new Set(["Secret", "ConfigMap", "Service"]);

function validateOwnerReferences(obj: KubeObject): StatusCause[] {
  const refs = obj.metadata?.ownerReferences ?? [];
  const causes: StatusCause[] = [];
  refs.forEach((r, i) => {
    const f = `metadata.ownerReferences[${i}]`;
    if (!r.apiVersion) causes.push(requiredValue(`${f}.apiVersion`, "version must not be empty"));
    if (!r.kind) causes.push(requiredValue(`${f}.kind`, "kind must not be empty"));
    if (!r.name) causes.push(requiredValue(`${f}.name`, "name must not be empty"));
    if (!r.uid) causes.push(requiredValue(`${f}.uid`, "uid must not be empty"));
  });
  const controllers = refs.filter((r) => r.controller === true);
  if (controllers.length > 1) {
    causes.push(
      invalidValue(
        "metadata.ownerReferences",
        refs,
        `Only one reference can have Controller set to true. Found "true" in references for ${controllers.map((c) => `${c.kind}/${c.name}`).join(" and ")}`,
      ),
    );
  }
  return causes;
}

