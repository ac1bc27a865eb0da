/**
 * `status.storedVersions` of a CustomResourceDefinition, as apiextensions-apiserver keeps it:
 * the CRD strategy's PrepareForUpdate appends the storage version when it is not listed yet
 * (a storage version switch), and never removes one (a user does, through `/status`, once
 * the objects are migrated).
 *
 * @module
 */
import type { KubeObject } from "../resource-type.ts";

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The name of the version marked `storage: true` in `spec.versions`, if any. */
function storageVersionName(crd: KubeObject): string | undefined {
  const versions = isObject(crd.spec) ? crd.spec["versions"] : undefined;
  if (!Array.isArray(versions)) return undefined;
  const storage = versions.find((v) => isObject(v) && v["storage"] === true) as Record<string, unknown> | undefined;
  return typeof storage?.["name"] === "string" ? storage["name"] : undefined;
}

/**
 * Appends the CRD's storage version to `status.storedVersions` when it is not there yet, in
 * place (the update of a CRD's main resource, after its status was carried over from the
 * stored CRD). Returns whether it changed anything.
 *
 * @example
 * ```ts
 * import type { KubeObject } from "../resource-type.ts";
 *
 * const crd: KubeObject = {
 *   spec: { versions: [{ name: "v1alpha1", storage: false }, { name: "v1", storage: true }] },
 *   status: { storedVersions: ["v1alpha1"] },
 * };
 * recordStorageVersion(crd); // → true; status.storedVersions is ["v1alpha1", "v1"]
 * ```
 */
export function recordStorageVersion(crd: KubeObject): boolean {
  const storage = storageVersionName(crd);
  if (storage === undefined) return false;
  const status: Record<string, unknown> = isObject(crd.status) ? crd.status : (crd.status = {});
  const stored = Array.isArray(status["storedVersions"]) ? (status["storedVersions"] as unknown[]) : [];
  if (stored.includes(storage)) return false;
  status["storedVersions"] = [...stored, storage];
  return true;
}
