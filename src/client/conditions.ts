/** Status conditions (`metav1.Condition`): set one with correct lastTransitionTime, find one, test one. */
import { OperatorRuntimeError } from "../errors.ts";
import { checkArray, checkObject } from "../util/check-args.ts";

/**
 * One entry of `status.conditions`, shaped like Kubernetes' `metav1.Condition`.
 *
 * @example
 * ```ts
 * import type { Condition } from "operator-runtime";
 * const ready: Condition = { type: "Ready", status: "True", reason: "Reconciled", observedGeneration: 3, lastTransitionTime: "2026-01-01T00:00:00Z" };
 * ```
 */
export interface Condition {
  /** CamelCase kind of condition, e.g. `Ready`, `Progressing`. */
  type: string;
  status: "True" | "False" | "Unknown";
  /** CamelCase, machine-readable cause, e.g. `Reconciled`, `ConfigInvalid`. */
  reason: string;
  /** Human-readable detail. */
  message?: string;
  /** The `metadata.generation` this condition was computed from. */
  observedGeneration?: number;
  /** RFC 3339 time the status last changed. */
  lastTransitionTime?: string;
}

const STATUSES: ReadonlySet<string> = new Set(["True", "False", "Unknown"]);
const CAMEL_CASE = /^[A-Z][A-Za-z0-9]*$/;
/** Kubernetes' condition type: an optional DNS-subdomain prefix and a name. */
const TYPE = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;

/** RFC 3339 in whole seconds, as the API server stores `metav1.Time`. */
function rfc3339(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** What is wrong with a condition type (Kubernetes' rules), or undefined when it is valid. */
export function conditionTypeProblem(type: string): string | undefined {
  if (TYPE.test(type) && type.length <= 316) return undefined;
  return `"${type}" is not a valid condition type (a CamelCase name of at most 316 characters, optionally prefixed by a DNS subdomain and "/")`;
}

function validate(c: Omit<Condition, "lastTransitionTime">): void {
  const problems: string[] = [];
  if (conditionTypeProblem(c.type)) {
    problems.push(`type "${c.type}" is not a valid condition type. Fix: use a CamelCase name such as "Ready"`);
  }
  if (!STATUSES.has(c.status)) problems.push(`status "${c.status}" must be "True", "False" or "Unknown"`);
  if (!CAMEL_CASE.test(c.reason) || c.reason.length > 1024) {
    problems.push(`reason "${c.reason}" is not CamelCase. Fix: use a CamelCase word such as "ReconcileFailed"; put details in message`);
  }
  if (c.message !== undefined && c.message.length > 32768) problems.push("message is longer than 32768 characters");
  if (c.observedGeneration !== undefined && (!Number.isInteger(c.observedGeneration) || c.observedGeneration < 0)) {
    problems.push(`observedGeneration ${c.observedGeneration} must be a non-negative integer`);
  }
  if (problems.length > 0) throw new OperatorRuntimeError(`setCondition: condition "${c.type}": ${problems.join("; ")}`);
}

/**
 * Returns a new condition list with `condition` set: replaced in place when its type exists,
 * appended otherwise (order is kept as given). `lastTransitionTime` becomes `now` only when the
 * status changes (or the condition is new); reason, message and observedGeneration always take
 * the new values. The input list is not modified.
 *
 * Errors: OperatorRuntimeError when the type is invalid, the status is not True/False/Unknown,
 * or the reason is not CamelCase.
 *
 * @example
 * ```ts
 * import { setCondition } from "operator-runtime";
 * let conditions = setCondition(undefined, { type: "Ready", status: "False", reason: "Progressing", message: "1/3 ready" });
 * conditions = setCondition(conditions, { type: "Ready", status: "True", reason: "Reconciled", observedGeneration: 2 });
 * ```
 */
export function setCondition(
  conditions: readonly Condition[] | undefined,
  condition: Omit<Condition, "lastTransitionTime">,
  now: Date = new Date(),
): Condition[] {
  if (conditions != null) checkArray("setCondition(conditions, condition)", "conditions", conditions, "an array of conditions or undefined");
  checkObject("setCondition(conditions, condition)", "condition", condition, "a condition ({ type, status, reason, message? })");
  validate(condition);
  const list = (conditions ?? []).map((c) => ({ ...c }));
  const index = list.findIndex((c) => c.type === condition.type);
  const previous = index >= 0 ? list[index] : undefined;
  const lastTransitionTime = previous && previous.status === condition.status && previous.lastTransitionTime
    ? previous.lastTransitionTime
    : rfc3339(now);
  const next: Condition = {
    type: condition.type,
    status: condition.status,
    ...(condition.observedGeneration !== undefined ? { observedGeneration: condition.observedGeneration } : {}),
    lastTransitionTime,
    reason: condition.reason,
    ...(condition.message !== undefined ? { message: condition.message } : {}),
  };
  if (index >= 0) list[index] = next;
  else list.push(next);
  return list;
}

/**
 * The condition of a type, or undefined. Takes any list of conditions with a `type` — your
 * custom resource's {@link Condition}s or a built-in kind's (a Deployment's `Available`, a Pod's
 * `Ready`) — and answers an item of that list.
 *
 * @example
 * ```ts
 * import { defineKind, findCondition } from "operator-runtime";
 * import type { Condition } from "operator-runtime";
 *
 * const Widget = defineKind<{ size: number }, { conditions?: Condition[] }>({ apiVersion: "example.com/v1", kind: "Widget" });
 * const widget = await client.get({ ...Widget, namespace: "default", name: "w" });
 * const ready = findCondition(widget.status?.conditions, "Ready");
 * console.log(ready?.status ?? "no Ready condition", ready?.message);
 * ```
 */
export function findCondition<C extends { type: string }>(conditions: readonly C[] | undefined, type: string): C | undefined {
  if (conditions != null) checkArray("findCondition(conditions, type)", "conditions", conditions, "an array of conditions or undefined");
  return conditions?.find((c) => c.type === type);
}

/**
 * Whether the condition of a type exists with status `True` (any list of conditions with `type`
 * and `status`: a custom resource's or a built-in kind's).
 *
 * @example
 * ```ts
 * import { Deployment, defineKind, isConditionTrue } from "operator-runtime";
 * import type { Condition } from "operator-runtime";
 *
 * const Database = defineKind<{ version: string }, { conditions?: Condition[] }>({ apiVersion: "example.com/v1", kind: "Database" });
 * const db = await client.get({ ...Database, namespace: "default", name: "orders" });
 * if (isConditionTrue(db.status?.conditions, "Available")) console.log("orders is available");
 *
 * const web = await client.get({ ...Deployment, namespace: "default", name: "web" });
 * if (isConditionTrue(web.status?.conditions, "Available")) console.log("web is available");
 * ```
 */
export function isConditionTrue(conditions: readonly { type: string; status?: string }[] | undefined, type: string): boolean {
  if (conditions != null) checkArray("isConditionTrue(conditions, type)", "conditions", conditions, "an array of conditions or undefined");
  return findCondition(conditions, type)?.status === "True";
}
