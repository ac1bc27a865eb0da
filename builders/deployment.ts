/**
 * Builder rules for Deployments: valid pod template and selector, and when a rollout is done.
 */
import type { KubeObject } from "../src/client/types.ts";
import type { BuilderValidationError } from "../src/errors.ts";
import type { KindRules, RolloutStatus } from "./kind-rules.ts";
import { at, isRecord } from "./json.ts";
import { checkWorkloadSpec } from "./pod-template.ts";
import { selectorChanged } from "./selector.ts";
import { generationLag, specReplicas, statusCount } from "./rollout.ts";
import { checkKind, checkMetadata, problemsFor } from "./validation.ts";
import { nameRuleOf } from "../src/util/name-rules.ts";

const STRATEGIES = ["RollingUpdate", "Recreate"];

/** The rule kube-apiserver applies to the name (see `nameRuleOf`). */
const NAME_RULE = nameRuleOf("apps", "Deployment");

/**
 * Rules for `apps/v1` Deployments, reconciled in the `workload` phase.
 *
 * Validation: `metadata.name` a DNS-1123 subdomain; `spec.selector` present (matchLabels or
 * matchExpressions) and satisfied by `spec.template.metadata.labels`; at least one container,
 * each with a unique DNS-1123 label name and an image; container ports 1–65535 with valid,
 * unique names; volume mounts naming pod volumes; `spec.replicas` a non-negative integer;
 * `spec.strategy.type` RollingUpdate or Recreate.
 *
 * Immutable changes: `spec.selector`.
 *
 * Rollout ({@link RolloutStatus}): done only when all hold, checked in this order —
 * `status.observedGeneration >= metadata.generation` (so counts of an older spec never count);
 * no `Progressing` condition with reason `ProgressDeadlineExceeded` (reported with its message);
 * `updatedReplicas`, then `status.replicas` (no old pods left), then `readyReplicas` and
 * `availableReplicas` equal `spec.replicas` (default 1). A paused Deployment is done once its
 * spec is observed, with `waitingOn: "paused"` as a note (it will not progress until resumed).
 *
 * @example
 * ```ts
 * import type { Deployment } from "operator-runtime";
 *
 * declare const liveDeployment: Deployment;
 * const status = deploymentRules.rolloutStatus!(liveDeployment);
 * if (!status.done) console.log(`web waits on ${status.waitingOn}`); // e.g. "2/3 replicas ready"
 * ```
 */
export const deploymentRules: KindRules = {
  apiVersion: "apps/v1",
  kind: "Deployment",
  phase: "workload",
  validate(obj: KubeObject): BuilderValidationError[] {
    const p = problemsFor(obj, "Deployment");
    checkKind(p, obj, "apps/v1", "Deployment");
    checkMetadata(p, obj, NAME_RULE);
    checkWorkloadSpec(p, obj);
    const type = at(obj, "spec", "strategy", "type");
    if (type !== undefined && !STRATEGIES.includes(type as string)) {
      p.add("spec.strategy.type", `${JSON.stringify(type)} is not a Deployment strategy`, `use ${STRATEGIES.join(" or ")}, or omit it for RollingUpdate`);
    }
    return p.list;
  },
  immutableChanges(live: KubeObject, desired: KubeObject): string[] {
    return selectorChanged(live, desired) ? ["spec.selector"] : [];
  },
  rolloutStatus(live: KubeObject): RolloutStatus {
    return deploymentRollout(live);
  },
};

function deploymentRollout(live: KubeObject): RolloutStatus {
  const lag = generationLag(live);
  if (lag) return { done: false, waitingOn: lag };
  if (at(live, "spec", "paused") === true) return { done: true, waitingOn: "paused" };
  const conditions = at(live, "status", "conditions");
  const stalled = (Array.isArray(conditions) ? conditions : []).find(
    (c) => isRecord(c) && c.type === "Progressing" && c.reason === "ProgressDeadlineExceeded",
  );
  if (isRecord(stalled)) {
    const message = typeof stalled.message === "string" && stalled.message ? `: ${stalled.message}` : "";
    return { done: false, waitingOn: `progress deadline exceeded${message}` };
  }
  const want = specReplicas(live);
  const updated = statusCount(live, "updatedReplicas");
  if (updated < want) return { done: false, waitingOn: `${updated}/${want} replicas updated` };
  const exist = statusCount(live, "replicas");
  if (exist > want) return { done: false, waitingOn: `${exist} replicas exist, want ${want} (old pods terminating)` };
  const ready = statusCount(live, "readyReplicas");
  if (ready !== want) return { done: false, waitingOn: `${ready}/${want} replicas ready` };
  const available = statusCount(live, "availableReplicas");
  if (available !== want) return { done: false, waitingOn: `${available}/${want} replicas available` };
  return { done: true };
}
