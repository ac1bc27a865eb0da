/**
 * Where a Builder's children may live: an owner reference cannot cross namespaces, and a
 * namespaced owner cannot own a cluster-scoped object.
 *
 * Kubernetes' garbage collector looks a namespaced dependent's owner up in the dependent's own
 * namespace: an owner elsewhere counts as absent, and the child is deleted right after it is
 * written — and re-created by the next pass, forever. It treats a namespaced owner of a
 * cluster-scoped dependent as an invalid reference: the child is never collected with its owner
 * (a leak). These rules catch both as misuse, before anything is written.
 */
import type { KubeObject } from "../client/types.ts";
import { BuilderValidationError } from "../errors.ts";
import { dns1123Label, problem } from "../../builders/index.ts";

/** The kinds whose scope the Builder knows without discovery: all namespaced. */
const NAMESPACED_BUILTINS: ReadonlySet<string> = new Set([
  "v1/ConfigMap", "v1/Secret", "v1/Service", "v1/PersistentVolumeClaim", "apps/v1/Deployment", "apps/v1/StatefulSet",
]);

/** Whether `obj`'s kind is namespaced when the Builder knows without asking the API; else undefined. */
export function knownScope(obj: KubeObject): boolean | undefined {
  return NAMESPACED_BUILTINS.has(`${obj.apiVersion}/${obj.kind}`) ? true : undefined;
}

const OTHER_NAMESPACES_FIX =
  "for objects in other namespaces use a cluster-scoped owner, or write them with client.apply(), which adds no owner reference";

/** `DataApp default/demo` for messages. */
function ownerName(owner: KubeObject): string {
  const m = owner.metadata ?? {};
  return `${owner.kind} ${m.namespace ? `${m.namespace}/` : ""}${m.name}`;
}

/**
 * Problems of the Builder's `namespace` option: it must be a DNS-1123 label and, with a
 * namespaced owner, the owner's namespace (the option is for cluster-scoped owners).
 */
export function namespaceOptionProblems(owner: KubeObject, namespace: unknown): BuilderValidationError[] {
  if (namespace === undefined) return [];
  const why = typeof namespace === "string" ? dns1123Label(namespace) : `is ${JSON.stringify(namespace)}, not a string`;
  if (why) return [new BuilderValidationError("Builder", "namespace", typeof namespace === "string" ? `${JSON.stringify(namespace)} is not a valid namespace: it ${why}` : why, 'set namespace to a DNS-1123 label such as "default", or leave it out')];
  const ownerNamespace = owner.metadata?.namespace;
  if (!ownerNamespace || namespace === ownerNamespace) return [];
  return [new BuilderValidationError("Builder", "namespace",
    `is ${JSON.stringify(namespace)}, but the owner ${ownerName(owner)} is in namespace ${JSON.stringify(ownerNamespace)}: an owner reference cannot cross namespaces, so Kubernetes' garbage collector would delete every child right after it is written`,
    `leave the namespace option out (it defaults to the owner's namespace; it is for cluster-scoped owners); ${OTHER_NAMESPACES_FIX}`)];
}

/**
 * Problems of where one child would live, given whether its kind is `namespaced`:
 *
 * - a namespaced owner owns only namespaced children in its own namespace: a cluster-scoped
 *   kind is refused on `kind`, another `metadata.namespace` on that field;
 * - a cluster-scoped owner may own namespaced children in any namespace and cluster-scoped
 *   ones, but a namespaced child needs a namespace (its own or the Builder's `namespace`).
 */
export function placementProblems(owner: KubeObject, child: KubeObject, namespaced: boolean, namespaceOption: string | undefined): BuilderValidationError[] {
  const ownerNamespace = owner.metadata?.namespace;
  const childNamespace = child.metadata?.namespace;
  if (ownerNamespace) {
    if (!namespaced) {
      return [problem(child, "kind",
        `${child.kind} is cluster-scoped, but the owner ${ownerName(owner)} is namespaced: Kubernetes' garbage collector ignores such a reference (OwnerRefInvalidNamespace), so the object would never be collected with its owner`,
        `add ${child.kind} objects with a Builder whose owner is cluster-scoped, or write them with client.apply(), which adds no owner reference (delete them yourself, e.g. in the owner's finalizer)`)];
    }
    if (childNamespace !== undefined && childNamespace !== ownerNamespace) {
      return [problem(child, "metadata.namespace",
        `is ${JSON.stringify(childNamespace)}, but the owner ${ownerName(owner)} is in namespace ${JSON.stringify(ownerNamespace)}: an owner reference cannot cross namespaces, so Kubernetes' garbage collector would delete the object right after it is written`,
        `leave metadata.namespace out or set it to ${JSON.stringify(ownerNamespace)} (the children of a namespaced owner live in its namespace); ${OTHER_NAMESPACES_FIX}`)];
    }
    return [];
  }
  if (namespaced && !childNamespace && !namespaceOption) {
    return [problem(child, "metadata.namespace",
      `is required: ${child.kind} is namespaced and the owner ${ownerName(owner)} is cluster-scoped, so there is no namespace to default to`,
      "set metadata.namespace, or the Builder's namespace option for every object that sets none")];
  }
  return [];
}
