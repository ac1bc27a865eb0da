/**
 * The message fields that are embedded Go structs tagged `json:",inline"`: protobuf nests them
 * under a field of their own, JSON spreads their fields into the parent (`Probe.httpGet`, not
 * `Probe.handler.httpGet`). The `.proto` files do not mark them, so they are listed here, as
 * `<message full name>.<field>`, for the vendored groups.
 */
const CORE = "k8s.io.api.core.v1";
const RESOURCE = "k8s.io.api.resource.v1";

export const INLINE_FIELDS: readonly string[] = [
  `${CORE}.Probe.handler`,
  `${CORE}.Volume.volumeSource`,
  `${CORE}.PersistentVolumeSpec.persistentVolumeSource`,
  `${CORE}.EphemeralContainer.ephemeralContainerCommon`,
  `${CORE}.ConfigMapEnvSource.localObjectReference`,
  `${CORE}.ConfigMapKeySelector.localObjectReference`,
  `${CORE}.ConfigMapProjection.localObjectReference`,
  `${CORE}.ConfigMapVolumeSource.localObjectReference`,
  `${CORE}.SecretEnvSource.localObjectReference`,
  `${CORE}.SecretKeySelector.localObjectReference`,
  `${CORE}.SecretProjection.localObjectReference`,
  "k8s.io.api.networking.v1.IngressRule.ingressRuleValue",
  `${RESOURCE}.DeviceAllocationConfiguration.deviceConfiguration`,
  `${RESOURCE}.DeviceClaimConfiguration.deviceConfiguration`,
  `${RESOURCE}.DeviceClassConfiguration.deviceConfiguration`,
];

const INLINE = new Set(INLINE_FIELDS);

/** Whether `field` of `message` (full name, no leading dot) is spread into its parent in JSON. */
export function isInline(message: string, field: string): boolean {
  return INLINE.has(`${message}.${field}`);
}
