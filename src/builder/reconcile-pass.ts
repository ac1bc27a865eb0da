/**
 * One Builder pass: validate, prepare desired objects, reconcile them phase by phase, gate
 * ordered rollouts, and prune — or, for a plan, decide all of it without writing.
 */
import type { KindRef, KubeObject, ObjectRef } from "../client/types.ts";
import { appliedKinds, appliedKindsKey, forgetAppliedKind, rememberAppliedKinds } from "./applied-kinds.ts";
import { AlreadyExistsError, BuilderValidationError, BuilderValidationErrors, OperatorRuntimeError } from "../errors.ts";
import { DesiredInventory } from "./desired-inventory.ts";
import { pruneOwned } from "./prune.ts";
import { OwnedObjects } from "./owned-objects.ts";
import { mapBounded } from "../util/map-bounded.ts";
import type { BuilderEntry, BuilderOptions } from "./options.ts";
import { COMPONENT_LABEL, controllerReference, DESIRED_HASH_ANNOTATION, isSubset, MANAGED_BY_LABEL, prepareDesired, stampDesiredHash } from "./desired.ts";
import type { ObjectResult, BuilderResult } from "../controller/results.ts";
import { describeObject, summarize } from "../controller/results.ts";
import { scalarComparer } from "./scalars.ts";
import { EventNotes } from "../controller/event-notes.ts";
import { ConfigOutcomes, configReader, withLiveConfigHashes } from "./config-hashes.ts";
import type { ConfigReader } from "./config-hashes.ts";
import { ownedKindsFor } from "../controller/reconcile-scope.ts";
import { driftPatch } from "./drift.ts";
import { applyOwned } from "./field-ownership.ts";
import { compareWithLive, listKindsFor } from "./live-lists.ts";
import { knownScope, placementProblems } from "./ownership.ts";
import { validateEntries } from "./validate-entries.ts";
import { controlOf, notOwned } from "./control.ts";

const PHASES = ["config", "storage", "workload", "service", "custom"] as const;
/** Objects of one phase written at once by default (`BuilderOptions.concurrency`). */
export const DEFAULT_CONCURRENCY = 8;
interface Prepared {
  entry: BuilderEntry;
  desired: KubeObject;
  ref: ObjectRef;
}

/** Runs one pass; `dryRun` decides without writing. */
export async function runPass(options: BuilderOptions, entries: readonly BuilderEntry[], dryRun: boolean): Promise<BuilderResult> {
  const client = options.client;
  const reader = options.reader ?? client.reader();
  const fieldManager = options.fieldManager ?? client.fieldManager;
  const ownerRef = controllerReference(options.owner);
  const namespace = options.namespace ?? options.owner.metadata?.namespace;

  // 1. Validate everything before any request.
  const validated = validateEntries(options, entries);
  if (validated.problems.length) throw new BuilderValidationErrors(validated.problems);
  if (ownerRef instanceof BuilderValidationError) throw ownerRef;

  // 2. The scope of kinds the Builder does not know (discovery reads); children placed where
  // their owner reference would not hold are misuse too, refused before any write.
  const results: ObjectResult[] = [];
  const scoped: { entry: BuilderEntry; namespaced: boolean }[] = [];
  const placement: BuilderValidationError[] = [];
  for (const e of validated.entries) {
    let namespaced = knownScope(e.object);
    if (namespaced === undefined) {
      try {
        namespaced = (await client.resourceFor({ apiVersion: e.object.apiVersion!, kind: e.object.kind! })).namespaced;
      } catch (err) {
        results.push({ ...refOf(e.object, namespace), action: "failed", error: err as Error });
        continue;
      }
      placement.push(...placementProblems(options.owner, e.object, namespaced, options.namespace));
    }
    scoped.push({ entry: e, namespaced });
  }
  if (placement.length) throw new BuilderValidationErrors(placement);

  const prepared: Prepared[] = scoped.map(({ entry, namespaced }) => {
    const desired = prepareDesired(entry.object, {
      ownerRef, labels: options.labels ?? {}, managedBy: fieldManager, namespace, namespaced,
      retainPersistentVolumeClaims: options.persistentVolumeClaimRetention !== "Delete", component: options.component,
    });
    return { entry, desired, ref: refOf(desired, desired.metadata?.namespace) };
  });

  // 3. This owner's live children: one list per kind by the owner-UID label from the API (what
  // prune needs too), nothing but index lookups from a cache; never other owners' objects.
  const ownerUid = options.owner.metadata?.uid;
  const managedBy = { key: MANAGED_BY_LABEL, value: fieldManager };
  const component = { key: COMPONENT_LABEL, value: options.component };
  // The owner's children are looked for where they can be: in a namespaced owner's namespace, or
  // in every namespace for a cluster-scoped owner (whose `namespace` option is only the default).
  const childScope = options.owner.metadata?.namespace;
  const owned = new OwnedObjects({ reader, owner: options.owner, namespace: childScope });
  const added = prepared.map((p) => ({ apiVersion: p.ref.apiVersion, kind: p.ref.kind }));
  const appliedKey = ownerUid ? appliedKindsKey(ownerUid, fieldManager, options.component) : undefined;
  const prunePvcs = options.prune !== false && options.prune?.persistentVolumeClaims === true;
  const remembered = appliedKey ? appliedKinds(appliedKey) : [];
  // Named kinds: those of this pass, `manages`, and those the controller running it owns.
  const named = [...added, ...(options.manages ?? []), ...ownedKindsFor(options.owner)];
  const pruneKinds = uniqueKinds([...named, ...remembered])
    .filter((k) => prunePvcs || !(k.kind === "PersistentVolumeClaim" && k.apiVersion === "v1"));
  owned.prefetch(uniqueKinds([...added, ...(options.prune === false ? [] : pruneKinds)]));

  // 4. Config hashes for workloads: this pass's ConfigMaps/Secrets once they reconciled, else the live ones.
  const configs = new ConfigOutcomes();
  const readConfig = configReader(reader, client);
  for (const p of prepared) if (p.entry.rules.phase === "config") configs.desire(p.desired, p.ref.namespace);

  // 5. Reconcile phase by phase; the objects of a phase at once (up to `concurrency`), except
  // gated workloads, which roll out one after another.
  const notes = new EventNotes(options.recorder, options.owner);
  const ctx: PassContext = { options, fieldManager, owned, dryRun, notes };
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  let blockedBy: string | undefined;
  for (const phase of PHASES) {
    const inPhase = prepared.filter((x) => x.entry.rules.phase === phase);
    if (phase === "workload" && options.orderedRollout === true) {
      for (const p of inPhase) {
        if (blockedBy) {
          results.push({ ...p.ref, action: "waiting", reason: `waiting for ${blockedBy}` });
          continue;
        }
        const { result, live } = await reconcileWorkload(p, configs, readConfig, ctx);
        results.push(result);
        blockedBy = gateAfter(p, result, live);
      }
      continue;
    }
    const phaseResults = await mapBounded(inPhase, concurrency, async (p) =>
      (phase === "workload" ? await reconcileWorkload(p, configs, readConfig, ctx) : await reconcileOne(p, ctx)).result);
    results.push(...phaseResults);
    if (phase === "config") for (const r of phaseResults) configs.reconciled(r);
  }

  // 6. Prune, only when every object succeeded.
  const notDone = results.filter((r) => r.action === "failed" || r.action === "waiting");
  let pruneSkipped: string | undefined;
  if (options.prune === false) pruneSkipped = "pruning is turned off";
  else if (notDone.length) pruneSkipped = `${notDone.length} object(s) did not reconcile: ${notDone.map(describeObject).join(", ")}`;
  else {
    const store = new DesiredInventory();
    for (const p of prepared) store.add(p.desired);
    // Kinds earlier passes of this process applied for this owner: pruned even when this pass adds none.
    if (appliedKey && !dryRun) rememberAppliedKinds(appliedKey, added);
    results.push(...(await pruneOwned({
      reader, deleter: client, owner: options.owner, managedBy, component, kinds: pruneKinds, namespace: childScope, store,
      persistentVolumeClaims: prunePvcs, dryRun,
      onDeleted: (obj) => notes.deleted(obj),
    }, owned, (kind) => {
      // A kind only remembered from earlier passes whose resource is gone (its CRD removed): forgotten.
      if (named.some((k) => k.apiVersion === kind.apiVersion && k.kind === kind.kind) || !appliedKey) return false;
      if (!dryRun) forgetAppliedKind(appliedKey, kind);
      return true;
    })));
  }
  return summarize(results, { dryRun, pruneSkipped, waitingOn: blockedBy });
}

interface PassContext {
  options: BuilderOptions;
  fieldManager: string;
  /** Where live children are read (this pass's lists, or the reader). */
  owned: OwnedObjects;
  dryRun: boolean;
  notes: EventNotes;
}

/** A workload with its config hashes, or the result that holds it back this pass. */
async function reconcileWorkload(p: Prepared, configs: ConfigOutcomes, readConfig: ConfigReader, ctx: PassContext): Promise<{ result: ObjectResult; live: KubeObject | undefined }> {
  const hashed = await withLiveConfigHashes(p.desired, p.ref, configs, readConfig);
  if ("held" in hashed) return { result: hashed.held, live: undefined };
  p.desired = hashed.object;
  return reconcileOne(p, ctx);
}

async function reconcileOne(p: Prepared, ctx: PassContext): Promise<{ result: ObjectResult; live: KubeObject | undefined }> {
  const { desired, ref, entry } = p;
  const client = ctx.options.client;
  let live: KubeObject | undefined;
  try {
    const found = await ctx.owned.get(ref);
    live = found.live;
    // A plan cannot meet a refused create: it reads by name what the owner's list did not hold.
    if (!live && found.listed && ctx.dryRun) live = await client.reader().get(ref);
  } catch (err) {
    return { result: { ...ref, action: "failed", error: err as Error }, live };
  }
  if (!live && !ctx.dryRun) {
    const created = await createChild(p, ctx);
    if ("result" in created) return created;
    live = created.existing;
  }
  if (live?.metadata?.deletionTimestamp) return { result: { ...ref, action: "waiting", reason: "the live object is being deleted" }, live };
  let adopting = false;
  if (live) {
    const control = controlOf(live, ref.kind, ctx.options.owner, { key: MANAGED_BY_LABEL, value: ctx.fieldManager });
    adopting = control === "nobody" && (entry.options.adopt ?? ctx.options.adopt ?? false);
    if (control === "another" || (control === "nobody" && !adopting)) {
      const error = notOwned(live, describeObject(ref), entry.method, ctx.options.owner);
      await ctx.notes.notOwned(desired, error, ctx.dryRun);
      return { result: { ...ref, action: "failed", error }, live };
    }
    const theirs = live.metadata?.labels?.[COMPONENT_LABEL];
    if (control === "owner" && theirs !== undefined && theirs !== ctx.options.component) {
      const mine = ctx.options.component === undefined ? "this Builder has no component" : `this Builder is component ${JSON.stringify(ctx.options.component)}`;
      const error = new OperatorRuntimeError(`${describeObject(ref)} belongs to component ${JSON.stringify(theirs)} of the same ${ctx.options.owner.kind}, but ${mine}: two Builders of one owner would overwrite and prune each other's objects. Fix: add each object to one Builder only`);
      await ctx.notes.failed(desired, "Update", error, ctx.dryRun);
      return { result: { ...ref, action: "failed", error }, live };
    }
  }
  const hash = stampDesiredHash(desired);
  const same = scalarComparer(desired.apiVersion);
  const sameHash = live?.metadata?.annotations?.[DESIRED_HASH_ANNOTATION] === hash;
  if (live && sameHash) {
    // A lean cached copy has no managedFields: compareWithLive reads the object only if its lists decide.
    const compared = await compareWithLive(desired, live, same, { client, ref });
    live = compared.live;
    if (compared.unchanged) return { result: { ...ref, action: "unchanged" }, live };
  }
  const reason = !live ? undefined : adopting ? "adopted: it had no controller" : sameHash ? "the live object drifted from the desired state" : "the desired state changed";

  const immutable = live ? (entry.rules.immutableChanges?.(live, desired) ?? []) : [];
  if (live && immutable.length) {
    if (!entry.options.recreateOnImmutableChange) {
      const error = new OperatorRuntimeError(`${describeObject(ref)}: ${immutable.join(", ")} cannot be changed on an existing object. Fix: keep the old value, or add it with { recreateOnImmutableChange: true } to delete and re-create it`);
      await ctx.notes.failed(desired, "Update", error, ctx.dryRun);
      return { result: { ...ref, action: "failed", error }, live };
    }
    if (ref.kind === "PersistentVolumeClaim" && (live.status as { phase?: unknown } | undefined)?.phase === "Bound") {
      const error = new OperatorRuntimeError(`${describeObject(ref)}: ${immutable.join(", ")} cannot be changed on an existing claim, and a Bound claim holds data, so it is never deleted to re-create it. Fix: keep the old value, or move the data to a claim with a new name and delete this one yourself`);
      await ctx.notes.failed(desired, "Update", error, ctx.dryRun);
      return { result: { ...ref, action: "failed", error }, live };
    }
    const recreateReason = `re-created: ${immutable.join(", ")} changed`;
    if (ctx.dryRun) return { result: { ...ref, action: "updated", reason: recreateReason }, live };
    try {
      const workload = entry.rules.phase === "workload";
      await client.delete(ref, { propagationPolicy: workload ? "Orphan" : "Background", preconditions: { uid: live.metadata!.uid!, resourceVersion: live.metadata!.resourceVersion! } });
      const still = await client.reader().get(ref);
      if (still) return { result: { ...ref, action: "waiting", reason: `re-creating: waiting for the old object to be deleted (${immutable.join(", ")} changed)` }, live };
      // A create, never an apply: an object someone else made in the meantime is not taken over
      // (409 AlreadyExists fails this pass; the next one reports it NotOwned).
      const created = await client.create(desired, { fieldManager: ctx.fieldManager });
      await ctx.notes.changed(desired, "Updated", recreateReason);
      return { result: { ...ref, action: "updated", reason: recreateReason }, live: created };
    } catch (err) {
      await ctx.notes.failed(desired, "Update", err as Error, false);
      return { result: { ...ref, action: "failed", error: err as Error }, live };
    }
  }

  const action = live ? "updated" : "created";
  if (ctx.dryRun || !live) return { result: { ...ref, action, ...(reason ? { reason } : {}) }, live };
  try {
    let applied = await applyOwned(client, ref, desired, live, { fieldManager: ctx.fieldManager, force: ctx.options.force ?? true });
    const lists = listKindsFor(client, applied);
    if (!isSubset(desired, applied, same, lists)) {
      // What the apply did not undo (a list no manager records a kind for): correct our own items only.
      const ops = driftPatch(desired, applied, same, lists);
      if (ops.length) applied = await client.patch(ref, ops, "json", { fieldManager: ctx.fieldManager });
    }
    await ctx.notes.changed(desired, "Updated", reason);
    return { result: { ...ref, action, ...(reason ? { reason } : {}) }, live: applied };
  } catch (err) {
    await ctx.notes.failed(desired, "Update", err as Error, false);
    return { result: { ...ref, action: "failed", error: err as Error }, live };
  }
}

/**
 * Creates a child absent from the owner's objects (POST: no read first). When the name is
 * taken (AlreadyExists: another's object, or one of ours without the owner-UID label), answers
 * the object holding it, read by name, for the usual control checks.
 */
async function createChild(p: Prepared, ctx: PassContext): Promise<{ result: ObjectResult; live: KubeObject | undefined } | { existing: KubeObject }> {
  const { desired, ref } = p;
  const client = ctx.options.client;
  stampDesiredHash(desired);
  let error: Error;
  try {
    const created = await client.create(desired, { fieldManager: ctx.fieldManager });
    await ctx.notes.changed(desired, "Created", undefined);
    return { result: { ...ref, action: "created" }, live: created };
  } catch (err) {
    error = err as Error;
  }
  if (error instanceof AlreadyExistsError) {
    try {
      const existing = await client.reader().get(ref);
      if (existing) return { existing };
    } catch (err) {
      return { result: { ...ref, action: "failed", error: err as Error }, live: undefined };
    }
  }
  await ctx.notes.failed(desired, "Create", error, false);
  return { result: { ...ref, action: "failed", error }, live: undefined };
}

/** After a gated workload: what later workloads wait on (undefined when it is rolled out). */
function gateAfter(p: Prepared, result: ObjectResult, live: KubeObject | undefined): string | undefined {
  const name = describeObject(p.ref);
  if (result.action === "failed" || result.action === "waiting") return `${name} (${result.action})`;
  if (result.action === "created" || result.action === "updated") return `${name}: rolling out the new spec`;
  const status = live ? p.entry.rules.rolloutStatus?.(live) : undefined;
  if (status && !status.done) return `${name}: ${status.waitingOn ?? "not rolled out"}`;
  return undefined;
}

function refOf(obj: KubeObject, namespace: string | undefined): ObjectRef {
  return {
    apiVersion: obj.apiVersion ?? "", kind: obj.kind ?? "", name: obj.metadata?.name ?? "",
    ...(namespace ?? obj.metadata?.namespace ? { namespace: (namespace ?? obj.metadata?.namespace)! } : {}),
  };
}

function uniqueKinds(kinds: KindRef[]): KindRef[] {
  const seen = new Map<string, KindRef>();
  for (const k of kinds) seen.set(`${k.apiVersion}/${k.kind}`, k);
  return [...seen.values()];
}
