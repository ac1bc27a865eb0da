/**
 * The admissionregistration.k8s.io/v1 and admission.k8s.io/v1 shapes LocalCluster's admission
 * chain reads and sends. Declared here (not imported from `src/webhook`): LocalCluster depends
 * only on `src/util` and `src/kinds`.
 *
 * @module
 */
import type { KubeObject } from "../resource-type.ts";
import type { WebhookClientConfig } from "./webhook-client.ts";

/**
 * An admission operation.
 *
 * @example
 * ```ts
 * const ops: Operation[] = ["CREATE", "UPDATE"];
 * ```
 */
export type Operation = "CREATE" | "UPDATE" | "DELETE" | "CONNECT";

/**
 * A label selector as webhook configurations carry it.
 *
 * @example
 * ```ts
 * const sel: SelectorShape = { matchExpressions: [{ key: "team", operator: "In", values: ["a"] }] };
 * ```
 */
export interface SelectorShape {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

/**
 * One `rules` entry (`RuleWithOperations`), defaulted (`scope` is set).
 *
 * @example
 * ```ts
 * const rule: WebhookRule = { operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods", "pods/status"], scope: "Namespaced" };
 * ```
 */
export interface WebhookRule {
  operations?: string[];
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  scope?: "Cluster" | "Namespaced" | "*";
}

/**
 * One webhook of a Mutating/ValidatingWebhookConfiguration, as stored (defaulted).
 *
 * @example
 * ```ts
 * const hook: WebhookSpec = { name: "vwidget.example.com", clientConfig: { url: "https://127.0.0.1:9443/validate" }, sideEffects: "None", failurePolicy: "Fail" };
 * ```
 */
export interface WebhookSpec {
  name: string;
  clientConfig: WebhookClientConfig;
  rules?: WebhookRule[];
  failurePolicy?: "Fail" | "Ignore";
  matchPolicy?: "Exact" | "Equivalent";
  namespaceSelector?: SelectorShape;
  objectSelector?: SelectorShape;
  sideEffects?: string;
  timeoutSeconds?: number;
  admissionReviewVersions?: string[];
  reinvocationPolicy?: "Never" | "IfNeeded";
  matchConditions?: { name: string; expression: string }[];
}

/**
 * A group/version/kind as an AdmissionRequest carries it.
 *
 * @example
 * ```ts
 * const scale: Gvk = { group: "autoscaling", version: "v1", kind: "Scale" };
 * ```
 */
export interface Gvk {
  group: string;
  version: string;
  kind: string;
}

/**
 * A group/version/resource as an AdmissionRequest carries it.
 *
 * @example
 * ```ts
 * const pods: Gvr = { group: "", version: "v1", resource: "pods" };
 * ```
 */
export interface Gvr {
  group: string;
  version: string;
  resource: string;
}

/**
 * `admission.k8s.io/v1` AdmissionRequest as LocalCluster sends it.
 *
 * @example
 * ```ts
 * declare const request: ReviewRequest;
 * const deleting = request.operation === "DELETE" && request.object === null;
 * ```
 */
export interface ReviewRequest {
  uid: string;
  kind: Gvk;
  resource: Gvr;
  subResource?: string;
  requestKind: Gvk;
  requestResource: Gvr;
  requestSubResource?: string;
  name?: string;
  namespace?: string;
  operation: Operation;
  userInfo: { username: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> };
  object: KubeObject | null;
  oldObject: KubeObject | null;
  dryRun: boolean;
  options: KubeObject | null;
}

/**
 * The `response` of an AdmissionReview a webhook answers.
 *
 * @example
 * ```ts
 * const denial: ReviewResponse = { uid: "…", allowed: false, status: { code: 422, message: "spec.size: must be positive" } };
 * ```
 */
export interface ReviewResponse {
  uid?: string;
  allowed?: boolean;
  status?: {
    code?: number;
    message?: string;
    reason?: string;
    status?: string;
    details?: { name?: string; group?: string; kind?: string; uid?: string; causes?: { reason?: string; message?: string; field?: string }[]; retryAfterSeconds?: number };
  };
  patch?: string;
  patchType?: string;
  auditAnnotations?: Record<string, string>;
  warnings?: string[];
}

/**
 * A `MutatingWebhookConfiguration` or `ValidatingWebhookConfiguration` webhook, with the name of
 * its configuration (kube-apiserver orders webhooks by configuration name, then by position).
 *
 * @example
 * ```ts
 * declare const hook: ConfiguredWebhook;
 * const label = `${hook.configuration}[${hook.index}] ${hook.spec.name}`;
 * ```
 */
export interface ConfiguredWebhook {
  readonly mutating: boolean;
  readonly configuration: string;
  readonly index: number;
  readonly spec: WebhookSpec;
}

/**
 * Every webhook of a list of configuration objects, in kube-apiserver's calling order:
 * configurations sorted by name, webhooks in the order they are listed.
 *
 * @example
 * ```ts
 * const hooks = configuredWebhooks([{ metadata: { name: "b" }, webhooks: [] }], false);
 * // → []
 * ```
 */
export function configuredWebhooks(configurations: readonly KubeObject[], mutating: boolean): ConfiguredWebhook[] {
  const sorted = [...configurations].sort((a, b) => compareNames(a.metadata?.name ?? "", b.metadata?.name ?? ""));
  const out: ConfiguredWebhook[] = [];
  for (const c of sorted) {
    const hooks = (c as { webhooks?: WebhookSpec[] }).webhooks ?? [];
    hooks.forEach((spec, index) => out.push({ mutating, configuration: c.metadata?.name ?? "", index, spec }));
  }
  return out;
}

/** Go's string order (bytes), not the locale's. */
function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
