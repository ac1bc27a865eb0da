/**
 * Defaults and validation of the RBAC kinds (Role, ClusterRole, RoleBinding,
 * ClusterRoleBinding), with kube-apiserver's field paths and messages: rules need verbs, and
 * resource rules groups and resources; a binding's `roleRef` names a Role or ClusterRole of
 * `rbac.authorization.k8s.io` and never changes; subjects are Users, Groups or ServiceAccounts
 * (a ClusterRoleBinding's service accounts with their namespace).
 */
import type { KubeObject } from "../resource-type.ts";
import type { StatusCause } from "../status.ts";
import { badRequest, invalidValue, requiredValue, unsupportedValue } from "../status.ts";
import { dns1123SubdomainErrors, pathSegmentNameErrors } from "../names.ts";
import { RBAC_GROUP } from "./rbac-index.ts";

type Json = Record<string, any>;

/** Kinds this module knows. */
export const RBAC_KINDS: ReadonlySet<string> = new Set(["Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding"]);

const isBinding = (kind: string) => kind === "RoleBinding" || kind === "ClusterRoleBinding";

/** Whether `type` is one of the RBAC kinds. */
export function isRbacType(type: { group: string; kind: string }): boolean {
  return type.group === RBAC_GROUP && RBAC_KINDS.has(type.kind);
}

/** v1 defaults: a binding's `roleRef.apiGroup`, and a User or Group subject's `apiGroup`, default to `rbac.authorization.k8s.io`. */
export function rbacDefaults(kind: string, obj: KubeObject): void {
  if (!isBinding(kind)) return;
  const o = obj as Json;
  if (o.roleRef === undefined) o.roleRef = {};
  if (isObject(o.roleRef) && !o.roleRef.apiGroup) o.roleRef.apiGroup = RBAC_GROUP;
  if (!Array.isArray(o.subjects)) return;
  for (const s of o.subjects) {
    if (isObject(s) && !s.apiGroup && (s.kind === "User" || s.kind === "Group")) s.apiGroup = RBAC_GROUP;
  }
}

/**
 * The validation causes of a new or updated RBAC object (empty when valid).
 *
 * @throws StatusError 400 when a field has the wrong JSON type, as kube-apiserver's decoder
 *   rejects it before validation.
 */
export function rbacCauses(kind: string, obj: KubeObject, old: KubeObject | undefined): StatusCause[] {
  const o = obj as Json;
  checkShapes(kind, o);
  const causes: StatusCause[] = [];
  if (!isBinding(kind)) {
    ((o.rules ?? []) as Json[]).forEach((rule, i) => causes.push(...ruleCauses(rule, kind === "Role", `rules[${i}]`)));
    if (kind === "ClusterRole" && o.aggregationRule !== undefined && o.aggregationRule !== null
      && !(o.aggregationRule.clusterRoleSelectors ?? []).length) {
      causes.push(requiredValue("aggregationRule.clusterRoleSelectors", "at least one clusterRoleSelector required if aggregationRule is non-nil"));
    }
    return causes;
  }
  const ref = (o.roleRef ?? {}) as Json;
  if (ref.apiGroup !== RBAC_GROUP) causes.push(unsupportedValue("roleRef.apiGroup", ref.apiGroup ?? "", [RBAC_GROUP]));
  const kinds = kind === "RoleBinding" ? ["Role", "ClusterRole"] : ["ClusterRole"];
  if (!kinds.includes(ref.kind)) causes.push(unsupportedValue("roleRef.kind", ref.kind ?? "", kinds));
  if (!ref.name) causes.push(requiredValue("roleRef.name"));
  else for (const msg of pathSegmentNameErrors(ref.name)) causes.push(invalidValue("roleRef.name", ref.name, msg));
  ((o.subjects ?? []) as Json[]).forEach((s, i) => causes.push(...subjectCauses(s, kind === "RoleBinding", `subjects[${i}]`)));
  const oldRef = (old as Json | undefined)?.roleRef as Json | undefined;
  if (oldRef && (oldRef.apiGroup !== ref.apiGroup || oldRef.kind !== ref.kind || oldRef.name !== ref.name)) {
    causes.push({
      reason: "FieldValueInvalid",
      field: "roleRef",
      message: `Invalid value: rbac.RoleRef{APIGroup:${JSON.stringify(ref.apiGroup ?? "")}, Kind:${JSON.stringify(ref.kind ?? "")}, Name:${JSON.stringify(ref.name ?? "")}}: cannot change roleRef`,
    });
  }
  return causes;
}

function ruleCauses(rule: Json, namespaced: boolean, at: string): StatusCause[] {
  const causes: StatusCause[] = [];
  if (!rule.verbs?.length) causes.push(requiredValue(`${at}.verbs`, "verbs must contain at least one value"));
  const urls = (rule.nonResourceURLs ?? []) as string[];
  if (urls.length) {
    const shown = `[]string{${urls.map((u) => JSON.stringify(u)).join(", ")}}`;
    if (namespaced) causes.push({ reason: "FieldValueInvalid", field: `${at}.nonResourceURLs`, message: `Invalid value: ${shown}: namespaced rules cannot apply to non-resource URLs` });
    if (rule.apiGroups?.length || rule.resources?.length || rule.resourceNames?.length) {
      causes.push({ reason: "FieldValueInvalid", field: `${at}.nonResourceURLs`, message: `Invalid value: ${shown}: rules cannot apply to both regular resources and non-resource URLs` });
    }
    return causes;
  }
  if (!rule.apiGroups?.length) causes.push(requiredValue(`${at}.apiGroups`, "resource rules must supply at least one api group"));
  if (!rule.resources?.length) causes.push(requiredValue(`${at}.resources`, "resource rules must supply at least one resource"));
  return causes;
}

function subjectCauses(s: Json, inRoleBinding: boolean, at: string): StatusCause[] {
  const causes: StatusCause[] = [];
  if (!s.name) causes.push(requiredValue(`${at}.name`));
  switch (s.kind) {
    case "ServiceAccount":
      if (s.name) for (const msg of dns1123SubdomainErrors(s.name)) causes.push(invalidValue(`${at}.name`, s.name, msg));
      if (s.apiGroup) causes.push(unsupportedValue(`${at}.apiGroup`, s.apiGroup, [""]));
      if (!inRoleBinding && !s.namespace) causes.push(requiredValue(`${at}.namespace`));
      break;
    case "User":
    case "Group":
      if (s.apiGroup !== RBAC_GROUP) causes.push(unsupportedValue(`${at}.apiGroup`, s.apiGroup ?? "", [RBAC_GROUP]));
      break;
    default:
      causes.push(unsupportedValue(`${at}.kind`, s.kind ?? "", ["ServiceAccount", "User", "Group"]));
  }
  return causes;
}

function isObject(v: unknown): v is Json {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function jsonKind(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v === "object" ? "object" : typeof v === "boolean" ? "bool" : typeof v;
}

/** Rejects what Go's decoder could not read into the RBAC structs (400, as kube-apiserver). */
function checkShapes(kind: string, o: Json): void {
  const fail = (value: unknown, field: string, goType: string) => {
    throw badRequest(`${kind} in version "v1" cannot be handled as a ${kind}: json: cannot unmarshal ${jsonKind(value)} into Go struct field ${field} of type ${goType}`);
  };
  const strings = (list: unknown, field: string) => {
    if (list === undefined || list === null) return;
    if (!Array.isArray(list)) return fail(list, field, "[]string");
    for (const v of list) if (typeof v !== "string") fail(v, field, "string");
  };
  const lists = isBinding(kind) ? ["subjects"] : ["rules"];
  for (const key of lists) {
    const list = o[key];
    if (list === undefined || list === null) continue;
    if (!Array.isArray(list)) fail(list, `${kind}.${key}`, key === "rules" ? "[]v1.PolicyRule" : "[]v1.Subject");
    for (const item of list) {
      if (!isObject(item)) fail(item, `${kind}.${key}`, key === "rules" ? "v1.PolicyRule" : "v1.Subject");
      if (key === "rules") for (const f of ["verbs", "apiGroups", "resources", "resourceNames", "nonResourceURLs"]) strings(item[f], `PolicyRule.rules.${f}`);
      else for (const f of ["kind", "apiGroup", "name", "namespace"]) if (item[f] !== undefined && typeof item[f] !== "string") fail(item[f], `Subject.subjects.${f}`, "string");
    }
  }
  if (isBinding(kind) && o.roleRef !== undefined) {
    if (!isObject(o.roleRef)) fail(o.roleRef, `${kind}.roleRef`, "v1.RoleRef");
    for (const f of ["apiGroup", "kind", "name"]) if (o.roleRef[f] !== undefined && typeof o.roleRef[f] !== "string") fail(o.roleRef[f], `RoleRef.roleRef.${f}`, "string");
  }
}
