/**
 * The Streams example operator (after the IBM Streams instance operator): a Job's application is fused into
 * processing elements, and each PE runs as one pod plus its ConfigMap, relaunched by the PE's
 * restart policy with every launch counted in `status.launchCount`.
 *
 * Everything it must remember across a crash lives in the cluster (the Streams design notes' rule: "whatever
 * we want to remember across failures must be stored in a CRD"): PEs are computed again from the
 * Job, and the launch count is written before the pod of that launch exists.
 */
import type { Manager } from "../../src/index.ts";
import type { ExampleOperator } from "../example.ts";
import { loadYamlFolder } from "../example.ts";
import { registerJobController } from "./job-controller.ts";
import { registerPeController } from "./pe-controller.ts";

export { computeProcessingElements, restrictiveness } from "./fusion.ts";
export type { FusionResult, PlannedPe } from "./fusion.ts";
export { decideLaunch } from "./launch.ts";
export type { LaunchStep, RelaunchReason } from "./launch.ts";
export * from "./kinds.ts";

/** The streams example: `npm run example -- streams`. */
export const operator: ExampleOperator = {
  name: "streams",
  description: "Streams jobs → processing elements → one pod and ConfigMap per PE, relaunched by the PE's restart policy",
  crds: loadYamlFolder(new URL("./crds/", import.meta.url)),
  samples: loadYamlFolder(new URL("./samples/", import.meta.url)),
  register(mgr: Manager): void {
    registerJobController(mgr);
    registerPeController(mgr);
  },
};
