/**
 * The per-kind rules the Builder applies.
 *
 * One `KindBuilder` per managed kind; every other kind gets the custom-object rules
 * ({@link customObject}).
 * Each `KindBuilder` validates a desired object before any API call (every problem names the
 * field, why it is wrong and how to fix it), lists the changes the API server would refuse
 * (immutable fields), and — for workloads — says whether a rollout is done and what it waits on.
 *
 * @example
 * ```ts
 * import { deploymentBuilder } from "./builders/index.ts";
 * import { BuilderValidationErrors } from "./src/errors.ts";
 * const problems = deploymentBuilder.validate(desired);
 * if (problems.length > 0) throw new BuilderValidationErrors(problems);
 * ```
 * @module
 */
/** The per-kind rule contract, re-exported as documented in `./kind-builder.ts`. */
export type { KindBuilder, ReconcilePhase, RolloutStatus } from "./kind-builder.ts";
export { configMapBuilder } from "./configmap.ts";
export { secretBuilder } from "./secret.ts";
export { deploymentBuilder } from "./deployment.ts";
export { statefulSetBuilder } from "./statefulset.ts";
export { serviceBuilder } from "./service.ts";
export { storageBuilder } from "./storage.ts";
export { customObject } from "./custom.ts";
export { parseQuantity } from "../src/util/quantity.ts";
export { checkJson } from "./json-check.ts";
export type { JsonCheck } from "./json-check.ts";
export { checkLabels, dns1123Label, dns1123Subdomain, labelKey, labelValue, problem } from "./validation.ts";
export type { Problems } from "./validation.ts";
