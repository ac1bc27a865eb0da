/**
 * Builder rules for StatefulSets: claim templates, and a rollout that never blocks on OnDelete or partitions.
 */
import type { KubeObject } from "../src/client/types.ts";
import type { BuilderValidationError } from "../src/errors.ts";
import type { KindRules, RolloutStatus } from "./kind-rules.ts";
import { checkClaimSpec, storageRequest } from "./claim-spec.ts";
import { at, isNonNegativeInteger, isRecord, jsonType, sameJson } from "./json.ts";
import { checkWorkloadSpec } from "./pod-template.ts";
import { selectorChanged } from "./selector.ts";
import { generationLag, specReplicas, statusCount } from "./rollout.ts";
import type { Problems } from "./validation.ts";
import { checkDnsName, checkKind, checkMetadata, problemsFor } from "./validation.ts";
import { nameRuleOf } from "../src/util/name-rules.ts";

const POLICIES = ["OrderedReady", "Parallel"];
const STRATEGIES = ["RollingUpdate", "OnDelete"];

/** The rule kube-apiserver applies to the name (see `nameRuleOf`). */
const NAME_RULE = nameRuleOf("apps", "StatefulSet");

/**
 * Rules for `apps/v1` StatefulSets, reconciled in the `workload` phase.
 *
 * Validation: `metadata.name` a DNS-1123 label (no dots, at most 63 characters: kube-apiserver
 * requires it, as the Pods' hostnames are made from it); everything {@link deploymentRules}
 * checks of the selector and pod template, plus: `spec.serviceName` (recommended for stable pod DNS names, not required) a DNS-1123
 * label when set; each `spec.volumeClaimTemplates` entry with a unique DNS-1123 label name,
 * access modes and `resources.requests.storage`; no pod volume named like a claim template;
 * `podManagementPolicy` OrderedReady or Parallel; `updateStrategy.type` RollingUpdate or
 * OnDelete with a non-negative `rollingUpdate.partition`.
 *
 * Immutable changes: `spec.selector`; `spec.serviceName` and `spec.podManagementPolicy`
 * (omitted counts as `""` and `OrderedReady`, the server's defaults); `spec.volumeClaimTemplates`
 * when templates were added, removed or reordered, or a template's name, accessModes, storage
 * request (compared as a quantity), storageClassName or selector differs. Fields the desired
 * template omits are not compared, so server defaults (`volumeMode`, `status`) never count.
 *
 * Rollout: waits first for `status.observedGeneration >= metadata.generation` and for surplus
 * pods to go (`status.replicas <= spec.replicas`). Then
 * - `OnDelete`: done when `readyReplicas == spec.replicas`. It never waits on `updatedReplicas`:
 *   with OnDelete, pods only update when someone deletes them, so waiting would block forever.
 * - `RollingUpdate` with partition p (default 0): done when `updatedReplicas >= replicas - p`,
 *   `readyReplicas == replicas`, and, only when p is 0, `currentRevision == updateRevision`
 *   (with p > 0 the revisions never converge, by design).
 *
 * @example
 * ```ts
 * import type { StatefulSet } from "operator-runtime";
 *
 * declare const liveStatefulSet: StatefulSet;
 * const status = statefulSetRules.rolloutStatus!(liveStatefulSet);
 * // e.g. { done: false, waitingOn: "1/2 replicas updated (partition 1)" }
 * ```
 */
export const statefulSetRules: KindRules = {
  apiVersion: "apps/v1",
  kind: "StatefulSet",
  phase: "workload",
  validate(obj: KubeObject): BuilderValidationError[] {
    const p = problemsFor(obj, "StatefulSet");
    checkKind(p, obj, "apps/v1", "StatefulSet");
    checkMetadata(p, obj, NAME_RULE);
    const claimNames = checkClaimTemplates(p, at(obj, "spec", "volumeClaimTemplates"));
    checkWorkloadSpec(p, obj, { claimNames });
    const spec = isRecord(obj.spec) ? obj.spec : {};
    if (spec.serviceName !== undefined && spec.serviceName !== "") checkDnsName(p, "spec.serviceName", spec.serviceName, "label");
    if (spec.podManagementPolicy !== undefined && !POLICIES.includes(spec.podManagementPolicy as string)) {
      p.add("spec.podManagementPolicy", `${JSON.stringify(spec.podManagementPolicy)} is not a pod management policy`, `use ${POLICIES.join(" or ")}, or omit it for OrderedReady`);
    }
    const type = at(spec, "updateStrategy", "type");
    if (type !== undefined && !STRATEGIES.includes(type as string)) {
      p.add("spec.updateStrategy.type", `${JSON.stringify(type)} is not a StatefulSet update strategy`, `use ${STRATEGIES.join(" or ")}, or omit it for RollingUpdate`);
    }
    const partition = at(spec, "updateStrategy", "rollingUpdate", "partition");
    if (partition !== undefined && !isNonNegativeInteger(partition)) {
      p.add("spec.updateStrategy.rollingUpdate.partition", `${JSON.stringify(partition)} is not a non-negative integer`, "set partition to 0 or more (pods with an ordinal below it keep the old template)");
    }
    return p.list;
  },
  immutableChanges(live: KubeObject, desired: KubeObject): string[] {
    const changed: string[] = [];
    if (selectorChanged(live, desired)) changed.push("spec.selector");
    if ((at(live, "spec", "serviceName") ?? "") !== (at(desired, "spec", "serviceName") ?? "")) changed.push("spec.serviceName");
    if (claimTemplatesChanged(at(live, "spec", "volumeClaimTemplates"), at(desired, "spec", "volumeClaimTemplates"))) {
      changed.push("spec.volumeClaimTemplates");
    }
    const policy = (o: KubeObject) => at(o, "spec", "podManagementPolicy") ?? "OrderedReady";
    if (policy(live) !== policy(desired)) changed.push("spec.podManagementPolicy");
    // Immutable on a real cluster too (not in the updatable list); the API server defaults it to 10.
    const historyLimit = at(desired, "spec", "revisionHistoryLimit");
    if (historyLimit !== undefined && historyLimit !== (at(live, "spec", "revisionHistoryLimit") ?? 10)) {
      changed.push("spec.revisionHistoryLimit");
    }
    return changed;
  },
  rolloutStatus(live: KubeObject): RolloutStatus {
    return statefulSetRollout(live);
  },
};

/** Checks the claim templates and returns their names (to be mountable by containers). */
function checkClaimTemplates(p: Problems, templates: unknown): string[] {
  if (templates === undefined) return [];
  if (!Array.isArray(templates)) {
    p.add("spec.volumeClaimTemplates", `is ${jsonType(templates)}, not a list`, "make volumeClaimTemplates a list of { metadata: { name }, spec }");
    return [];
  }
  const names: string[] = [];
  templates.forEach((template, i) => {
    const field = `spec.volumeClaimTemplates[${i}]`;
    if (!isRecord(template)) return p.add(field, `is ${jsonType(template)}`, "write the template as { metadata: { name }, spec }");
    const name = at(template, "metadata", "name");
    if (name === undefined) {
      p.add(`${field}.metadata.name`, "is required", 'name the claim template (pods get claims "<name>-<statefulset>-<ordinal>"), e.g. "data"');
    } else if (checkDnsName(p, `${field}.metadata.name`, name, "label")) {
      if (names.includes(name as string)) p.add(`${field}.metadata.name`, `${JSON.stringify(name)} is used by another claim template`, "give every claim template a unique name");
      names.push(name as string);
    }
    checkClaimSpec(p, `${field}.spec`, template.spec);
  });
  return names;
}

/** Whether the desired templates differ from the live ones in a field the desired side sets. */
function claimTemplatesChanged(live: unknown, desired: unknown): boolean {
  if (!Array.isArray(desired)) return false;
  const before = Array.isArray(live) ? live : [];
  if (before.length !== desired.length) return true;
  return desired.some((want, i) => {
    const have = before[i];
    if (at(want, "metadata", "name") !== at(have, "metadata", "name")) return true;
    const wantSpec = at(want, "spec");
    const haveSpec = at(have, "spec");
    for (const key of ["accessModes", "storageClassName", "selector"]) {
      const value = at(wantSpec, key);
      if (value !== undefined && !sameJson(value, at(haveSpec, key))) return true;
    }
    const size = storageRequest(wantSpec);
    return size !== undefined && size !== storageRequest(haveSpec);
  });
}

function statefulSetRollout(live: KubeObject): RolloutStatus {
  const lag = generationLag(live);
  if (lag) return { done: false, waitingOn: lag };
  const want = specReplicas(live);
  const exist = statusCount(live, "replicas");
  if (exist > want) return { done: false, waitingOn: `${exist} replicas exist, want ${want} (scaling down)` };
  const ready = statusCount(live, "readyReplicas");
  const readyText = `${ready}/${want} replicas ready`;
  if (at(live, "spec", "updateStrategy", "type") === "OnDelete") {
    return ready === want ? { done: true } : { done: false, waitingOn: readyText };
  }
  const partition = numberOr0(at(live, "spec", "updateStrategy", "rollingUpdate", "partition"));
  const target = Math.max(0, want - partition);
  const updated = statusCount(live, "updatedReplicas");
  if (updated < target) {
    const text = partition > 0 ? `${updated}/${target} replicas updated (partition ${partition})` : `${updated}/${want} replicas updated`;
    return { done: false, waitingOn: text };
  }
  if (ready !== want) return { done: false, waitingOn: readyText };
  if (partition === 0) {
    const current = at(live, "status", "currentRevision");
    const update = at(live, "status", "updateRevision");
    if (current !== update) return { done: false, waitingOn: `currentRevision ${String(current)} != updateRevision ${String(update)}` };
  }
  return { done: true };
}

function numberOr0(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}
