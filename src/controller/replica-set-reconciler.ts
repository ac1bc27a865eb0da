/**
 * A variable set of interchangeable children (Pods, usually) with generated names: keeps
 * `replicas` of them from a template, the way Kubernetes' ReplicaSet controller does.
 */
import type { Kind, KindRef, KubeObject } from "../client/types.ts";
import type { ResourceClient } from "../client/resource-client.ts";
import type { ObjectMeta } from "../kinds/kube-object.ts";
import type { InformerSource } from "./controller.ts";
import { Expectations } from "./expectations.ts";
import { controllerOf, setControllerReference } from "./controller-ref.ts";
import { ApiError, BuilderValidationError, isNotFound } from "../errors.ts";
import { isControlledBy } from "./controller-ref.ts";
import { ownedIn } from "../cache/owner-index.ts";
import type { BuilderEventRecorder } from "./event-notes.ts";
import { EventNotes } from "./event-notes.ts";
import type { ObjectResult, BuilderResult } from "./results.ts";
import { summarize } from "./results.ts";
import { shardBucketLabels } from "../cache/shard-buckets.ts";
import { checkKindRef, checkObject } from "../util/check-args.ts";

/**
 * The label naming the set a member belongs to: `operator-runtime.io/replica-set: <set name>`.
 *
 * @example
 * ```ts
 * import { Pod } from "operator-runtime";
 *
 * const members = await cache.list(Pod, { namespace: "default", labelSelector: `${REPLICA_SET_LABEL}=replicas` });
 * ```
 */
export const REPLICA_SET_LABEL = "operator-runtime.io/replica-set";

/**
 * What every member is made from: the object without `apiVersion`, `kind`, `status` and
 * identity — for Pods, a PodTemplateSpec (`{ metadata: { labels }, spec }`).
 *
 * @example
 * ```ts
 * import type { Pod } from "operator-runtime";
 *
 * const template: ReplicaTemplate<Pod> = { metadata: { labels: { app: "web" } }, spec: { containers: [{ name: "web", image: "nginx" }] } };
 * ```
 */
export type ReplicaTemplate<T extends KubeObject> = Omit<T, "apiVersion" | "kind" | "metadata" | "status"> & {
  metadata?: Pick<ObjectMeta, "labels" | "annotations">;
};

/**
 * Options of {@link ReplicaSetReconciler}.
 *
 * @example
 * ```ts
 * import { Pod } from "operator-runtime";
 *
 * const options: ReplicaSetReconcilerOptions<Pod> = { kind: Pod, source: mgr.cache, name: "workers" };
 * ```
 */
export interface ReplicaSetReconcilerOptions<T extends KubeObject> {
  /** The members' kind (`Pod`). */
  kind: Kind<T>;
  /** Where the members are read from and their events observed: the Manager's `mgr.cache`. */
  source: InformerSource;
  /**
   * The set's name, the value of {@link REPLICA_SET_LABEL} on its members (default
   * `"replicas"`). One owner may have several sets with different names.
   */
  name?: string;
  /**
   * Tracks writes the cache has not shown yet (default: a new one, 5 min TTL). May be shared by
   * several sets and observed by you too: an Expectations subscribes once per informer (see
   * `Expectations.observe`), so sharing never counts one add twice.
   */
  expectations?: Expectations;
  /** Whether a member is ready (default: its `Ready` condition is `"True"`, as for Pods). */
  isReady?: (obj: T) => boolean;
  /** Which surplus members go first on scale-in (default {@link replicaDeletionOrder}). */
  deletionOrder?: (a: T, b: T, isReady: (obj: T) => boolean) => number;
}

/**
 * One pass of a {@link ReplicaSetReconciler}: the owner, how many members it wants and what
 * they look like.
 *
 * @example
 * ```ts
 * import type { CustomResource, Pod } from "operator-runtime";
 *
 * declare const podSet: CustomResource<{ replicas: number; template: ReplicaTemplate<Pod> }>; // as read from the API
 * const input: ReplicaSetInput<Pod> = { client, owner: podSet, replicas: podSet.spec.replicas, template: podSet.spec.template };
 * ```
 */
export interface ReplicaSetInput<T extends KubeObject> {
  /** Creates and deletes go through this client (a reconcile's `ctx.signal` applies with `signal`). */
  client: ResourceClient;
  /** The owner as read from the API (it needs its uid): every member gets it as controller. */
  owner: KubeObject;
  /** Desired number of members (an integer >= 0). */
  replicas: number;
  /** What a new member looks like; changing it does not touch existing members. */
  template: ReplicaTemplate<T>;
  /** Name prefix of new members (default: `<owner name>-`). */
  generateName?: string;
  /** Records `Created`/`Deleted`/`CreateFailed`/`DeleteFailed` events on the owner. */
  recorder?: BuilderEventRecorder;
  /** Aborts the pass: no further write is sent. */
  signal?: AbortSignal;
}

/**
 * The outcome of a {@link ReplicaSetReconciler} pass: a `BuilderResult` (one entry per
 * created, deleted or failed member; `waitingOn` when the pass waited for the cache) and the
 * counts for the owner's status.
 *
 * @example
 * ```ts
 * import { Pod, writeStatus } from "operator-runtime";
 * import type { CustomResource } from "operator-runtime";
 *
 * type PodSet = CustomResource<{ replicas: number; template: ReplicaTemplate<Pod> }, { replicas?: number; readyReplicas?: number }>;
 * declare const podSet: PodSet; // as read from the API
 * const pods = new ReplicaSetReconciler({ kind: Pod, source: mgr.cache });
 * const r: ReplicaSetResult<Pod> = await pods.reconcile({ client, owner: podSet, replicas: podSet.spec.replicas, template: podSet.spec.template });
 * await writeStatus(client, podSet, { replicas: r.replicas, readyReplicas: r.readyReplicas });
 * ```
 */
export interface ReplicaSetResult<T extends KubeObject> extends BuilderResult {
  /** The active members the cache showed at the start of the pass (not being deleted, not Succeeded/Failed). */
  readonly members: readonly T[];
  /** `members.length`. */
  readonly replicas: number;
  /** How many of `members` are ready. */
  readonly readyReplicas: number;
  /**
   * Set when the pass wrote nothing because the cache had not shown its earlier writes yet:
   * requeue after this many milliseconds (the expectations' time left); the watch events
   * usually trigger a reconcile sooner.
   */
  readonly requeueAfterMs?: number;
}

/**
 * Default readiness: a `Ready` condition with status `"True"` (Pods, and most custom kinds).
 *
 * @example
 * ```ts
 * import { Pod } from "operator-runtime";
 *
 * const ready = (await cache.list(Pod, { namespace: "default" })).filter(hasReadyCondition).length;
 * ```
 */
export function hasReadyCondition(obj: KubeObject): boolean {
  checkObject("hasReadyCondition(obj)", "obj", obj, "a Kubernetes object");
  const conditions = (obj.status as { conditions?: { type?: string; status?: string }[] } | undefined)?.conditions;
  return Array.isArray(conditions) && conditions.some((c) => c?.type === "Ready" && c.status === "True");
}

/**
 * The default scale-in order, first to go first: not yet scheduled or started (`Pending`, or a
 * Pod without a node), then not ready, then ready; within each, newest first (by
 * `creationTimestamp`), then by name so the order is stable.
 *
 * @example
 * ```ts
 * import type { Pod } from "operator-runtime";
 *
 * declare const members: Pod[]; // the set's active members
 * const replicas = 2;           // how many it should keep
 * const surplus = [...members].sort((a, b) => replicaDeletionOrder(a, b, hasReadyCondition)).slice(0, members.length - replicas);
 * ```
 */
export function replicaDeletionOrder<T extends KubeObject>(a: T, b: T, isReady: (obj: T) => boolean = hasReadyCondition): number {
  checkObject("replicaDeletionOrder(a, b)", "a", a, "a Kubernetes object");
  checkObject("replicaDeletionOrder(a, b)", "b", b, "a Kubernetes object");
  const rank = (o: T) => {
    const phase = (o.status as { phase?: unknown } | undefined)?.phase;
    const unscheduled = o.kind === "Pod" && !(o.spec as { nodeName?: unknown } | undefined)?.nodeName;
    if (phase === "Pending" || unscheduled) return 0;
    return isReady(o) ? 2 : 1;
  };
  const ta = a.metadata?.creationTimestamp ?? "";
  const tb = b.metadata?.creationTimestamp ?? "";
  const newer = ta === tb ? 0 : ta > tb ? -1 : 1;
  return rank(a) - rank(b) || newer || (a.metadata?.name ?? "").localeCompare(b.metadata?.name ?? "");
}

/** Whether a member counts: not being deleted and not finished. */
function isActive(obj: KubeObject): boolean {
  const phase = (obj.status as { phase?: unknown } | undefined)?.phase;
  return !obj.metadata?.deletionTimestamp && phase !== "Succeeded" && phase !== "Failed";
}

/**
 * Keeps `replicas` members of a kind (Pods) from a template for each owner, as Kubernetes'
 * ReplicaSet controller does: members get generated names (`generateName`), the owner as
 * controller reference, the label {@link REPLICA_SET_LABEL} and the owner's shard bucket
 * (`SHARD_BUCKET_LABEL`, so a sharded replica's watch of its buckets' Pods sees them; both win
 * over the template's labels); missing ones are created,
 * surplus ones deleted — not-ready first, then newest (see {@link replicaDeletionOrder}).
 *
 * Create one per controller, next to the Builder (`register` time, before the Manager starts),
 * and call {@link reconcile} in each reconcile. Why not a Builder method: a Builder lives for
 * one pass and names every object (server-side apply needs a name; its inventory and prune are
 * by name), while a set is counted, not named, and must remember across passes the writes its
 * cache has not shown yet ({@link Expectations}). The two compose: build the owner's
 * fixed-name children (a ConfigMap, a Service) with a Builder and its Pods with this.
 *
 * Expected flow of a pass: read the owner's members from the cache → if the cache has not yet
 * shown this set's last creates or deletes, write nothing (`waitingOn`, `requeueAfterMs`) →
 * else create the missing members (in batches of 1, 2, 4, …; the first failure stops the
 * rest; none while the owner is being deleted) or delete the surplus (uid precondition,
 * Background propagation) → report counts.
 *
 * Guarantees: never more creates than missing members, even when reconciles run on a cache
 * that lags behind (two quick passes never double-create, and a member deleted by hand is
 * replaced exactly once); scaling to 0 deletes every member; only objects this owner controls
 * that carry this set's label are counted or deleted — never another owner's, never a Builder's
 * (members carry no managed-by label, so a Builder never prunes them); existing members are
 * never updated: a template change applies to new members only; an owner with a
 * `deletionTimestamp` (a finalizer or foreground deletion holds it) gets no new members, as a
 * ReplicaSet being deleted gets no new Pods (surplus members are still deleted).
 *
 * Assumptions: the controller watches the members' kind (`.owns(Pod)`), so their events
 * trigger reconciles; `source` is the cache those events come from.
 * Caveats: members created before the shard-bucket label existed do not get it (members are
 * never updated, and the RBAC needs no patch): a sharded replica, which watches only labelled
 * members, would not count them and create more — before sharding, replace them (scale to 0
 * and back) or label each with its owner's bucket (`shardBucketLabels(owner)`). Members are
 * not adopted (an orphan with matching labels is left alone); finished members
 * (Succeeded/Failed) are not counted and not deleted, as a ReplicaSet leaves them to garbage
 * collection; expectations live in memory (see {@link Expectations}). A create that
 * failed with a timeout or an abort may still have happened on the server: its expectation is
 * not lowered (client-go does the same), so the owner waits for its add or for the TTL.
 * Errors: `reconcile` rejects with a `BuilderValidationError` for a bad `replicas` (terminal
 * in a controller) or an owner without identity; failed writes are `failed` results.
 *
 * RBAC: list, watch, create, delete on the members' kind; create/patch on events.
 *
 * @example
 * ```ts
 * import { Action, Pod, defineKind, writeStatus } from "operator-runtime";
 *
 * const PodSet = defineKind<{ replicas: number; template: ReplicaTemplate<Pod> }, { replicas?: number; readyReplicas?: number }>({
 *   apiVersion: "example.com/v1", kind: "PodSet",
 * });
 * const pods = new ReplicaSetReconciler({ kind: Pod, source: mgr.cache });
 * mgr.controller("podset").for(PodSet).owns(Pod).reconcile(async (req, ctx) => {
 *   const set = mgr.cache.informer(PodSet).get(req.name, req.namespace);
 *   if (!set) return Action.done(); // deleted: the garbage collector deletes its pods
 *   // A set being deleted (deletionTimestamp) gets no new pods; its counts are still reported.
 *   const r = await pods.reconcile({ client: mgr.client, owner: set, replicas: set.spec.replicas, template: set.spec.template, signal: ctx.signal });
 *   if (!r.ok) throw new AggregateError(r.errors);
 *   await writeStatus(mgr.client, set, { replicas: r.replicas, readyReplicas: r.readyReplicas });
 *   return r.requeueAfterMs !== undefined ? Action.requeueAfter(r.requeueAfterMs) : Action.done();
 * });
 * ```
 */
export class ReplicaSetReconciler<T extends KubeObject> {
  /** The set's name ({@link REPLICA_SET_LABEL} value). */
  readonly name: string;
  /** The expectations this set raises and its informer lowers. */
  readonly expectations: Expectations;
  readonly #kind: Kind<T>;
  readonly #source: InformerSource;
  readonly #isReady: (obj: T) => boolean;
  readonly #order: (a: T, b: T, isReady: (obj: T) => boolean) => number;

  constructor(options: ReplicaSetReconcilerOptions<T>) {
    checkObject("new ReplicaSetReconciler(options)", "options", options, "an options object ({ client, source, kind, … })");
    checkKindRef("new ReplicaSetReconciler(options)", "options.kind", options.kind);
    this.name = options.name ?? "replicas";
    this.#kind = options.kind;
    this.#source = options.source;
    this.expectations = options.expectations ?? new Expectations();
    this.#isReady = options.isReady ?? hasReadyCondition;
    this.#order = options.deletionOrder ?? replicaDeletionOrder;
    const informer = this.#source.informer(this.#kind);
    this.expectations.observe(informer, (obj) => this.#keyOfMember(obj));
  }

  /** Makes the owner's set match `input.replicas`; see the class doc for the flow. */
  async reconcile(input: ReplicaSetInput<T>): Promise<ReplicaSetResult<T>> {
    checkObject("ReplicaSetReconciler.reconcile(input)", "input", input, "an input object ({ owner, replicas, template })");
    checkObject("ReplicaSetReconciler.reconcile(input)", "input.owner", input.owner, "a Kubernetes object (the owner, with metadata.uid)", "Pass the owner object as read from the API server, not its name or UID");
    const { owner, replicas } = input;
    if (!(Number.isInteger(replicas) && replicas >= 0)) {
      throw new BuilderValidationError(`ReplicaSetReconciler ${this.name}`, "replicas", `is ${JSON.stringify(replicas)}, not an integer >= 0`, "pass the desired number of members, e.g. spec.replicas (0 deletes every member)");
    }
    const uid = owner.metadata?.uid;
    if (!uid || !owner.metadata?.name) {
      throw new BuilderValidationError(`ReplicaSetReconciler ${this.name}`, "owner", "has no metadata.uid or metadata.name", "pass the owner as read from the API server");
    }
    const client = input.signal ? input.client.withSignal(input.signal) : input.client;
    const namespace = owner.metadata.namespace;
    const informer = this.#source.informer(this.#kind);
    if (!informer.hasSynced()) await informer.synced();
    // Through the informer's owner index: the cost follows this owner's members, not the namespace's objects.
    const members = ownedIn(informer, uid, namespace)
      .filter((o) => isControlledBy(o, owner) && o.metadata?.labels?.[REPLICA_SET_LABEL] === this.name && isActive(o));
    const readyReplicas = members.filter((m) => this.#isReady(m)).length;
    const counts = { members, replicas: members.length, readyReplicas };

    const key = this.#key(uid);
    const pending = this.expectations.pending(key);
    if (pending) {
      const what = [pending.creations && `${pending.creations} creation(s)`, pending.deletions && `${pending.deletions} deletion(s)`].filter(Boolean).join(" and ");
      return { ...summarize([], { dryRun: false, waitingOn: `the cache to show ${what} of ${this.#kind.kind} objects` }), ...counts, requeueAfterMs: pending.expiresInMs };
    }
    const notes = new EventNotes(input.recorder, owner);
    if (replicas > members.length && owner.metadata.deletionTimestamp) {
      // Being deleted: new members would only be garbage collected (a ReplicaSet does the same).
      return { ...summarize([], { dryRun: false }), ...counts };
    }
    const results = replicas > members.length
      ? await this.#create(client, input, namespace, key, replicas - members.length, notes)
      : await this.#delete(client, key, [...members].sort((a, b) => this.#order(a, b, this.#isReady)).slice(0, members.length - replicas), notes);
    return { ...summarize(results, { dryRun: false }), ...counts };
  }

  /** Creates `count` members in growing batches; a failure stops the rest. */
  async #create(client: ResourceClient, input: ReplicaSetInput<T>, namespace: string | undefined, key: string, count: number, notes: EventNotes): Promise<ObjectResult[]> {
    const desired = this.#member(input, namespace);
    const results: ObjectResult[] = [];
    this.expectations.expectCreations(key, count);
    let left = count;
    for (let batch = 1; left > 0; batch *= 2) {
      if (input.signal?.aborted) {
        // Aborted between batches: the rest is never sent.
        for (let i = 0; i < left; i++) this.expectations.creationObserved(key);
        results.push({ ...refOf(desired, this.#kind), action: "failed", error: input.signal.reason as Error });
        break;
      }
      const size = Math.min(batch, left);
      left -= size;
      const outcomes = await Promise.allSettled(Array.from({ length: size }, () => client.create(structuredClone(desired))));
      let failed = false;
      for (const o of outcomes) {
        if (o.status === "fulfilled") {
          results.push({ ...refOf(o.value, this.#kind), action: "created" });
          await notes.changed(o.value, "Created");
        } else {
          failed = true;
          const error = o.reason as Error;
          // A create that timed out or was aborted may have happened: wait for its add (or the TTL).
          if (!mayHaveHappened(error, input.signal)) this.expectations.creationObserved(key); // never to be seen
          results.push({ ...refOf(desired, this.#kind), action: "failed", error });
          await notes.failed(desired, "Create", error, false);
        }
      }
      if (failed) {
        for (let i = 0; i < left; i++) this.expectations.creationObserved(key);
        break;
      }
    }
    return results;
  }

  /** Deletes the given members (uid precondition); a member already gone counts as deleted. */
  async #delete(client: ResourceClient, key: string, surplus: T[], notes: EventNotes): Promise<ObjectResult[]> {
    const uids = surplus.map((o) => o.metadata!.uid!);
    this.expectations.expectDeletions(key, uids);
    const outcomes = await Promise.allSettled(surplus.map((o) => client.delete(
      { apiVersion: this.#kind.apiVersion, kind: this.#kind.kind, name: o.metadata!.name!, ...(o.metadata?.namespace ? { namespace: o.metadata.namespace } : {}) },
      { propagationPolicy: "Background", preconditions: { uid: o.metadata!.uid! } },
    )));
    const results: ObjectResult[] = [];
    for (const [i, o] of outcomes.entries()) {
      const obj = surplus[i]!;
      const ref = refOf(obj, this.#kind);
      const why = this.#isReady(obj) ? "scaled in" : "scaled in (not ready)";
      if (o.status === "fulfilled") {
        results.push({ ...ref, action: "deleted", reason: why });
        await notes.deleted(obj, why);
      } else if (isNotFound(o.reason)) {
        this.expectations.deletionObserved(key, obj.metadata!.uid!);
        results.push({ ...ref, action: "deleted", reason: "already gone" });
      } else {
        this.expectations.deletionObserved(key, obj.metadata!.uid!);
        results.push({ ...ref, action: "failed", error: o.reason as Error });
        await notes.failed(obj, "Delete", o.reason as Error, false);
      }
    }
    return results;
  }

  /** A new member: the template with generateName, namespace, the set and shard-bucket labels and the controller reference. */
  #member(input: ReplicaSetInput<T>, namespace: string | undefined): KubeObject {
    const { metadata, ...rest } = structuredClone(input.template) as ReplicaTemplate<T> & Record<string, unknown>;
    const obj: KubeObject = {
      ...rest,
      apiVersion: this.#kind.apiVersion,
      kind: this.#kind.kind,
      metadata: {
        generateName: input.generateName ?? `${input.owner.metadata!.name}-`,
        ...(namespace ? { namespace } : {}),
        labels: { ...metadata?.labels, [REPLICA_SET_LABEL]: this.name, ...shardBucketLabels(input.owner) },
        ...(metadata?.annotations ? { annotations: { ...metadata.annotations } } : {}),
      },
    };
    delete obj.status;
    return setControllerReference(input.owner, obj);
  }

  #key(ownerUid: string): string {
    return `${ownerUid}/${this.name}`;
  }

  #keyOfMember(obj: KubeObject): string | undefined {
    const uid = controllerOf(obj)?.uid;
    const set = obj.metadata?.labels?.[REPLICA_SET_LABEL];
    return uid && set !== undefined ? `${uid}/${set}` : undefined;
  }
}

/**
 * Whether a failed write may still have happened on the server: the request was aborted or
 * timed out (ours, or the server's 504 Timeout) after it may have been sent.
 */
function mayHaveHappened(err: unknown, signal: AbortSignal | undefined): boolean {
  // The server answered: a definite failure, unless it timed out itself (504 Timeout).
  if (err instanceof ApiError) return err.code === 504 || err.reason === "Timeout";
  if (signal?.aborted) return true;
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const name = (e as { name?: unknown }).name;
    if (name === "TimeoutError" || name === "AbortError") return true;
  }
  return false;
}

function refOf(obj: KubeObject, kind: KindRef): Omit<ObjectResult, "action"> {
  const m = obj.metadata ?? {};
  return { apiVersion: kind.apiVersion, kind: kind.kind, name: m.name ?? m.generateName ?? "", ...(m.namespace ? { namespace: m.namespace } : {}) };
}
