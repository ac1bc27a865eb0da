/**
 * The OwnerReferencesPermissionEnforcement admission plugin (enabled on OpenShift and many
 * hardened clusters), for writes by users outside `system:masters` in authorization mode:
 *
 * - an update that changes `metadata.ownerReferences` needs `delete` on the object itself
 *   (creating an object with owner references needs nothing more than `create`);
 * - setting `blockOwnerDeletion: true` on a reference (a new reference, or one that was
 *   false or unset) needs `update` on the owner's `finalizers` subresource, by the owner's
 *   name, in the dependent's namespace when the owner is namespaced.
 *
 * `pods/status` writes are exempt, as in kube-apiserver.
 */
import type { Registry } from "../registry.ts";
import type { KubeObject, OwnerReference, ResourceType } from "../resource-type.ts";
import { sortedKeysJson } from "../json-value.ts";
import type { Authorizer } from "./authorizer.ts";
import { forbiddenError, resourceAttributes } from "./attributes.ts";
import type { UserInfo } from "./user-info.ts";

/** The write being admitted. */
export interface OwnerReferenceWrite {
  readonly type: ResourceType;
  readonly namespace: string;
  readonly subresource: string | undefined;
}

/**
 * Throws kube-apiserver's 403 when `user` may not set the owner references of `next`
 * (`old` is the stored object, undefined on create).
 *
 * @example
 * ```ts
 * import type { Registry } from "../registry.ts";
 * import type { KubeObject } from "../resource-type.ts";
 * import type { Authorizer } from "./authorizer.ts";
 * import type { UserInfo } from "./user-info.ts";
 *
 * declare const authorizer: Authorizer, registry: Registry, user: UserInfo, child: KubeObject;
 * const type = registry.byKind("v1", "ConfigMap")!;
 * checkOwnerReferences(authorizer, registry, user, { type, namespace: "default", subresource: undefined }, child, undefined);
 * // → throws 403: configmaps "child" is forbidden: cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set finalizers on: , <nil>
 * ```
 */
export function checkOwnerReferences(
  authorizer: Authorizer,
  registry: Registry,
  user: UserInfo,
  w: OwnerReferenceWrite,
  next: KubeObject,
  old: KubeObject | undefined,
): void {
  if (w.type.group === "" && w.type.plural === "pods" && w.subresource === "status") return;
  const refs = next.metadata?.ownerReferences ?? [];
  const oldRefs = old?.metadata?.ownerReferences ?? [];
  if (!changing(refs, oldRefs, old !== undefined)) return;
  const name = next.metadata?.name || next.metadata?.generateName || "Unknown";
  const forbid = (detail: string) => forbiddenError(w.type.group, w.type.plural, name, detail);
  if (old) {
    const attrs = resourceAttributes(user, {
      verb: "delete", namespace: w.namespace, apiGroup: w.type.group, resource: w.type.plural, subresource: w.subresource ?? "", name,
    });
    const decision = authorizer.authorize(attrs);
    if (!decision.allowed) throw forbid(`cannot set an ownerRef on a resource you can't delete: ${decision.reason}, <nil>`);
  }
  for (const ref of newBlockingRefs(refs, oldRefs)) {
    const ownerType = registry.byKind(ref.apiVersion, ref.kind);
    if (!ownerType) {
      throw forbid(`cannot set blockOwnerDeletion in this case because cannot find RESTMapping for APIVersion ${ref.apiVersion} Kind ${ref.kind}: no matches for kind ${JSON.stringify(ref.kind)} in version ${JSON.stringify(ref.apiVersion)}`);
    }
    const attrs = resourceAttributes(user, {
      verb: "update", apiGroup: ownerType.group, resource: ownerType.plural, subresource: "finalizers", name: ref.name,
      namespace: ownerType.namespaced ? w.namespace : "",
    });
    const decision = authorizer.authorize(attrs);
    if (!decision.allowed) {
      throw forbid(`cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set finalizers on: ${decision.reason}, <nil>`);
    }
  }
}

/** Whether the references change: any on create; on update, any difference, in order. */
function changing(refs: readonly OwnerReference[], oldRefs: readonly OwnerReference[], updating: boolean): boolean {
  if (!updating) return refs.length > 0;
  if (refs.length !== oldRefs.length) return true;
  return refs.some((r, i) => sortedKeysJson(r) !== sortedKeysJson(oldRefs[i]));
}

/** References that block their owner's deletion and did not before (new ones, or false/unset ones turned true; matched by UID). */
function newBlockingRefs(refs: readonly OwnerReference[], oldRefs: readonly OwnerReference[]): OwnerReference[] {
  const oldByUid = new Map(oldRefs.map((r) => [r.uid, r]));
  return refs.filter((r) => r.blockOwnerDeletion === true && oldByUid.get(r.uid)?.blockOwnerDeletion !== true);
}
