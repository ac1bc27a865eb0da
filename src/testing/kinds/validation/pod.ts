/** Pod validation: `validatePodMetadataAndSpec` (metadata maps are checked in metadata-validation.ts). */
import type { KubeObject } from "../../resource-type.ts";
import type { StatusCause } from "../../status.ts";
import { podSpecCauses } from "./pod-spec.ts";

/** Every cause of a Pod's spec. */
export function podCauses(o: KubeObject): StatusCause[] {
  return podSpecCauses(o.spec, "spec", { isPod: true });
}
