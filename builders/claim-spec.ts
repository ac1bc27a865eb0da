/**
 * Checks PersistentVolumeClaim specs, shared by PVCs and StatefulSet volume claim templates.
 */
import { at, isRecord, jsonType } from "./json.ts";
import { parseQuantity } from "../src/util/quantity.ts";
import type { Problems } from "./validation.ts";

/**
 * The access modes a PersistentVolumeClaim may request.
 *
 * @example
 * ```ts
 * ACCESS_MODES.includes("ReadWriteOnce"); // true
 * ```
 */
export const ACCESS_MODES: readonly string[] = ["ReadWriteOnce", "ReadOnlyMany", "ReadWriteMany", "ReadWriteOncePod"];

const VOLUME_MODES = ["Filesystem", "Block"];

/**
 * Checks a claim spec at `field`: non-empty, known `accessModes`; `resources.requests.storage`
 * present, a quantity, and above zero; `volumeMode` Filesystem or Block; `storageClassName` a string.
 *
 * @example
 * ```ts
 * import type { PersistentVolumeClaim, StatefulSet } from "operator-runtime";
 * import { problemsFor } from "./validation.ts";
 *
 * declare const pvc: PersistentVolumeClaim;
 * checkClaimSpec(problemsFor(pvc, "PersistentVolumeClaim"), "spec", pvc.spec);
 * declare const sts: StatefulSet;
 * const p = problemsFor(sts, "StatefulSet");
 * sts.spec?.volumeClaimTemplates?.forEach((template, i) => checkClaimSpec(p, `spec.volumeClaimTemplates[${i}].spec`, template.spec));
 * ```
 */
export function checkClaimSpec(p: Problems, field: string, spec: unknown): void {
  if (!isRecord(spec)) {
    p.add(field, spec === undefined ? "is required" : `is ${jsonType(spec)}`, `set ${field}.accessModes and ${field}.resources.requests.storage`);
    return;
  }
  const modes = spec.accessModes;
  if (!Array.isArray(modes) || modes.length === 0) {
    const why = modes === undefined ? "is required" : Array.isArray(modes) ? "is empty" : `is ${jsonType(modes)}`;
    p.add(`${field}.accessModes`, why, 'set accessModes, e.g. ["ReadWriteOnce"]');
  } else {
    modes.forEach((mode, i) => {
      if (ACCESS_MODES.includes(mode as string)) return;
      p.add(`${field}.accessModes[${i}]`, `${JSON.stringify(mode)} is not an access mode`, `use one of ${ACCESS_MODES.join(", ")}`);
    });
  }
  const storage = at(spec, "resources", "requests", "storage");
  const storageField = `${field}.resources.requests.storage`;
  if (storage === undefined) {
    p.add(storageField, "is required", 'set the size to request, e.g. "10Gi"');
  } else {
    const bytes = typeof storage === "string" || typeof storage === "number" ? parseQuantity(storage) : undefined;
    if (bytes === undefined) {
      p.add(storageField, `${JSON.stringify(storage)} is not a quantity`, 'write a size such as "10Gi", "500Mi" or "1T"');
    } else if (bytes <= 0) {
      p.add(storageField, `${JSON.stringify(storage)} is not above zero`, 'request a positive size such as "1Gi"');
    }
  }
  if (spec.volumeMode !== undefined && !VOLUME_MODES.includes(spec.volumeMode as string)) {
    p.add(`${field}.volumeMode`, `${JSON.stringify(spec.volumeMode)} is not a volume mode`, "use Filesystem or Block, or omit it for Filesystem");
  }
  if (spec.storageClassName !== undefined && typeof spec.storageClassName !== "string") {
    p.add(`${field}.storageClassName`, `is ${jsonType(spec.storageClassName)}`, "set storageClassName to the class name, or omit it for the default class");
  }
}

/**
 * The storage request of a claim spec in bytes, or undefined when absent or not a quantity.
 *
 * @example
 * ```ts
 * storageRequest({ resources: { requests: { storage: "1Gi" } } }); // 1073741824
 * ```
 */
export function storageRequest(spec: unknown): number | undefined {
  const storage = at(spec, "resources", "requests", "storage");
  return typeof storage === "string" || typeof storage === "number" ? parseQuantity(storage) : undefined;
}
