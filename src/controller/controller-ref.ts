/**
 * Controller references: the one `ownerReferences` entry with `controller: true` that says which
 * object manages another (and makes garbage collection delete it with its owner).
 *
 * Semantics follow controller-runtime's `SetControllerReference`: an object has at most one
 * controller; setting it again for the same owner is a no-op (the entry is refreshed); another
 * controller is never replaced; an owner reference cannot cross namespaces, and a namespaced
 * owner cannot control a cluster-scoped object. One deliberate divergence: controller-runtime
 * decides whether the existing controller is "the same owner" by group, kind and name; we
 * decide by uid. So an owner deleted and re-created under the same name (a new uid) does not
 * take over the old incarnation's objects — controller-runtime would rewrite the reference to
 * the new uid; we throw `AlreadyOwnedError`, and the garbage collector deletes those objects
 * with their old owner.
 */
import type { KubeObject, OwnerReference } from "../kinds/kube-object.ts";
import type { ModelObject } from "../kinds/model-object.ts";
import { OperatorRuntimeError } from "../errors.ts";
import { checkObject, checkOwner } from "../util/check-args.ts";

const OWNER = "a Kubernetes object (with apiVersion, kind, metadata.name and metadata.uid)";
const OWNER_HINT = "Pass the owner object as read from the API server, not its name or UID";

/**
 * {@link setControllerReference} refused: the object already has another controller. Taking it
 * over would make two controllers fight over it (and let garbage collection delete it with the
 * wrong owner).
 *
 * @example
 * ```ts
 * import type { KubeObject, Pod } from "operator-runtime";
 *
 * declare const podSet: KubeObject; // the owner, as read from the API server
 * declare const pod: Pod;
 * try {
 *   setControllerReference(podSet, pod);
 * } catch (err) {
 *   if (err instanceof AlreadyOwnedError) console.warn(`${err.object} belongs to ${err.controller.kind} ${err.controller.name}`);
 * }
 * ```
 */
export class AlreadyOwnedError extends OperatorRuntimeError {
  /** `Kind/namespace/name` of the object. */
  readonly object: string;
  /** Its current controller reference. */
  readonly controller: OwnerReference;

  constructor(object: string, controller: OwnerReference, owner: string) {
    super(`${object} is already controlled by ${controller.kind} ${controller.name} (uid ${controller.uid}); ${owner} cannot become its controller. Fix: leave it to its controller, or remove that controller reference first`);
    this.name = "AlreadyOwnedError";
    this.object = object;
    this.controller = controller;
  }
}

/**
 * The controller reference to `owner`: `apiVersion`, `kind`, `name`, `uid`, with `controller`
 * and `blockOwnerDeletion` true (foreground deletion of the owner waits for the object).
 *
 * Errors: `TypeError` when `owner` is not an object (a name or UID string, say);
 * {@link OperatorRuntimeError} when the owner lacks apiVersion, kind, name or uid (pass
 * it as read from the API server, not as written in a manifest).
 *
 * @example
 * ```ts
 * import type { KubeObject, Pod } from "operator-runtime";
 *
 * declare const podSet: KubeObject; // the owner, as read from the API server
 * const pod: Pod = {
 *   apiVersion: "v1", kind: "Pod",
 *   metadata: { generateName: "web-", namespace: podSet.metadata?.namespace, ownerReferences: [controllerRef(podSet)] },
 *   spec: { containers: [{ name: "web", image: "nginx:1.27" }] },
 * };
 * ```
 */
export function controllerRef(owner: ModelObject): OwnerReference {
  checkObject("controllerRef(owner)", "owner", owner, OWNER, OWNER_HINT);
  const m = owner.metadata ?? {};
  const missing = [!owner.apiVersion && "apiVersion", !owner.kind && "kind", !m.name && "metadata.name", !m.uid && "metadata.uid"].filter(Boolean);
  if (missing.length) {
    throw new OperatorRuntimeError(`controllerRef: the owner has no ${missing.join(", ")}. Fix: pass the owner as read from the API server (it carries apiVersion, kind, name and uid)`);
  }
  return { apiVersion: owner.apiVersion!, kind: owner.kind!, name: m.name!, uid: m.uid!, controller: true, blockOwnerDeletion: true };
}

/**
 * The object's controller reference (the `ownerReferences` entry with `controller: true`), or
 * undefined.
 *
 * @example
 * ```ts
 * import type { Pod } from "operator-runtime";
 * import type { WorkQueue } from "operator-runtime/controller";
 *
 * declare const pod: Pod;
 * declare const queue: WorkQueue;
 * const ref = controllerOf(pod);
 * if (ref?.kind === "PodSet") queue.add(`${pod.metadata?.namespace}/${ref.name}`);
 * ```
 */
export function controllerOf(obj: ModelObject): OwnerReference | undefined {
  checkObject("controllerOf(obj)", "obj", obj, "a Kubernetes object");
  const ref = (obj.metadata?.ownerReferences ?? []).find((r) => r.controller === true);
  return ref ? { ...ref } : undefined;
}

/**
 * Makes `owner` the controller of `obj`, in place, and returns `obj`: adds
 * {@link controllerRef}(owner) to `metadata.ownerReferences`, replacing an entry for the same
 * owner (same uid, or same group, kind and name) and keeping every other (non-controller) reference.
 *
 * Errors: `TypeError` when `owner` or `obj` is not an object; {@link AlreadyOwnedError} when another owner (another uid) is its controller — even
 * one with the same group, kind and name, which controller-runtime would treat as the same
 * owner (a deleted and re-created owner; see the module doc);
 * {@link OperatorRuntimeError} when the owner lacks identity fields, or is namespaced while
 * `obj` is in another namespace or in none (an owner reference cannot cross namespaces, and
 * Kubernetes' garbage collector would delete the object at once). Set `obj`'s namespace first.
 *
 * @example
 * ```ts
 * import type { KubeObject, Pod } from "operator-runtime";
 *
 * declare const podSet: KubeObject; // the owner, in namespace "default", as read from the API server
 * const pod: Pod = {
 *   apiVersion: "v1", kind: "Pod", metadata: { generateName: "web-", namespace: "default" },
 *   spec: { containers: [{ name: "web", image: "nginx:1.27" }] },
 * };
 * await client.create(setControllerReference(podSet, pod));
 * ```
 */
export function setControllerReference<T extends KubeObject>(owner: ModelObject, obj: T): T {
  checkObject("setControllerReference(owner, obj)", "owner", owner, OWNER, OWNER_HINT);
  checkObject("setControllerReference(owner, obj)", "obj", obj, "a Kubernetes object");
  const ref = controllerRef(owner);
  const meta = (obj.metadata ??= {});
  const objName = `${obj.kind ?? "object"}/${meta.namespace ? `${meta.namespace}/` : ""}${meta.name ?? meta.generateName ?? ""}`;
  const ownerName = `${ref.kind} ${owner.metadata?.namespace ? `${owner.metadata.namespace}/` : ""}${ref.name}`;
  const ownerNamespace = owner.metadata?.namespace;
  if (ownerNamespace && meta.namespace !== ownerNamespace) {
    throw new OperatorRuntimeError(meta.namespace
      ? `setControllerReference: ${objName} is in namespace ${JSON.stringify(meta.namespace)} but its owner ${ownerName} is in ${JSON.stringify(ownerNamespace)}: an owner reference cannot cross namespaces. Fix: put the object in the owner's namespace`
      : `setControllerReference: ${objName} has no namespace but its owner ${ownerName} is namespaced: a cluster-scoped object cannot have a namespaced owner. Fix: set metadata.namespace to ${JSON.stringify(ownerNamespace)} first`);
  }
  const current = controllerOf(obj);
  if (current && current.uid !== ref.uid) throw new AlreadyOwnedError(objName, current, ownerName);
  const group = (apiVersion: string) => (apiVersion.includes("/") ? apiVersion.slice(0, apiVersion.indexOf("/")) : "");
  const same = (r: OwnerReference) => r.uid === ref.uid || (group(r.apiVersion) === group(ref.apiVersion) && r.kind === ref.kind && r.name === ref.name);
  const refs = meta.ownerReferences ?? [];
  const at = refs.findIndex(same);
  meta.ownerReferences = at >= 0 ? refs.map((r, i) => (i === at ? ref : r)) : [...refs, ref];
  return obj;
}

/**
 * Whether `owner` is `obj`'s controller: `obj` has a controller ownerReference carrying the
 * owner's UID. Takes the owner object as read (only its `metadata.uid` is compared; plain JSON
 * and client-node model objects alike).
 *
 * Errors: a TypeError naming the parameter when `obj` is not an object or `owner` is not an
 * object with `metadata.uid` (a UID string, the signature before 0.1; an owner not yet created).
 *
 * @example
 * ```ts
 * import { ConfigMap } from "operator-runtime";
 *
 * const inNamespace = await cache.list(ConfigMap, { namespace: owner.metadata!.namespace });
 * const mine = inNamespace.filter((cm) => isControlledBy(cm, owner));
 * ```
 */
export function isControlledBy(obj: ModelObject, owner: ModelObject): boolean {
  checkObject("isControlledBy(obj, owner)", "obj", obj, "a Kubernetes object");
  checkOwner("isControlledBy(obj, owner)", "owner", owner, "Since 0.1, pass the owner object, not its UID");
  const uid = owner.metadata!.uid!;
  return (obj.metadata?.ownerReferences ?? []).some((r) => r.controller === true && r.uid === uid);
}
