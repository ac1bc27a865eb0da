/**
 * LocalCluster's admission webhook chain, as kube-apiserver's `MutatingAdmissionWebhook` and
 * `ValidatingAdmissionWebhook` plugins run it: the webhooks of the stored
 * Mutating/ValidatingWebhookConfigurations that match a write are called over HTTPS with an
 * `admission.k8s.io/v1` AdmissionReview; mutating ones in order (JSON patches applied, `IfNeeded`
 * webhooks reinvoked once when a later one changed the object), validating ones all at once.
 * `failurePolicy`, `timeoutSeconds`, `sideEffects` on dry runs, denials, warnings and
 * injected faults answer as kube-apiserver does. A webhook's `matchConditions` (CEL) are
 * evaluated before it is called (see `match-conditions.ts`).
 *
 * The `ValidatingAdmissionPolicy` plugin runs here too (see `policy.ts`): the stored
 * ValidatingAdmissionPolicies and their bindings are evaluated with the object as it will be
 * stored, before the validating webhooks are called (kube-apiserver's plugin order). They take
 * effect as soon as they are stored (kube-apiserver's informers take a moment).
 *
 * @module
 */
import { randomUUID } from "node:crypto";
import type { ObjectStore } from "../object-store.ts";
import type { Registry } from "../registry.ts";
import type { KubeObject, ResourceType } from "../resource-type.ts";
import { StatusError, badRequest } from "../status.ts";
import { jsonEqual } from "../json-value.ts";
import { applyJsonPatch } from "../patch/json-patch.ts";
import { fromViewAsync, toViewAsync } from "../object-view.ts";
import type { UserInfo } from "../auth/user-info.ts";
import type { ActiveWebhookFault, WebhookFaultSpec } from "../faults.ts";
import { checkWebhookFault } from "../faults.ts";
import type { ServiceResolver } from "./webhook-client.ts";
import { WebhookCallError, postReview, webhookTarget, withTimeout } from "./webhook-client.ts";
import type { ConfiguredWebhook, Gvk, Gvr, Operation, ReviewRequest, ReviewResponse } from "./review-types.ts";
import { configuredWebhooks } from "./review-types.ts";
import type { RuleAttributes } from "./matching.ts";
import { matchedResource, namespaceSelectorMatches, objectSelectorMatches } from "./matching.ts";
import { WEBHOOK_CEL_ENVIRONMENT, admissionBindings, compileMatchConditions, evaluateMatchConditions } from "./match-conditions.ts";
import type { BoundPolicy, PolicyHost, PolicyRequest } from "./policy.ts";
import { compilePolicy, policyBinding, runPolicies } from "./policy.ts";
import { rulesMayMatch } from "./policy-matching.ts";
import type { BindingObject, BindingSpec, PolicyObject, PolicySpec } from "./policy-types.ts";
import { matchLabelSelectorObject } from "../../util/label-selector.ts";
import type { LabelSelectorObject } from "../../util/label-selector.ts";

const GROUP = "admissionregistration.k8s.io";
const MUTATING_KEY = `${GROUP}/mutatingwebhookconfigurations`;
const VALIDATING_KEY = `${GROUP}/validatingwebhookconfigurations`;
const POLICY_KEY = `${GROUP}/validatingadmissionpolicies`;
const BINDING_KEY = `${GROUP}/validatingadmissionpolicybindings`;
const CRD_KEY = "apiextensions.k8s.io/customresourcedefinitions";
/** Resources kube-apiserver never sends to webhooks (so a bad webhook cannot lock the cluster). */
const EXEMPT = new Set(["mutatingwebhookconfigurations", "validatingwebhookconfigurations", "validatingadmissionpolicies", "validatingadmissionpolicybindings", "mutatingadmissionpolicies", "mutatingadmissionpolicybindings"]);
/** `timeoutSeconds` when a configuration has none (stored ones are defaulted already). */
const DEFAULT_TIMEOUT_SECONDS = 10;

/**
 * One write as admission sees it.
 *
 * @example
 * ```ts
 * import type { ResourceType } from "../resource-type.ts";
 * declare const configMaps: ResourceType;
 * const attrs: AdmissionAttributes = {
 *   operation: "CREATE", type: configMaps, subresource: "", namespace: "default", name: "demo",
 *   user: { name: "localcluster-admin", groups: ["system:masters", "system:authenticated"] }, dryRun: false,
 *   options: { apiVersion: "meta.k8s.io/v1", kind: "CreateOptions" },
 * };
 * ```
 */
export interface AdmissionAttributes {
  readonly operation: Exclude<Operation, "CONNECT">;
  /** The resource as requested (its view: version, group). */
  readonly type: ResourceType;
  /** "" for the object itself, `status`, `scale`. */
  readonly subresource: string;
  /** The request's namespace ("" for cluster-scoped objects; a Namespace's own name for Namespaces). */
  readonly namespace: string;
  /** The object's name ("" on a create with `generateName`). */
  readonly name: string;
  readonly user: UserInfo;
  readonly dryRun: boolean;
  /** CreateOptions, UpdateOptions or DeleteOptions (`meta.k8s.io/v1`). */
  readonly options: KubeObject;
  /** The kind of the objects sent when it is not the resource's (`autoscaling/v1` Scale for `/scale`). */
  readonly objectKind?: Gvk;
}

/** A matched webhook and the version it is called in. */
interface Invocation {
  readonly hook: ConfiguredWebhook;
  /** Its index in audit annotation keys: among all mutating webhooks, among the called validating ones. */
  position: number;
  readonly gvr: Gvr;
  /** The type of that version (undefined when it is the requested one, or for subresource kinds). */
  readonly as: ResourceType | undefined;
}

/**
 * The webhooks that may run for one write (their rules match), with what runs them. Made by
 * {@link AdmissionChain.plan} only when at least one webhook's rules match.
 *
 * @example
 * ```ts
 * import type { KubeObject } from "../resource-type.ts";
 * declare const chain: AdmissionChain;
 * declare const attrs: AdmissionAttributes;
 * declare const body: KubeObject;
 * const plan = chain.plan(attrs);
 * const toStore = plan ? await plan.mutate(body, undefined) : body;
 * // … a dry run of the write gives the object as stored, then:
 * await plan?.validate(toStore, undefined);
 * ```
 */
export class AdmissionPlan {
  readonly #chain: AdmissionChain;
  readonly #attrs: AdmissionAttributes;
  readonly #mutating: Invocation[];
  readonly #validating: Invocation[];
  readonly #policies: BoundPolicy[];
  /** `Warning`s the webhooks and policies sent, in order, without duplicates. */
  readonly warnings: string[] = [];
  /**
   * Audit annotations the webhooks sent (`<webhook name>/<key>` → value), failed-open marks,
   * and the policies' (`<policy>/<key>`, `validation.policy.admission.k8s.io/validation_failure`).
   */
  readonly auditAnnotations: Record<string, string> = {};

  constructor(chain: AdmissionChain, attrs: AdmissionAttributes, mutating: Invocation[], validating: Invocation[], policies: BoundPolicy[] = []) {
    this.#chain = chain;
    this.#attrs = attrs;
    this.#mutating = mutating;
    this.#validating = validating;
    this.#policies = policies;
  }

  /** Whether any mutating webhook's rules match (else {@link AdmissionPlan.mutate} returns its input). */
  get mutates(): boolean {
    return this.#mutating.length > 0;
  }

  /** Whether any validating webhook's or ValidatingAdmissionPolicy's rules match. */
  get validates(): boolean {
    return this.#validating.length > 0 || this.#policies.length > 0;
  }

  /**
   * Runs the mutating webhooks on `object` (in the requested version; undefined on DELETE) and
   * returns the object they leave. Reinvokes `IfNeeded` webhooks once when a later webhook
   * changed the object.
   *
   * @throws {StatusError} a denial, a failed call under `failurePolicy: Fail`, a bad patch.
   */
  async mutate(object: KubeObject | undefined, oldObject: KubeObject | undefined): Promise<KubeObject | undefined> {
    let current = object;
    let previouslyInvoked = new Set<ConfiguredWebhook>();
    const toReinvoke = new Set<ConfiguredWebhook>();
    let anyChange = false;
    const round = async (reinvoke: boolean) => {
      for (const inv of this.#mutating) {
        if (reinvoke && !toReinvoke.has(inv.hook)) continue;
        if (!(await this.#selected(inv, current, oldObject))) continue;
        const before = current;
        current = await this.#callMutating(inv, current, oldObject);
        if (reinvoke) toReinvoke.delete(inv.hook);
        if (before !== current) {
          anyChange = true;
          for (const h of previouslyInvoked) toReinvoke.add(h);
          previouslyInvoked = new Set();
        }
        if (inv.hook.spec.reinvocationPolicy === "IfNeeded") previouslyInvoked.add(inv.hook);
      }
    };
    await round(false);
    // One reinvocation round, for the IfNeeded webhooks a later webhook's change concerns.
    if (anyChange && toReinvoke.size > 0) {
      previouslyInvoked = new Set();
      await round(true);
    }
    return current;
  }

  /**
   * Runs the ValidatingAdmissionPolicies, then calls the validating webhooks, with the object
   * as it will be stored (undefined on DELETE); the webhooks all at once as kube-apiserver
   * does, the first refusal in calling order wins.
   *
   * @throws {StatusError} a denial, or a failed call under `failurePolicy: Fail`.
   */
  async validate(object: KubeObject | undefined, oldObject: KubeObject | undefined): Promise<void> {
    if (this.#policies.length > 0) await this.#runPolicies(object, oldObject);
    const selected: Invocation[] = [];
    for (const inv of this.#validating) if (await this.#selected(inv, object, oldObject)) selected.push(inv);
    selected.forEach((inv, i) => (inv.position = i));
    const results = await Promise.allSettled(selected.map(async (inv) => {
      const response = await this.#invoke(inv, object, oldObject);
      if (response) this.#checkAllowed(inv, response);
    }));
    for (const r of results) if (r.status === "rejected") throw r.reason;
  }

  /**
   * Whether the webhook's selectors and `matchConditions` take this request (namespace labels
   * looked up only when needed).
   *
   * @throws {StatusError} kube-apiserver's 403 when a condition fails to evaluate under `failurePolicy: Fail`.
   */
  async #selected(inv: Invocation, object: KubeObject | undefined, oldObject: KubeObject | undefined): Promise<boolean> {
    const spec = inv.hook.spec;
    if (!objectSelectorMatches(spec.objectSelector, object, oldObject)) return false;
    if (!namespaceSelectorMatches(spec.namespaceSelector, this.#ruleAttributes(), () => this.#chain.namespaceLabels(this.#attrs, object ?? oldObject))) return false;
    if (!spec.matchConditions?.length) return true;
    const conditions = compileMatchConditions(spec.matchConditions, WEBHOOK_CEL_ENVIRONMENT);
    let obj = object;
    let old = oldObject;
    if (inv.as && !this.#attrs.objectKind) {
      obj = obj && (await this.#chain.convert(obj, this.#attrs.type, inv.as));
      old = old && (await this.#chain.convert(old, this.#attrs.type, inv.as));
    }
    const a = this.#attrs;
    const request = this.#celRequest(a.objectKind ?? { group: a.type.group, version: a.type.version, kind: a.type.kind }, { group: a.type.group, version: a.type.version, resource: a.type.plural });
    const decision = evaluateMatchConditions(conditions, admissionBindings({ object: a.operation === "DELETE" ? undefined : obj, oldObject: old, request }), spec.failurePolicy);
    if ("error" in decision) {
      const resource = a.type.group ? `${a.type.plural}.${a.type.group}` : a.type.plural;
      const message = a.name ? `${resource} ${JSON.stringify(a.name)} is forbidden: ${decision.error}` : `${resource} is forbidden: ${decision.error}`;
      throw new StatusError(403, "Forbidden", message, { ...(a.name ? { name: a.name } : {}), ...(a.type.group ? { group: a.type.group } : {}), kind: a.type.plural });
    }
    return decision.matches;
  }

  /**
   * `request` as admission CEL expressions see it (kube-apiserver's `CreateAdmissionRequest`):
   * the AdmissionRequest without `object`, `oldObject` and a uid.
   */
  #celRequest(kind: Gvk, resource: Gvr): Record<string, unknown> {
    return { uid: "", ...this.#requestFields(kind, resource) };
  }

  /**
   * What an AdmissionRequest (a webhook's review, or CEL's `request`) says of this write, the
   * objects and the uid aside: `extra` and the other optional fields only when set, as Go's
   * `omitempty` sends them.
   */
  #requestFields(kind: Gvk, resource: Gvr) {
    const a = this.#attrs;
    const requestKind: Gvk = a.objectKind ?? { group: a.type.group, version: a.type.version, kind: a.type.kind };
    const requestResource: Gvr = { group: a.type.group, version: a.type.version, resource: a.type.plural };
    return {
      kind,
      resource,
      ...(a.subresource ? { subResource: a.subresource } : {}),
      requestKind,
      requestResource,
      ...(a.subresource ? { requestSubResource: a.subresource } : {}),
      ...(a.name ? { name: a.name } : {}),
      ...(a.namespace ? { namespace: a.namespace } : {}),
      operation: a.operation,
      userInfo: {
        username: a.user.name,
        ...(a.user.uid ? { uid: a.user.uid } : {}),
        ...(a.user.groups.length ? { groups: [...a.user.groups] } : {}),
        ...(a.user.extra && Object.keys(a.user.extra).length ? { extra: Object.fromEntries(Object.entries(a.user.extra).map(([k, v]) => [k, [...v]])) } : {}),
      },
      dryRun: a.dryRun,
      options: a.options,
    };
  }

  /** The ValidatingAdmissionPolicy plugin: warnings and audit annotations kept, the first refusal thrown. */
  async #runPolicies(object: KubeObject | undefined, oldObject: KubeObject | undefined): Promise<void> {
    const a = this.#attrs;
    const attributes = this.#ruleAttributes();
    const equivalents = this.#chain.equivalentTypes(a.type);
    const shown = object ?? undefined;
    const forbiddenName = shown?.metadata?.name || shown?.metadata?.generateName || (a.operation === "DELETE" ? "Unknown" : a.name || "Unknown");
    const req: PolicyRequest = {
      attributes,
      name: a.name || (object?.metadata?.name ?? ""),
      object: a.operation === "DELETE" ? undefined : object,
      oldObject,
      equivalents: equivalents.map((t) => ({ group: t.group, version: t.version, resource: t.plural })),
      namespaceLabels: () => this.#chain.namespaceLabels(a, object ?? oldObject),
      kind: a.objectKind ?? { group: a.type.group, version: a.type.version, kind: a.type.kind },
      request: (resource, kind) => this.#celRequest(kind, resource),
      forbiddenName,
    };
    const host: PolicyHost = {
      convert: async (obj, to) => {
        const target = equivalents.find((t) => t.group === to.group && t.version === to.version && t.plural === to.resource) ?? a.type;
        return { object: await this.#chain.convert(obj, a.type, target), kind: { group: target.group, version: target.version, kind: target.kind } };
      },
      namespaceObject: (ns) => this.#chain.namespaceObject(ns),
      params: (kind, ref, ns) => this.#chain.params(kind, ref, ns),
    };
    const outcome = await runPolicies(this.#policies, req, host);
    for (const w of outcome.warnings) if (!this.warnings.includes(w)) this.warnings.push(w);
    for (const [k, v] of Object.entries(outcome.auditAnnotations)) this.auditAnnotations[k] ??= v;
    if (outcome.denial) throw outcome.denial;
  }

  #ruleAttributes(): RuleAttributes {
    const a = this.#attrs;
    return { operation: a.operation, group: a.type.group, version: a.type.version, resource: a.type.plural, subresource: a.subresource, namespace: a.namespace };
  }

  async #callMutating(inv: Invocation, object: KubeObject | undefined, oldObject: KubeObject | undefined): Promise<KubeObject | undefined> {
    const response = await this.#invoke(inv, object, oldObject);
    if (!response) return object;
    this.#checkAllowed(inv, response);
    const name = inv.hook.spec.name;
    if (response.patch === undefined || response.patch === "") return object;
    let ops: unknown;
    try {
      ops = JSON.parse(Buffer.from(response.patch, "base64").toString("utf8"));
      if (!Array.isArray(ops)) throw new Error(`json: cannot unmarshal ${ops === null ? "null" : typeof ops} into Go value of type jsonpatch.Patch`);
    } catch (err) {
      return this.#failed(inv, `received undecodable patch in webhook response: ${err instanceof Error ? err.message : String(err)}`, object);
    }
    if (ops.length === 0) return object;
    if (object === undefined) {
      throw internalError(`admission webhook ${JSON.stringify(name)} attempted to modify the object, which is not supported for this operation`);
    }
    if (response.patchType !== "JSONPatch") return this.#failed(inv, `unsupported patch type ${JSON.stringify(response.patchType ?? "")}`, object);
    const sent = inv.as ? await this.#chain.convert(object, this.#attrs.type, inv.as) : object;
    let patched: KubeObject;
    try {
      patched = applyJsonPatch(structuredClone(sent), ops);
    } catch (err) {
      throw internalError(err instanceof Error ? err.message : String(err));
    }
    if (jsonEqual(patched, sent)) return object;
    return inv.as ? await this.#chain.convert(patched, inv.as, this.#attrs.type) : patched;
  }

  /** A refusal in the response → kube-apiserver's Status (`admission webhook "…" denied the request: …`). */
  #checkAllowed(inv: Invocation, response: ReviewResponse): void {
    for (const [k, v] of Object.entries(response.auditAnnotations ?? {})) this.auditAnnotations[`${inv.hook.spec.name}/${k}`] = v;
    for (const w of response.warnings ?? []) if (!this.warnings.includes(w)) this.warnings.push(w);
    if (response.allowed === true) return;
    throw denial(inv.hook.spec.name, response.status);
  }

  /**
   * One call: the review in the webhook's version, faults applied, the answer checked.
   * Undefined when the call failed and `failurePolicy: Ignore` lets the write go on.
   */
  async #invoke(inv: Invocation, object: KubeObject | undefined, oldObject: KubeObject | undefined): Promise<ReviewResponse | undefined> {
    const a = this.#attrs;
    const spec = inv.hook.spec;
    if (a.dryRun && spec.sideEffects !== "None" && spec.sideEffects !== "NoneOnDryRun") {
      throw badRequest(`admission webhook ${JSON.stringify(spec.name)} does not support dry run`);
    }
    try {
      const request = await this.#review(inv, object, oldObject);
      const timeoutMs = (spec.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS) * 1000;
      // The first review version of the webhook's list LocalCluster speaks, as kube-apiserver picks it.
      const version = (spec.admissionReviewVersions ?? ["v1"]).find((v) => v === "v1" || v === "v1beta1") ?? "v1";
      const body = { apiVersion: `admission.k8s.io/${version}`, kind: "AdmissionReview", request };
      const answer = await this.#chain.post(spec.name, spec.clientConfig, body, timeoutMs);
      return version === "v1beta1" ? reviewResponseV1beta1(answer) : reviewResponse(answer, request.uid, inv.hook.mutating);
    } catch (err) {
      if (!(err instanceof WebhookCallError)) throw err;
      return this.#failed(inv, err.message.startsWith("received invalid") ? err.message : `failed to call webhook: ${err.message}`, undefined);
    }
  }

  /**
   * A failed call (`ErrCallingWebhook`): `failurePolicy: Ignore` goes on with `fallback` (and
   * the failed-open audit annotation); `Fail` is kube-apiserver's 500
   * `Internal error occurred: failed calling webhook "<name>": <why>`.
   */
  #failed<T>(inv: Invocation, why: string, fallback: T): T {
    const spec = inv.hook.spec;
    if (spec.failurePolicy === "Ignore") {
      const prefix = inv.hook.mutating ? "failed-open.mutation" : "failed-open.validating";
      this.auditAnnotations[`${prefix}.webhook.admission.k8s.io/round_0_index_${inv.position}`] = spec.name;
      return fallback;
    }
    throw internalError(`failed calling webhook ${JSON.stringify(spec.name)}: ${why}`);
  }

  async #review(inv: Invocation, object: KubeObject | undefined, oldObject: KubeObject | undefined): Promise<ReviewRequest> {
    const a = this.#attrs;
    let kind: Gvk = a.objectKind ?? { group: a.type.group, version: a.type.version, kind: a.type.kind };
    let obj = object;
    let old = oldObject;
    if (inv.as) {
      kind = a.objectKind ?? { group: inv.as.group, version: inv.as.version, kind: inv.as.kind };
      if (!a.objectKind) {
        obj = obj && (await this.#chain.convert(obj, a.type, inv.as));
        old = old && (await this.#chain.convert(old, a.type, inv.as));
      }
    }
    return {
      uid: randomUUID(),
      ...this.#requestFields(kind, inv.gvr),
      object: a.operation === "DELETE" ? null : (obj ?? null),
      oldObject: old ?? null,
    };
  }
}

/**
 * The admission chain of one LocalCluster: the webhook configurations it stores (read again
 * only after they change), how `service` references resolve, and the injected webhook faults.
 *
 * @example
 * ```ts
 * import type { ObjectStore } from "../object-store.ts";
 * import type { Registry } from "../registry.ts";
 * declare const store: ObjectStore;
 * declare const registry: Registry;
 * const chain = new AdmissionChain(store, registry, (svc) => (svc.name === "webhook" ? "https://127.0.0.1:9443" : undefined));
 * chain.inject({ down: true });
 * ```
 */
export class AdmissionChain {
  readonly #store: ObjectStore;
  readonly #registry: Registry;
  #hooks: { mutating: ConfiguredWebhook[]; validating: ConfiguredWebhook[] } | undefined;
  #policies: BoundPolicy[] | undefined;
  /** Where `clientConfig.service` references point (LocalCluster's `webhookServices` option). */
  resolveService: ServiceResolver | undefined;
  /** Injected faults on webhook calls, oldest first. */
  readonly faults: ActiveWebhookFault[] = [];

  constructor(store: ObjectStore, registry: Registry, resolveService?: ServiceResolver) {
    this.#store = store;
    this.#registry = registry;
    this.resolveService = resolveService;
    store.onChange((c) => {
      if (c.object.storageKey === MUTATING_KEY || c.object.storageKey === VALIDATING_KEY) this.#hooks = undefined;
      // A CRD change may make a policy's paramKind served (or not).
      if (c.object.storageKey === POLICY_KEY || c.object.storageKey === BINDING_KEY || c.object.storageKey === CRD_KEY) this.#policies = undefined;
    });
  }

  /**
   * The webhooks whose rules match a write, or undefined when none do: then the write takes
   * its usual path, with no extra work.
   */
  plan(attrs: AdmissionAttributes): AdmissionPlan | undefined {
    const hooks = this.#configured();
    const policies = this.#boundPolicies();
    if (hooks.mutating.length === 0 && hooks.validating.length === 0 && policies.length === 0) return undefined;
    if (attrs.type.group === GROUP && EXEMPT.has(attrs.type.plural)) return undefined;
    const ruleAttrs: RuleAttributes = {
      operation: attrs.operation, group: attrs.type.group, version: attrs.type.version, resource: attrs.type.plural,
      subresource: attrs.subresource, namespace: attrs.namespace,
    };
    let equivalents: ResourceType[] | undefined;
    const others = () => (equivalents ??= this.#registry.byStorage(attrs.type.storageKey)
      .filter((t) => t !== attrs.type && t.group === attrs.type.group && t.plural === attrs.type.plural));
    const invocations = (list: ConfiguredWebhook[]): Invocation[] => {
      const out: Invocation[] = [];
      for (const hook of list) {
        const gvr = matchedResource(hook, ruleAttrs, hook.spec.matchPolicy === "Exact" ? [] : others().map((t) => ({ group: t.group, version: t.version, resource: t.plural })));
        if (!gvr) continue;
        const as = gvr.version === attrs.type.version && gvr.group === attrs.type.group ? undefined : others().find((t) => t.version === gvr.version);
        out.push({ hook, gvr, as, position: list.indexOf(hook) });
      }
      return out;
    };
    const mutating = invocations(hooks.mutating);
    const validating = invocations(hooks.validating);
    const equivalentGvrs = () => others().map((t) => ({ group: t.group, version: t.version, resource: t.plural }));
    const matchingPolicies = policies.filter((p) => p.policy.match !== undefined && rulesMayMatch(p.policy.match, ruleAttrs, p.policy.match.matchPolicy === "Exact" ? [] : equivalentGvrs()));
    if (mutating.length === 0 && validating.length === 0 && matchingPolicies.length === 0) return undefined;
    return new AdmissionPlan(this, attrs, mutating, validating, matchingPolicies);
  }

  /** The other served versions of a resource (same group and plural, same storage). */
  equivalentTypes(type: ResourceType): ResourceType[] {
    return this.#registry.byStorage(type.storageKey).filter((t) => t !== type && t.group === type.group && t.plural === type.plural);
  }

  /** A Namespace as stored (404 when there is none). */
  namespaceObject(name: string): KubeObject {
    const ns = this.#store.get("/namespaces", "", name);
    if (!ns) throw new StatusError(404, "NotFound", `namespaces "${name}" not found`, { name, kind: "namespaces" });
    return ns.object();
  }

  /**
   * The param objects a binding's `paramRef` selects (kube-apiserver's `CollectParams`): by
   * name or by selector, in `paramRef.namespace`, else the request's namespace for a
   * namespaced param kind; none found is an error under `parameterNotFoundAction: Deny`.
   */
  params(paramKind: NonNullable<PolicySpec["paramKind"]>, ref: NonNullable<BindingSpec["paramRef"]>, requestNamespace: string): { objects: KubeObject[] } | { error: string } {
    const type = this.#registry.byKind(paramKind.apiVersion ?? "", paramKind.kind ?? "");
    if (!type) return { error: `failed to find resource referenced by paramKind: '${paramKind.apiVersion ?? ""}, Kind=${paramKind.kind ?? ""}'` };
    let namespace = "";
    if (type.namespaced) {
      namespace = ref.namespace || requestNamespace;
      if (!namespace) return { error: "cannot use namespaced paramRef in policy binding that matches cluster-scoped resources" };
    }
    const view = (o: { object(): KubeObject }) => o.object();
    let objects: KubeObject[];
    if (ref.name) {
      const found = this.#store.get(type.storageKey, namespace, ref.name);
      objects = found ? [view(found)] : [];
    } else {
      const selector = (ref.selector ?? {}) as LabelSelectorObject;
      objects = this.#store.list(type.storageKey, type.namespaced ? namespace : undefined).filter((o) => matchLabelSelectorObject(selector, o.labels ?? {})).map(view);
    }
    if (objects.length === 0 && ref.parameterNotFoundAction === "Deny") return { error: "no params found for policy binding with `Deny` parameterNotFoundAction" };
    return { objects };
  }

  /** Adds a webhook fault; throws a TypeError when it could never fire (see `checkWebhookFault`). */
  inject(spec: WebhookFaultSpec): ActiveWebhookFault {
    checkWebhookFault(spec);
    const f: ActiveWebhookFault = { spec, remaining: spec.times ?? 1, hits: 0 };
    this.faults.push(f);
    return f;
  }

  /** The labels `namespaceSelector` is matched against (a Namespace's own, on its own requests). */
  namespaceLabels(attrs: AdmissionAttributes, object: KubeObject | undefined): Record<string, string> {
    if (attrs.type.group === "" && attrs.type.plural === "namespaces") return object?.metadata?.labels ?? {};
    const ns = this.#store.get("/namespaces", "", attrs.namespace);
    if (!ns) throw new StatusError(404, "NotFound", `namespaces "${attrs.namespace}" not found`, { name: attrs.namespace, kind: "namespaces" });
    return ns.labels ?? {};
  }

  /** An object converted from one served version of a resource to another. */
  async convert(object: KubeObject, from: ResourceType, to: ResourceType): Promise<KubeObject> {
    return await toViewAsync(to, await fromViewAsync(from, object));
  }

  /** One HTTPS call, with the injected faults that match it. */
  async post(name: string, config: ConfiguredWebhook["spec"]["clientConfig"], body: unknown, timeoutMs: number): Promise<unknown> {
    const target = webhookTarget(config, this.resolveService);
    const fault = this.#takeFault(name);
    if (fault) {
      const url = withTimeout(target.url, timeoutMs);
      const post = `Post ${JSON.stringify(withTimeout(target.shownUrl ?? target.url, timeoutMs).href)}`;
      if (fault.latencyMs) {
        if (fault.latencyMs >= timeoutMs) {
          await delay(timeoutMs);
          throw new WebhookCallError("timeout", `${post}: context deadline exceeded`);
        }
        await delay(fault.latencyMs);
      }
      if (fault.down) throw new WebhookCallError("unreachable", `${post}: dial tcp ${url.hostname}:${url.port || "443"}: connect: connection refused`);
      if (fault.code !== undefined) {
        const text = fault.message ?? "injected fault";
        throw new WebhookCallError("status", fault.code >= 500 && fault.code !== 503 && fault.code !== 504
          ? `an error on the server (${JSON.stringify(text)}) has prevented the request from succeeding`
          : `${text} (injected HTTP ${fault.code})`);
      }
    }
    return await postReview(target, config.caBundle, body, timeoutMs);
  }

  #takeFault(name: string): WebhookFaultSpec | undefined {
    for (let i = 0; i < this.faults.length; i++) {
      const f = this.faults[i]!;
      if (f.spec.name !== undefined && f.spec.name !== name) continue;
      f.hits++;
      if (--f.remaining <= 0) this.faults.splice(i, 1);
      return f.spec;
    }
    return undefined;
  }

  /** The stored policies that have bindings, compiled, by name (their bindings by name). */
  #boundPolicies(): BoundPolicy[] {
    if (this.#policies) return this.#policies;
    const byName = (a: { metadata?: { name?: string } }, b: { metadata?: { name?: string } }) => {
      const x = a.metadata?.name ?? "";
      const y = b.metadata?.name ?? "";
      return x < y ? -1 : x > y ? 1 : 0;
    };
    const bindings = this.#store.list(BINDING_KEY).map((o) => o.object() as BindingObject).sort(byName);
    const out: BoundPolicy[] = [];
    if (bindings.length > 0) {
      for (const object of this.#store.list(POLICY_KEY).map((o) => o.object() as PolicyObject).sort(byName)) {
        const mine = bindings.filter((b) => b.spec?.policyName === object.metadata?.name).map(policyBinding);
        if (mine.length === 0) continue;
        const policy = compilePolicy(object);
        const paramKind = object.spec?.paramKind;
        if (paramKind && !this.#registry.byKind(paramKind.apiVersion ?? "", paramKind.kind ?? "")) {
          policy.configurationError = `failed to find resource referenced by paramKind: '${paramKind.apiVersion ?? ""}, Kind=${paramKind.kind ?? ""}'`;
        }
        out.push({ policy, bindings: mine });
      }
    }
    this.#policies = out;
    return out;
  }

  #configured(): { mutating: ConfiguredWebhook[]; validating: ConfiguredWebhook[] } {
    if (this.#hooks) return this.#hooks;
    const read = (key: string) => this.#store.list(key).map((o) => o.object());
    this.#hooks = { mutating: configuredWebhooks(read(MUTATING_KEY), true), validating: configuredWebhooks(read(VALIDATING_KEY), false) };
    return this.#hooks;
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** kube-apiserver's `NewInternalError`: 500, `Internal error occurred: …`, the message as the one cause. */
function internalError(message: string): StatusError {
  return new StatusError(500, "InternalError", `Internal error occurred: ${message}`, { causes: [{ message }] });
}

/**
 * A webhook's refusal as kube-apiserver answers it (`ToStatusErr`): its status code (at least
 * 400), its reason and details, and `admission webhook "<name>" denied the request: <message>`
 * (or `<reason>`, or `without explanation`).
 */
function denial(name: string, status: ReviewResponse["status"]): StatusError {
  const deniedBy = `admission webhook ${JSON.stringify(name)} denied the request`;
  const code = typeof status?.code === "number" && status.code >= 400 ? status.code : 400;
  const message = status?.message ? `${deniedBy}: ${status.message}` : status?.reason ? `${deniedBy}: ${status.reason}` : `${deniedBy} without explanation`;
  return new StatusError(code, (status?.reason || undefined) as string, message, status?.details ?? undefined);
}

/**
 * The `response` of an `admission.k8s.io/v1beta1` answer: kube-apiserver checks only that it
 * is there (neither uid nor kind, for backwards compatibility), and takes a patch without a
 * patchType as a JSON Patch.
 */
function reviewResponseV1beta1(answer: unknown): ReviewResponse {
  const response = (answer as { response?: ReviewResponse } | null)?.response;
  if (!response) throw new WebhookCallError("decode", "received invalid webhook response: webhook response was absent");
  const hasPatch = typeof response.patch === "string" && response.patch.length > 0;
  return hasPatch && !response.patchType ? { ...response, patchType: "JSONPatch" } : response;
}

/**
 * The `response` of an answer, checked as kube-apiserver's `VerifyAdmissionResponse` checks it:
 * kind, uid, and a patch with its patchType from mutating webhooks only.
 */
function reviewResponse(answer: unknown, uid: string, mutating: boolean): ReviewResponse {
  const review = answer as { apiVersion?: string; kind?: string; response?: ReviewResponse } | null;
  const invalid = (why: string) => new WebhookCallError("decode", `received invalid webhook response: ${why}`);
  if (!review?.response) throw invalid("webhook response was absent");
  if (review.response.uid !== uid) throw invalid(`expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(review.response.uid ?? "")}`);
  if (review.apiVersion !== "admission.k8s.io/v1" || review.kind !== "AdmissionReview") {
    throw invalid(`expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got ${review.apiVersion ?? ""}, Kind=${review.kind ?? ""}`);
  }
  const hasPatch = typeof review.response.patch === "string" && review.response.patch.length > 0;
  const hasPatchType = typeof review.response.patchType === "string" && review.response.patchType.length > 0;
  if (mutating && hasPatch && !hasPatchType) throw invalid("webhook returned response.patch but not response.patchType");
  if (mutating && !hasPatch && hasPatchType) throw invalid("webhook returned response.patchType but not response.patch");
  if (!mutating && hasPatch) throw invalid("validating webhook may not return response.patch");
  if (!mutating && hasPatchType) throw invalid("validating webhook may not return response.patchType");
  return review.response;
}
