/**
 * One Builder pass, top to bottom. Each numbered step is one function below, in this order:
 *
 * 1. {@link validate}: every entry and option checked before any request (misuse throws).
 * 2. {@link place}: each child's scope (discovery for kinds the Builder does not know) and where
 *    its owner reference holds; the desired object each entry becomes.
 * 3. {@link findOwned}: the owner's live children (one list per kind, or cache lookups) and the
 *    kinds a prune looks at.
 * 4. {@link desireConfigs}: the ConfigMaps and Secrets whose hashes go into workloads.
 * 5. {@link reconcilePhases}: config → storage → workload → service → custom; each object through
 *    {@link reconcileOne} (read, create, control checks, unchanged?, re-create, apply).
 * 6. {@link pruneStep}: what is no longer desired, only when every object reconciled.
 */
import type { KindRef, KubeObject, ObjectReader, ObjectRef, OwnerReference } from "../client/types.ts";
import { appliedKinds, appliedKindsKey, forgetAppliedKind, rememberAppliedKinds } from "./applied-kinds.ts";
import { AlreadyExistsError, BuilderValidationError, BuilderValidationErrors, OperatorRuntimeError } from "../errors.ts";
import { DesiredInventory } from "./desired-inventory.ts";
import { pruneOwned } from "./prune.ts";
import { OwnedObjects } from "./owned-objects.ts";
import { mapBounded } from "../util/map-bounded.ts";
import type { BuilderEntry, BuilderOptions } from "./options.ts";
import { COMPONENT_LABEL, controllerReference, DESIRED_HASH_ANNOTATION, isSubset, MANAGED_BY_LABEL, prepareDesired, stampDesiredHash } from "./desired.ts";
import type { ObjectResult, BuilderResult } from "../controller/results.ts";
import { currentRunHooks } from "../controller/run-hooks.ts";
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

/** What every step of one pass reads. */
interface Pass {
  options: BuilderOptions;
  dryRun: boolean;
  client: BuilderOptions["client"];
  reader: ObjectReader;
  fieldManager: string;
  /** The owner's namespace, or the `namespace` option: where namespaced children go by default. */
  namespace: string | undefined;
  /** Per-object outcomes in pass order (failures of step 2 first). */
  results: ObjectResult[];
}

/** Runs one pass; `dryRun` decides without writing. */
export async function runPass(options: BuilderOptions, entries: readonly BuilderEntry[], dryRun: boolean): Promise<BuilderResult> {
  const client = options.client;
  const pass: Pass = {
    options, dryRun, client, reader: options.reader ?? client.reader(), fieldManager: options.fieldManager ?? client.fieldManager,
    namespace: options.namespace ?? options.owner.metadata?.namespace, results: [],
  };
  const valid = validate(pass, entries);                          // 1
  const prepared = await place(pass, valid);                      // 2
  const owned = findOwned(pass, prepared);                        // 3
  const configs = desireConfigs(prepared);                        // 4
  const notes = new EventNotes(options.recorder, options.owner);
  const blockedBy = await reconcilePhases(pass, prepared, configs, { options, fieldManager: pass.fieldManager, owned: owned.reads, dryRun, notes }); // 5
  const pruneSkipped = await pruneStep(pass, prepared, owned, notes); // 6
  return summarize(pass.results, { dryRun, pruneSkipped, waitingOn: blockedBy });
}

/** Step 1: every entry and option, before any request. Throws the problems found, all at once. */
function validate(pass: Pass, entries: readonly BuilderEntry[]): { entries: BuilderEntry[]; ownerRef: OwnerReference } {
  const validated = validateEntries(pass.options, entries);
  if (validated.problems.length) throw new BuilderValidationErrors(validated.problems);
  const ownerRef = controllerReference(pass.options.owner);
  if (ownerRef instanceof BuilderValidationError) throw ownerRef;
  return { entries: validated.entries, ownerRef };
}

/**
 * Step 2: the scope of kinds the Builder does not know (discovery reads; a kind discovery cannot
 * find is a failed object, not misuse); children placed where their owner reference would not
 * hold are misuse, refused before any write. Answers the desired object of each entry.
 */
async function place(pass: Pass, valid: { entries: BuilderEntry[]; ownerRef: OwnerReference }): Promise<Prepared[]> {
  const { options, client, namespace } = pass;
  const scoped: { entry: BuilderEntry; namespaced: boolean }[] = [];
  const placement: BuilderValidationError[] = [];
  for (const e of valid.entries) {
    let namespaced = knownScope(e.object);
    if (namespaced === undefined) {
      try {
        namespaced = (await client.resourceFor({ apiVersion: e.object.apiVersion!, kind: e.object.kind! })).namespaced;
      } catch (err) {
        pass.results.push({ ...refOf(e.object, namespace), action: "failed", error: err as Error });
        continue;
      }
      placement.push(...placementProblems(options.owner, e.object, namespaced, options.namespace));
    }
    scoped.push({ entry: e, namespaced });
  }
  if (placement.length) throw new BuilderValidationErrors(placement);
  return scoped.map(({ entry, namespaced }) => {
    const desired = prepareDesired(entry.object, {
      ownerRef: valid.ownerRef, labels: options.labels ?? {}, managedBy: pass.fieldManager, namespace, namespaced,
      retainPersistentVolumeClaims: options.persistentVolumeClaimRetention !== "Delete", component: options.component,
    });
    return { entry, desired, ref: refOf(desired, desired.metadata?.namespace) };
  });
}

/** What step 3 found: where the owner's children are read, and what a prune looks at. */
interface Owned {
  reads: OwnedObjects;
  /** The kinds of this pass's objects. */
  added: KindRef[];
  /** Kinds named by this pass, `manages`, and the controller running it. */
  named: KindRef[];
  pruneKinds: KindRef[];
  prunePvcs: boolean;
  /** Where this process remembers the kinds it applied for the owner, if the owner has a UID. */
  appliedKey: string | undefined;
  /** Where the children are looked for: a namespaced owner's namespace, else everywhere. */
  childScope: string | undefined;
}

/**
 * Step 3: this owner's live children — one list per kind by the owner-UID label from the API
 * (what prune needs too), nothing but index lookups from a cache; never other owners' objects.
 */
function findOwned(pass: Pass, prepared: readonly Prepared[]): Owned {
  const { options, fieldManager } = pass;
  const ownerUid = options.owner.metadata?.uid;
  // A cluster-scoped owner's `namespace` option is only the default for its children.
  const childScope = options.owner.metadata?.namespace;
  const reads = new OwnedObjects({ reader: pass.reader, owner: options.owner, namespace: childScope });
  const added = prepared.map((p) => ({ apiVersion: p.ref.apiVersion, kind: p.ref.kind }));
  const appliedKey = ownerUid ? appliedKindsKey(ownerUid, fieldManager, options.component) : undefined;
  const prunePvcs = options.prune !== false && options.prune?.persistentVolumeClaims === true;
  const remembered = appliedKey ? appliedKinds(appliedKey) : [];
  const named = [...added, ...(options.manages ?? []), ...ownedKindsFor(options.owner)];
  const pruneKinds = uniqueKinds([...named, ...remembered])
    .filter((k) => prunePvcs || !(k.kind === "PersistentVolumeClaim" && k.apiVersion === "v1"));
  reads.prefetch(uniqueKinds([...added, ...(options.prune === false ? [] : pruneKinds)]));
  return { reads, added, named, pruneKinds, prunePvcs, appliedKey, childScope };
}

/** Step 4: workloads hash this pass's ConfigMaps/Secrets once they reconciled, else the live ones. */
function desireConfigs(prepared: readonly Prepared[]): ConfigOutcomes {
  const configs = new ConfigOutcomes();
  for (const p of prepared) if (p.entry.rules.phase === "config") configs.desire(p.desired, p.ref.namespace);
  return configs;
}

/**
 * Step 5: phase by phase; the objects of a phase at once (up to `concurrency`), except gated
 * workloads (`orderedRollout`), which roll out one after another. Answers what later workloads
 * wait on, if anything.
 */
async function reconcilePhases(pass: Pass, prepared: readonly Prepared[], configs: ConfigOutcomes, ctx: PassContext): Promise<string | undefined> {
  const { options, results } = pass;
  const readConfig = configReader(pass.reader, pass.client);
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
  return blockedBy;
}

/**
 * Step 6: prune what is no longer desired, only when every object succeeded. Answers why pruning
 * did not run, if it did not.
 */
async function pruneStep(pass: Pass, prepared: readonly Prepared[], owned: Owned, notes: EventNotes): Promise<string | undefined> {
  const { options, dryRun, results } = pass;
  const notDone = results.filter((r) => r.action === "failed" || r.action === "waiting");
  if (options.prune === false) return "pruning is turned off";
  if (notDone.length) return `${notDone.length} object(s) did not reconcile: ${notDone.map(describeObject).join(", ")}`;
  const store = new DesiredInventory();
  for (const p of prepared) store.add(p.desired);
  const { appliedKey, named } = owned;
  // Kinds earlier passes of this process applied for this owner: pruned even when this pass adds none.
  if (appliedKey && !dryRun) rememberAppliedKinds(appliedKey, owned.added);
  results.push(...(await pruneOwned({
    reader: pass.reader, deleter: pass.client, owner: options.owner, managedBy: { key: MANAGED_BY_LABEL, value: pass.fieldManager },
    component: { key: COMPONENT_LABEL, value: options.component }, kinds: owned.pruneKinds, namespace: owned.childScope, store,
    persistentVolumeClaims: owned.prunePvcs, dryRun,
    onDeleted: (obj) => notes.deleted(obj),
  }, owned.reads, (kind) => {
    // A kind only remembered from earlier passes whose resource is gone (its CRD removed): forgotten.
    if (named.some((k) => k.apiVersion === kind.apiVersion && k.kind === kind.kind) || !appliedKey) return false;
    if (!dryRun) forgetAppliedKind(appliedKey, kind);
    return true;
  })));
  return undefined;
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
async function reconcileWorkload(p: Prepared, configs: ConfigOutcomes, readConfig: ConfigReader, ctx: PassContext): Promise<Outcome> {
  const hashed = await withLiveConfigHashes(p.desired, p.ref, configs, readConfig);
  if ("held" in hashed) return { result: hashed.held, live: undefined };
  p.desired = hashed.object;
  return reconcileOne(p, ctx);
}

/** One object: read → create when absent → control checks → unchanged? → re-create → apply. */
async function reconcileOne(p: Prepared, ctx: PassContext): Promise<Outcome> {
  const { desired, ref } = p;
  // a. The live object: from the owner's lists (a plan reads by name what they did not hold).
  let live: KubeObject | undefined;
  try {
    const found = await ctx.owned.get(ref);
    live = found.live;
    if (!live && found.listed && ctx.dryRun) live = await ctx.options.client.reader().get(ref);
  } catch (err) {
    return { result: { ...ref, action: "failed", error: err as Error }, live };
  }
  // b. Absent: create it (POST, no read first); a name someone else holds goes on to the checks.
  if (!live && !ctx.dryRun) {
    const created = await createChild(p, ctx);
    if ("result" in created) return created;
    live = created.existing;
  }
  if (live?.metadata?.deletionTimestamp) return { result: { ...ref, action: "waiting", reason: "the live object is being deleted" }, live };
  // c. Written only when this owner controls it (or adopts it), and by this Builder's component.
  const control = live ? await checkControl(p, live, ctx) : { adopting: false };
  if ("refused" in control) return control.refused;
  // d. Unchanged: the desired hash matches and the live object holds every desired field.
  const hash = stampDesiredHash(desired);
  const same = scalarComparer(desired.apiVersion);
  const sameHash = live?.metadata?.annotations?.[DESIRED_HASH_ANNOTATION] === hash;
  if (live && sameHash) {
    // A lean cached copy has no managedFields: compareWithLive reads the object only if its lists decide.
    const compared = await compareWithLive(desired, live, same, { client: ctx.options.client, ref });
    live = compared.live;
    if (compared.unchanged) return { result: { ...ref, action: "unchanged" }, live };
  }
  const reason = !live ? undefined : control.adopting ? "adopted: it had no controller" : sameHash ? "the live object drifted from the desired state" : "the desired state changed";
  // e. A change the API server refuses on an existing object: re-create it, when allowed.
  const immutable = live ? (p.entry.rules.immutableChanges?.(live, desired) ?? []) : [];
  if (live && immutable.length) return recreate(p, live, immutable, ctx);
  // f. Apply (server-side, our field manager), then correct what the apply did not undo.
  const action = live ? "updated" : "created";
  if (ctx.dryRun) await sendPlannedWrite(desired, live, ctx);
  if (ctx.dryRun || !live) return { result: { ...ref, action, ...(reason ? { reason } : {}) }, live };
  return applyChange(p, live, reason, same, ctx);
}

/**
 * In a dashboard plan (see `RunHooks.plan`): sends the create or apply a reconcile would make as
 * a server dry run, so the run's write observer holds the exact change. Its failure is the
 * observer's to show; the plan's result stays the Builder's.
 */
async function sendPlannedWrite(desired: KubeObject, live: KubeObject | undefined, ctx: PassContext): Promise<void> {
  if (currentRunHooks()?.plan !== true) return;
  const client = ctx.options.client;
  try {
    if (live) await client.apply(desired, { fieldManager: ctx.fieldManager, force: ctx.options.force ?? true, dryRun: true });
    else await client.create(desired, { fieldManager: ctx.fieldManager, dryRun: true });
  } catch {
    // Shown by the write observer with its error; a plan goes on.
  }
}

/** What reconciling one object did, with the live object it left (for the rollout gate). */
interface Outcome {
  result: ObjectResult;
  live: KubeObject | undefined;
}

/**
 * Step 5c: whether the Builder may write `live`: refused (NotOwned) when another owner controls
 * it or nobody does and it is not adopted, and when another component of the same owner holds it.
 */
async function checkControl(p: Prepared, live: KubeObject, ctx: PassContext): Promise<{ adopting: boolean } | { refused: Outcome }> {
  const { desired, ref, entry } = p;
  const { options } = ctx;
  const control = controlOf(live, ref.kind, options.owner, { key: MANAGED_BY_LABEL, value: ctx.fieldManager });
  const adopting = control === "nobody" && (entry.options.adopt ?? options.adopt ?? false);
  if (control === "another" || (control === "nobody" && !adopting)) {
    const error = notOwned(live, describeObject(ref), entry.method, options.owner);
    await ctx.notes.notOwned(desired, error, ctx.dryRun);
    return { refused: { result: { ...ref, action: "failed", error }, live } };
  }
  const theirs = live.metadata?.labels?.[COMPONENT_LABEL];
  if (control === "owner" && theirs !== undefined && theirs !== options.component) {
    const mine = options.component === undefined ? "this Builder has no component" : `this Builder is component ${JSON.stringify(options.component)}`;
    const error = new OperatorRuntimeError(`${describeObject(ref)} belongs to component ${JSON.stringify(theirs)} of the same ${options.owner.kind}, but ${mine}: two Builders of one owner would overwrite and prune each other's objects. Fix: add each object to one Builder only`);
    await ctx.notes.failed(desired, "Update", error, ctx.dryRun);
    return { refused: { result: { ...ref, action: "failed", error }, live } };
  }
  return { adopting };
}

/**
 * Step 5e: `immutable` fields changed. Refused unless the object was added with
 * `recreateOnImmutableChange` (and never for a Bound claim, which holds data); else deleted
 * (workloads orphaning their Pods) and created again — a create, never an apply, so an object
 * someone else made in the meantime is not taken over.
 */
async function recreate(p: Prepared, live: KubeObject, immutable: readonly string[], ctx: PassContext): Promise<Outcome> {
  const { desired, ref, entry } = p;
  const client = ctx.options.client;
  const refuse = async (message: string): Promise<Outcome> => {
    const error = new OperatorRuntimeError(message);
    await ctx.notes.failed(desired, "Update", error, ctx.dryRun);
    return { result: { ...ref, action: "failed", error }, live };
  };
  if (!entry.options.recreateOnImmutableChange) {
    return refuse(`${describeObject(ref)}: ${immutable.join(", ")} cannot be changed on an existing object. Fix: keep the old value, or add it with { recreateOnImmutableChange: true } to delete and re-create it`);
  }
  if (ref.kind === "PersistentVolumeClaim" && (live.status as { phase?: unknown } | undefined)?.phase === "Bound") {
    return refuse(`${describeObject(ref)}: ${immutable.join(", ")} cannot be changed on an existing claim, and a Bound claim holds data, so it is never deleted to re-create it. Fix: keep the old value, or move the data to a claim with a new name and delete this one yourself`);
  }
  const recreateReason = `re-created: ${immutable.join(", ")} changed`;
  if (ctx.dryRun) return { result: { ...ref, action: "updated", reason: recreateReason }, live };
  try {
    const workload = entry.rules.phase === "workload";
    await client.delete(ref, { propagationPolicy: workload ? "Orphan" : "Background", preconditions: { uid: live.metadata!.uid!, resourceVersion: live.metadata!.resourceVersion! } });
    const still = await client.reader().get(ref);
    if (still) return { result: { ...ref, action: "waiting", reason: `re-creating: waiting for the old object to be deleted (${immutable.join(", ")} changed)` }, live };
    // 409 AlreadyExists fails this pass; the next one reports it NotOwned.
    const created = await client.create(desired, { fieldManager: ctx.fieldManager });
    await ctx.notes.changed(desired, "Updated", recreateReason);
    return { result: { ...ref, action: "updated", reason: recreateReason }, live: created };
  } catch (err) {
    await ctx.notes.failed(desired, "Update", err as Error, false);
    return { result: { ...ref, action: "failed", error: err as Error }, live };
  }
}

/**
 * Step 5f: server-side apply with the field manager (others' fields survive), then a JSON patch
 * of our own list items the apply did not restore (a list no manager records a kind for).
 */
async function applyChange(p: Prepared, live: KubeObject, reason: string | undefined, same: ReturnType<typeof scalarComparer>, ctx: PassContext): Promise<Outcome> {
  const { desired, ref } = p;
  const client = ctx.options.client;
  try {
    let applied = await applyOwned(client, ref, desired, live, { fieldManager: ctx.fieldManager, force: ctx.options.force ?? true });
    const lists = listKindsFor(client, applied);
    if (!isSubset(desired, applied, same, lists)) {
      const ops = driftPatch(desired, applied, same, lists);
      if (ops.length) applied = await client.patch(ref, ops, "json", { fieldManager: ctx.fieldManager });
    }
    await ctx.notes.changed(desired, "Updated", reason);
    return { result: { ...ref, action: "updated", ...(reason ? { reason } : {}) }, live: applied };
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
async function createChild(p: Prepared, ctx: PassContext): Promise<Outcome | { existing: KubeObject }> {
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
