/**
 * The fluent Builder: describe the objects a custom resource owns, then `reconcile()` makes the
 * cluster match (or `plan()` says what it would do).
 */
import type {
  V1ConfigMap, V1Deployment, V1PersistentVolumeClaim, V1Secret, V1Service, V1StatefulSet,
} from "@kubernetes/client-node";
import type { KubeObject } from "../client/types.ts";
import type { ModelObject, OnlyModel } from "../kinds/model-object.ts";
import type { ObjectInput } from "../kinds/kind.ts";
import type { Input } from "../kinds/plain.ts";
import type { KindRules } from "../../builders/index.ts";
import {
  configMapRules, customObjectRules, deploymentRules, secretRules, serviceRules, statefulSetRules, storageRules,
} from "../../builders/index.ts";
import type { BuilderResult } from "../controller/results.ts";
import { currentRunHooks } from "../controller/run-hooks.ts";
import { withInvalidTerminal } from "../controller/results.ts";
import { runPass } from "./reconcile-pass.ts";
import { checkObject } from "../util/check-args.ts";

export type { BuilderEventRecorder } from "../controller/event-notes.ts";

export type { BuilderEntry, BuilderOptions, ObjectOptions } from "./options.ts";
import type { BuilderEntry, BuilderOptions, ObjectOptions } from "./options.ts";

/**
 * Describes the objects a custom resource owns and reconciles them.
 *
 * Expected flow of `reconcile()`: validate everything (throwing one error that lists every
 * problem, before any request) → look up the scope of the kinds added with `.object()`
 * (discovery, cached; reads only) and check where those children may live → ConfigMaps/Secrets
 * → storage → workloads (each Deployment and StatefulSet gets one env var per referenced
 * ConfigMap/Secret holding the hash of its data, so config changes roll pods and unchanged
 * config leaves the template byte-identical; a workload whose ConfigMap/Secret of this pass
 * failed is held back, `waiting` on it, so its hash never describes config the cluster does
 * not hold) → Services → custom objects → prune. Every object
 * gets the owner as controller ownerReference (PersistentVolumeClaims only with
 * `persistentVolumeClaimRetention: "Delete"`), the common labels, the managed-by label, the
 * owner-UID label (`OWNER_UID_LABEL`) and the owner's shard bucket (`SHARD_BUCKET_LABEL`, so a
 * sharded replica's watch of its buckets' children sees it); the last three win over an
 * object's own labels. Children written before the shard-bucket label existed get it with one
 * apply on the next pass (their desired hash changed). PersistentVolumeClaims a StatefulSet
 * creates from `volumeClaimTemplates` are the StatefulSet controller's, not the Builder's: they
 * carry no such label.
 * An object that already exists is written only when the owner controls it: one with no
 * controller needs `adopt`, one another owner controls is never touched (`NotOwnedError`).
 *
 * Reads: the owner's live children are found without looking at other owners' objects. With
 * a reader that has an owner index (the informer `Cache`: see `OwnerIndexedReader`) every read
 * is an in-memory lookup and a steady state costs zero requests. From the API (the default
 * reader) the pass lists each kind it adds or prunes once, by the owner-UID label every child
 * carries (`operator-runtime.io/owner-uid`, which the API server filters on): a steady state
 * costs one list per kind. The kinds listed and pruned are only those named (see `manages`).
 * A ConfigMap or Secret a workload references and the pass does not add is read by name in
 * the workload's namespace: from a synced informer of the cache that holds it, else with one
 * GET (RBAC `get` on it: `.uses(Secret, { verbs: ["get"] })`), never through an informer of
 * every Secret.
 *
 * Concurrency: the objects of one phase are reconciled at once, up to `concurrency` (default
 * 8); a phase starts once every object of the previous one is done, and results keep the order
 * objects were added in.
 *
 * Guarantees: an object is written only when its desired hash changed or the live object no
 * longer holds every desired field (drift) — a steady state costs zero writes. Writes are
 * server-side apply with the field manager, so other managers' labels, annotations and
 * finalizers survive, and so do the list items they add (a non-controller owner reference, an
 * injected sidecar container, env var or volume): keyed lists are compared and corrected item
 * by item, by the kinds the live object's `managedFields` record. One failing object never stops the others; its error is in the result
 * and pruning is skipped for that pass. Pruning follows `prune()`'s rules (owner UID +
 * managed-by label + managed kind + not desired), never PersistentVolumeClaims unless asked.
 *
 * Errors: `reconcile()` and `plan()` reject with `BuilderValidationErrors` (one entry per
 * problem, each naming the field and the fix) when an input is misused, and nothing is
 * written. Most misuse is found before any request. Where a child may live is checked too, as
 * Kubernetes' garbage collector would delete a misplaced child right after each write: a
 * namespaced owner owns only namespaced objects in its own namespace (another
 * `metadata.namespace` or `namespace` option, or a cluster-scoped kind such as a Namespace or a
 * ClusterRole, is refused); a cluster-scoped owner may own both, and its namespaced children
 * need a namespace. For a kind added with `.object()` the scope is known only after discovery,
 * so that check rejects after the discovery reads, still before any write. A kind discovery
 * cannot find (a CRD not installed yet) is not misuse: that object is `failed` in the result.
 * A child the API server refuses as invalid (422: a field only it checks, such as a custom
 * resource's schema) is `failed` too, and by default terminal (`result.terminal`; see
 * `retryInvalid`).
 *
 * Caveats: an item of ours that another manager re-keys (renames our env var, changes our
 * Service port) is re-added, and the re-keyed item is theirs now and stays; where the API
 * server also wants another field unique (a Service port's `name`) the re-added item is
 * `failed` with its validation error until someone removes theirs.
 * A Builder is for one pass: build a new one per reconcile. Several Builders for one
 * owner need distinct `component` options, or they prune each other's objects.
 *
 * RBAC: list, create, patch, delete on every kind it adds or prunes (get, list, watch when it
 * reads through the cache); get on the ConfigMaps/Secrets its workloads reference and it does
 * not add; create/patch on events.
 *
 * @example
 * ```ts
 * import type { ConfigMap, PersistentVolumeClaim, Service, StatefulSet } from "operator-runtime";
 * import type { ObjectOf } from "operator-runtime/client";
 * declare const controllerConfig: ObjectOf<typeof ConfigMap>;
 * declare const controllerSts: ObjectOf<typeof StatefulSet>;
 * declare const controllerSvc: ObjectOf<typeof Service>;
 * declare const deepStoragePvc: ObjectOf<typeof PersistentVolumeClaim>;
 *
 * const result = await new Builder({ client, owner, recorder, fieldManager: "pinot-operator" })
 *   .configMap(controllerConfig)
 *   .statefulSet(controllerSts)      // gets the config hash env automatically
 *   .service(controllerSvc)
 *   .storage(deepStoragePvc)
 *   .reconcile();                    // or .plan() for a dry run
 * if (!result.ok) throw new AggregateError(result.errors);
 * ```
 */
export class Builder {
  readonly #options: BuilderOptions;
  readonly #entries: BuilderEntry[] = [];

  constructor(options: BuilderOptions) {
    checkObject("new Builder(options)", "options", options, "an options object ({ client, owner, … })");
    checkObject("new Builder(options)", "options.owner", options.owner, "a Kubernetes object (the owner, with metadata.uid)", "Pass the owner object as read from the API server, not its name or UID");
    this.#options = options.signal ? { ...options, client: options.client.withSignal(options.signal) } : options;
  }

  /**
   * Adds a ConfigMap (`v1`). Its data hash is injected into workloads that reference it.
   * Takes a literal checked against `V1ConfigMap` (apiVersion and kind may be left out, as in
   * every per-kind method; set to other values, they are a validation error) or a
   * client-node `V1ConfigMap`.
   */
  configMap(obj: Input<V1ConfigMap>, options: ObjectOptions = {}): this {
    return this.#add(configMapRules, obj, options, "configMap");
  }

  /** Adds a Secret (`v1`). `stringData` is folded into `data`; values never reach events. */
  secret(obj: Input<V1Secret>, options: ObjectOptions = {}): this {
    return this.#add(secretRules, obj, options, "secret");
  }

  /** Adds a Deployment (`apps/v1`) with config-hash env injection. */
  deployment(obj: Input<V1Deployment>, options: ObjectOptions = {}): this {
    return this.#add(deploymentRules, obj, options, "deployment");
  }

  /** Adds a StatefulSet (`apps/v1`) with config-hash env injection. */
  statefulSet(obj: Input<V1StatefulSet>, options: ObjectOptions = {}): this {
    return this.#add(statefulSetRules, obj, options, "statefulSet");
  }

  /** Adds a Service (`v1`). */
  service(obj: Input<V1Service>, options: ObjectOptions = {}): this {
    return this.#add(serviceRules, obj, options, "service");
  }

  /**
   * Adds a PersistentVolumeClaim (`v1`): data, never pruned unless `prune.persistentVolumeClaims`,
   * kept when the owner is deleted unless `persistentVolumeClaimRetention: "Delete"`, and never
   * deleted to re-create it while it is Bound.
   */
  storage(pvc: Input<V1PersistentVolumeClaim>, options: ObjectOptions = {}): this {
    return this.#add(storageRules, pvc, options, "storage");
  }

  /**
   * Adds any object (a custom resource or another built-in kind), reconciled after the rest.
   * It must set `apiVersion` and `kind` (a missing one is a validation error). A type
   * argument checks a literal: `.object<Greeting>({ … })`; typed objects (a `Greeting`, a
   * client-node `V1Job`) need none.
   */
  object<T extends KubeObject = KubeObject>(obj: ObjectInput<T>, options?: ObjectOptions): this;
  /** Adds a client-node model object (`V1Job`, …), reconciled after the rest. */
  object<M extends ModelObject>(obj: OnlyModel<M>, options?: ObjectOptions): this;
  object(obj: ModelObject, options: ObjectOptions = {}): this {
    // `?.`: an untyped caller may pass null; the pass reports it with the other problems.
    return this.#add(customObjectRules(obj?.apiVersion ?? "", obj?.kind ?? ""), obj, options, "object");
  }

  /** Makes the cluster match; see the class doc for the flow and guarantees. */
  async reconcile(): Promise<BuilderResult> {
    // In a dashboard plan of the reconcile, a Builder plans (see `RunHooks.plan`).
    return this.#pass(currentRunHooks()?.plan === true);
  }

  /** Says what `reconcile()` would do, reading only: the same result shape, nothing written. */
  async plan(): Promise<BuilderResult> {
    return this.#pass(true);
  }

  async #pass(dryRun: boolean): Promise<BuilderResult> {
    const result = withInvalidTerminal(await runPass(this.#options, this.#entries, dryRun), this.#options.retryInvalid === true);
    // The dashboard's owners tree shows what the last pass did with each child.
    currentRunHooks()?.builderResult?.(this.#options.owner as KubeObject, result);
    return result;
  }

  #add(rules: KindRules, obj: ModelObject, options: ObjectOptions, method: string): this {
    // Model objects differ from plain JSON only in Date timestamps, which JSON carries as strings.
    this.#entries.push({ rules, object: obj as KubeObject, options, method });
    return this;
  }
}
