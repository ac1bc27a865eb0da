/**
 * The per-kind rules the Builder applies.
 *
 * One `KindRules` per managed kind; every other kind gets the custom-object rules
 * ({@link customObjectRules}).
 * Each `KindRules` validates a desired object before any API call (every problem names the
 * field, why it is wrong and how to fix it), lists the changes the API server would refuse
 * (immutable fields), and — for workloads — says whether a rollout is done and what it waits on.
 *
 * @example
 * ```ts
 * import { BuilderValidationErrors } from "operator-runtime";
 * import type { Deployment } from "operator-runtime";
 *
 * const desired: Deployment = {
 *   apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "web" },
 *   spec: { selector: { matchLabels: { app: "web" } }, template: { metadata: { labels: { app: "web" } }, spec: { containers: [{ name: "web", image: "nginx:1.27" }] } } },
 * };
 * const problems = deploymentRules.validate(desired);
 * if (problems.length > 0) throw new BuilderValidationErrors(problems);
 * ```
 * @module
 */
/** The per-kind rule contract, re-exported as documented in `./kind-rules.ts`. */
export type { KindRules, ReconcilePhase, RolloutStatus } from "./kind-rules.ts";
export { configMapRules } from "./configmap.ts";
export { secretRules } from "./secret.ts";
export { deploymentRules } from "./deployment.ts";
export { statefulSetRules } from "./statefulset.ts";
export { serviceRules } from "./service.ts";
export { storageRules } from "./storage.ts";
export { customObjectRules } from "./custom.ts";
export { parseQuantity } from "../src/util/quantity.ts";
export { checkJson } from "./json-check.ts";
export type { JsonCheck } from "./json-check.ts";
export { checkLabels, dns1123Label, dns1123Subdomain, labelKey, labelValue, problem } from "./validation.ts";
export type { Problems } from "./validation.ts";
