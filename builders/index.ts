/**
 * The per-kind rules the Builder applies, and a lookup by apiVersion and kind.
 *
 * One `KindBuilder` per managed kind; every other kind falls back to the custom-object rules.
 * Each `KindBuilder` validates a desired object before any API call (every problem names the
 * field, why it is wrong and how to fix it), lists the changes the API server would refuse
 * (immutable fields), and — for workloads — says whether a rollout is done and what it waits on.
 *
 * @example
 * ```ts
 * import { kindBuilderFor } from "./builders/index.ts";
 * import { BuilderValidationErrors } from "./src/errors.ts";
 * const rules = kindBuilderFor(desired.apiVersion!, desired.kind!);
 * const problems = rules.validate(desired);
 * if (problems.length > 0) throw new BuilderValidationErrors(problems);
 * ```
 * @module
 */
import type { KindBuilder } from "./kind-builder.ts";
import { configMapBuilder } from "./configmap.ts";
import { customObject } from "./custom.ts";
import { deploymentBuilder } from "./deployment.ts";
import { secretBuilder } from "./secret.ts";
import { serviceBuilder } from "./service.ts";
import { statefulSetBuilder } from "./statefulset.ts";
import { storageBuilder } from "./storage.ts";

/** The per-kind rule contract, re-exported as documented in `./kind-builder.ts`. */
export type { KindBuilder, ReconcilePhase, RolloutStatus } from "./kind-builder.ts";
export { configMapBuilder } from "./configmap.ts";
export { secretBuilder } from "./secret.ts";
export { deploymentBuilder } from "./deployment.ts";
export { statefulSetBuilder } from "./statefulset.ts";
export { serviceBuilder } from "./service.ts";
export { storageBuilder } from "./storage.ts";
export { customObject } from "./custom.ts";
export { parseQuantity } from "./quantity.ts";
export { dns1123Label, dns1123Subdomain, labelKey, labelValue, problem } from "./validation.ts";

/**
 * The built-in kinds with their own rules, in reconcile-phase order.
 *
 * @example
 * ```ts
 * builtinKindBuilders.map((b) => b.kind); // ["ConfigMap", "Secret", "PersistentVolumeClaim", ...]
 * ```
 */
export const builtinKindBuilders: readonly KindBuilder[] = [
  configMapBuilder,
  secretBuilder,
  storageBuilder,
  deploymentBuilder,
  statefulSetBuilder,
  serviceBuilder,
];

const byKind = new Map(builtinKindBuilders.map((b) => [`${b.apiVersion}/${b.kind}`, b]));

/**
 * The rules for a kind: the built-in builder for ConfigMap, Secret, PersistentVolumeClaim,
 * Deployment, StatefulSet and Service (matched by exact `apiVersion` and `kind`), else
 * {@link customObject} for that apiVersion and kind.
 *
 * @example
 * ```ts
 * kindBuilderFor("v1", "ConfigMap").phase;                  // "config"
 * kindBuilderFor("example.com/v1", "Greeting").phase;       // "custom"
 * ```
 */
export function kindBuilderFor(apiVersion: string, kind: string): KindBuilder {
  return byKind.get(`${apiVersion}/${kind}`) ?? customObject(apiVersion, kind);
}
