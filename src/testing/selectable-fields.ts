/**
 * Which fields each resource can be selected by, as kube-apiserver knows them, and the
 * per-resource predicate of a `?fieldSelector=` (parsed by the shared parser in `src/util/`).
 *
 * Bad syntax and unsupported fields throw a 400 {@link StatusError} worded like the apiserver's.
 *
 * @module
 */
import { parseFieldSelector } from "../util/field-selector.ts";
import { badRequest, selectorBadRequest } from "./status.ts";

/**
 * The resource a field selector is applied to, as {@link fieldSelectorFor} needs it.
 *
 * @example
 * ```ts
 * const pods: FieldSelectableResource = { group: "", plural: "pods", builtin: true };
 * ```
 */
export interface FieldSelectableResource {
  /** API group, `""` for core. */
  group: string;
  /** Lower-case plural, e.g. `pods`. */
  plural: string;
  /** False for custom resources (changes the unsupported-field message). */
  builtin: boolean;
}

/** Where a selectable field lives in the stored object. */
type FieldPaths = Readonly<Record<string, readonly string[]>>;

const pathsOf = (...fields: string[]): FieldPaths =>
  Object.fromEntries(fields.map((f) => [f, f.split(".")]));

const COMMON = pathsOf("metadata.name", "metadata.namespace");

const EVENT_FIELDS: FieldPaths = {
  ...COMMON,
  ...pathsOf(
    "involvedObject.kind",
    "involvedObject.namespace",
    "involvedObject.name",
    "involvedObject.uid",
    "involvedObject.apiVersion",
    "involvedObject.resourceVersion",
    "involvedObject.fieldPath",
    "reason",
    "reportingComponent",
    "type",
  ),
  // Stored events are core/v1-shaped for both API groups; `source` means the component.
  source: ["source", "component"],
};

/** Extra selectable fields by `group/plural` (core group = empty group). */
const FIELDS_BY_RESOURCE: Readonly<Record<string, FieldPaths>> = {
  "/pods": {
    ...COMMON,
    ...pathsOf(
      "spec.nodeName",
      "spec.restartPolicy",
      "spec.schedulerName",
      "spec.serviceAccountName",
      "status.phase",
      "status.podIP",
      "status.nominatedNodeName",
    ),
  },
  "/events": EVENT_FIELDS,
  "events.k8s.io/events": EVENT_FIELDS,
  "/secrets": { ...COMMON, ...pathsOf("type") },
  "/namespaces": { ...COMMON, ...pathsOf("status.phase") },
};

/** The value at `path` as the apiserver's field set would hold it; missing or non-scalar → `""`. */
function valueAt(obj: Record<string, unknown>, path: readonly string[]): string {
  let current: unknown = obj;
  for (const key of path) {
    if (typeof current !== "object" || current === null || Array.isArray(current)) return "";
    current = (current as Record<string, unknown>)[key];
  }
  return typeof current === "string" || typeof current === "number" || typeof current === "boolean"
    ? String(current)
    : "";
}

/**
 * The field names a resource can be selected by: `metadata.name` and `metadata.namespace` for
 * every resource, plus the extra fields of core pods, events (both groups), secrets and
 * namespaces.
 * @example
 * ```ts
 * selectableFields({ group: "", plural: "secrets", builtin: true }); // → ["metadata.name", "metadata.namespace", "type"]
 * ```
 */
export function selectableFields(resource: FieldSelectableResource): string[] {
  return Object.keys(FIELDS_BY_RESOURCE[`${resource.group}/${resource.plural}`] ?? COMMON);
}

/**
 * Parses `text` for `resource`, checks that every field is selectable there, and returns a
 * predicate over stored objects.
 *
 * Guarantees: fields are read from the stored (core/v1-shaped, for events) object; a missing
 * value compares as `""`, so `spec.nodeName=` selects unscheduled pods.
 *
 * Caveats: CRD `selectableFields` are not supported; custom resources allow only the metadata
 * fields.
 *
 * @throws StatusError 400 BadRequest for bad syntax, or an unsupported field:
 *   `"spec.x" is not a known field selector: only "metadata.name", "metadata.namespace"` for
 *   built-in resources, `field label not supported: spec.x` for custom resources.
 * @example
 * ```ts
 * const match = fieldSelectorFor({ group: "", plural: "pods", builtin: true }, "status.phase=Running");
 * match({ metadata: { name: "p" }, status: { phase: "Running" } }); // → true
 * ```
 */
export function fieldSelectorFor(
  resource: FieldSelectableResource,
  text: string,
): (obj: Record<string, unknown>) => boolean {
  const selector = selectorBadRequest(() => parseFieldSelector(text));
  if (selector.isEmpty) return () => true;
  const known = FIELDS_BY_RESOURCE[`${resource.group}/${resource.plural}`] ?? COMMON;
  for (const { field } of selector.requirements) {
    if (Object.hasOwn(known, field)) continue;
    throw badRequest(
      resource.builtin
        ? `${JSON.stringify(field)} is not a known field selector: only "metadata.name", "metadata.namespace"`
        : `field label not supported: ${field}`,
    );
  }
  const used = [...new Set(selector.requirements.map((r) => r.field))];
  return (obj) => selector.matches(Object.fromEntries(used.map((f) => [f, valueAt(obj, known[f]!)])));
}
