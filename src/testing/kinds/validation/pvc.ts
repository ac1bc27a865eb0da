/** PersistentVolumeClaim validation: `ValidatePersistentVolumeClaimSpec`, in kube-apiserver's order. */
import type { KubeObject } from "../../resource-type.ts";
import type { StatusCause } from "../../status.ts";
import { dns1123SubdomainErrors } from "../../names.ts";
import { parseQuantity } from "../../../util/quantity.ts";
import { forbidden, invalid, list, notSupported, obj, required, str } from "./field.ts";
import { quantityText } from "./resources.ts";
import { selectorExpressionCauses } from "./selector.ts";

const ACCESS_MODES = ["ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"];
const VOLUME_MODES = ["Block", "Filesystem"];

/** Causes of a claim spec at `field` (`spec`, or a StatefulSet's `volumeClaimTemplates[i].spec`). */
export function claimSpecCauses(spec: unknown, field: string): StatusCause[] {
  const s = obj(spec) ?? {};
  const causes: StatusCause[] = [];
  const modes = list(s.accessModes).map(str);
  if (modes.length === 0) causes.push(required(`${field}.accessModes`, "at least 1 access mode is required"));
  if (obj(s.selector)) causes.push(...selectorExpressionCauses(s.selector, `${field}.selector`));
  let rwop = false;
  let other = false;
  for (const mode of modes) {
    if (!ACCESS_MODES.includes(mode)) causes.push(notSupported(`${field}.accessModes`, mode, ACCESS_MODES));
    if (mode === "ReadWriteOncePod") rwop = true;
    else if (ACCESS_MODES.includes(mode)) other = true;
  }
  if (rwop && other) causes.push(forbidden(`${field}.accessModes`, "may not use ReadWriteOncePod with other access modes"));
  const requests = obj(obj(s.resources)?.requests) ?? {};
  const storageField = `${field}.resources[storage]`;
  if (!Object.hasOwn(requests, "storage")) causes.push(required(storageField));
  else {
    const q = requests.storage;
    const v = typeof q === "number" ? q : parseQuantity(String(q));
    if (v !== undefined && v <= 0) causes.push(invalid(storageField, quantityText(q), "must be greater than zero"));
  }
  const className = s.storageClassName;
  if (typeof className === "string" && className) {
    causes.push(...dns1123SubdomainErrors(className).map((m) => invalid(`${field}.storageClassName`, className, m)));
  }
  if (typeof s.volumeMode === "string" && !VOLUME_MODES.includes(s.volumeMode)) causes.push(notSupported(`${field}.volumeMode`, s.volumeMode, VOLUME_MODES));
  return causes;
}

/** Every cause of a PersistentVolumeClaim's spec. */
export function pvcCauses(o: KubeObject): StatusCause[] {
  return claimSpecCauses(o.spec, "spec");
}
