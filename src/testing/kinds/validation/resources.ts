/**
 * Container `resources` validation (`ValidateContainerResourceRequirements`): resource names,
 * non-negative (and for extended resources, integer) quantities, and each request at most its
 * limit — equal to it for resources that may not be overcommitted.
 */
import type { StatusCause } from "../../status.ts";
import { parseQuantity } from "../../../util/quantity.ts";
import { qualifiedNameErrors } from "../../metadata-validation.ts";
import { invalid, obj, required } from "./field.ts";
import type { Obj } from "./field.ts";

/** kube-apiserver's quantity syntax; a body breaking it is rejected while decoding. */
export const QUANTITY_PATTERN = "^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$";
const QUANTITY_RE = new RegExp(QUANTITY_PATTERN);

/** Whether `v` decodes as a `resource.Quantity` (a JSON number or a quantity string). */
export function isQuantity(v: unknown): boolean {
  if (typeof v === "number") return Number.isFinite(v);
  return typeof v === "string" && QUANTITY_RE.test(v) && parseQuantity(v) !== undefined;
}

/** A quantity as `Quantity.String()` prints it (the text as sent; numbers as JSON prints them). */
export function quantityText(v: unknown): string {
  return String(v);
}

const STANDARD_CONTAINER = new Set(["cpu", "memory", "ephemeral-storage"]);
const STANDARD = new Set([
  ...STANDARD_CONTAINER,
  "requests.cpu",
  "requests.memory",
  "requests.ephemeral-storage",
  "limits.cpu",
  "limits.memory",
  "limits.ephemeral-storage",
  "pods",
  "services",
  "replicationcontrollers",
  "resourcequotas",
  "secrets",
  "configmaps",
  "persistentvolumeclaims",
  "storage",
  "requests.storage",
  "services.nodeports",
  "services.loadbalancers",
]);

const isHugePages = (name: string): boolean => name.startsWith("hugepages-");
const isNative = (name: string): boolean => !name.includes("/") || name.includes("kubernetes.io/");
const overcommitAllowed = (name: string): boolean => isNative(name) && !isHugePages(name);

/** `validateContainerResourceName`. */
function resourceNameCauses(name: string, field: string): StatusCause[] {
  const causes = qualifiedNameErrors(name).map((m) => invalid(field, name, m));
  if (causes.length) return causes;
  if (!name.includes("/")) {
    if (!STANDARD.has(name) && !isHugePages(name) && !name.startsWith("requests.hugepages-")) {
      causes.push(invalid(field, name, "must be a standard resource type or fully qualified"));
    }
    if (!STANDARD_CONTAINER.has(name) && !isHugePages(name)) causes.push(invalid(field, name, "must be a standard resource for containers"));
  } else if (!isNative(name) && name.startsWith("requests.")) {
    causes.push(invalid(field, name, "doesn't follow extended resource name standard"));
  }
  return causes;
}

/** `ValidateResourceQuantityValue`: not negative, and whole for extended (integer) resources. */
function quantityValueCauses(name: string, q: unknown, field: string): StatusCause[] {
  const value = typeof q === "number" ? q : parseQuantity(String(q));
  if (value === undefined) return [];
  const causes: StatusCause[] = [];
  if (value < 0) causes.push(invalid(field, quantityText(q), "must be greater than or equal to 0"));
  if (!isNative(name) && Math.round(value * 1000) % 1000 !== 0) causes.push(invalid(field, quantityText(q), "must be an integer"));
  return causes;
}

/** Causes of a container's `resources` at `field` (e.g. `spec.containers[0].resources`). */
export function resourceRequirementCauses(resources: unknown, field: string): StatusCause[] {
  const r = obj(resources);
  if (!r) return [];
  const causes: StatusCause[] = [];
  const limits: Obj = obj(r.limits) ?? {};
  const requests: Obj = obj(r.requests) ?? {};
  let limitCpuOrMemory = false;
  let requestCpuOrMemory = false;
  let hugePages = false;
  for (const [name, q] of Object.entries(limits)) {
    const at = `${field}.limits[${name}]`;
    causes.push(...resourceNameCauses(name, at), ...quantityValueCauses(name, q, at));
    if (isHugePages(name)) hugePages = true;
    if (name === "cpu" || name === "memory") limitCpuOrMemory = true;
  }
  for (const [name, q] of Object.entries(requests)) {
    const at = `${field}.requests[${name}]`;
    causes.push(...resourceNameCauses(name, at), ...quantityValueCauses(name, q, at));
    if (Object.hasOwn(limits, name)) {
      const req = typeof q === "number" ? q : parseQuantity(String(q));
      const lim = typeof limits[name] === "number" ? (limits[name] as number) : parseQuantity(String(limits[name]));
      if (req !== undefined && lim !== undefined) {
        if (req !== lim && !overcommitAllowed(name)) {
          causes.push(invalid(`${field}.requests`, quantityText(q), `must be equal to ${name} limit of ${quantityText(limits[name])}`));
        } else if (req > lim) {
          causes.push(invalid(`${field}.requests`, quantityText(q), `must be less than or equal to ${name} limit of ${quantityText(limits[name])}`));
        }
      }
    } else if (!overcommitAllowed(name)) {
      causes.push(required(`${field}.limits`, "Limit must be set for non overcommitable resources"));
    }
    if (isHugePages(name)) hugePages = true;
    if (name === "cpu" || name === "memory") requestCpuOrMemory = true;
  }
  if (hugePages && !limitCpuOrMemory && !requestCpuOrMemory) {
    causes.push({ reason: "FieldValueForbidden", message: "Forbidden: HugePages require cpu or memory", field });
  }
  return causes;
}

/** Paths of every quantity under a resources object that does not decode (for the 400 kube sends). */
export function badQuantityPaths(resources: unknown): string[] {
  const r = obj(resources);
  if (!r) return [];
  const bad: string[] = [];
  for (const key of ["limits", "requests"]) {
    for (const [name, q] of Object.entries(obj(r[key]) ?? {})) if (!isQuantity(q)) bad.push(`${key}.${name}`);
  }
  return bad;
}
