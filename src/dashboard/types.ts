/**
 * The dashboard's wire contract: what `GET /api/…` answers and what `GET /api/stream` sends
 * (server-sent events). The page (`assets/app.js`) reads exactly these shapes; a change here
 * is a change of the page's protocol (bump {@link DASHBOARD_PROTOCOL}).
 */
import type { Trigger } from "../controller/triggers.ts";

/** Version of the JSON the dashboard serves; the page refuses another one. */
export const DASHBOARD_PROTOCOL = 1;

/** An object as the dashboard names it. */
export interface ObjectName {
  apiVersion: string;
  kind: string;
  /** "" when cluster-scoped. */
  namespace: string;
  name: string;
}

/** One operation of a JSON diff: `path` is a JSON Pointer into the object. */
export interface DiffOp {
  op: "add" | "remove" | "replace";
  path: string;
  /** The value before (`remove`, `replace`). */
  old?: unknown;
  /** The value after (`add`, `replace`). */
  value?: unknown;
}

/** One write a reconcile made (or, in a plan, would make). */
export interface WriteRecord extends ObjectName {
  /** `create`, `update` (PUT), `patch`, `apply`, `delete`; status writes have `subresource: "status"`. */
  verb: string;
  subresource?: string;
  /** resourceVersion the server answered with (absent for a delete that removed the object). */
  resourceVersion?: string;
  /** Before → after, with volatile metadata (resourceVersion, managedFields, timestamps) left out; `null` when unknown. */
  diff: DiffOp[] | null;
  /** The request failed: its message. */
  error?: string;
  /** A server dry run (plans). */
  dryRun?: boolean;
}

/** How a reconcile ended. */
export type ReconcileOutcome = "running" | "done" | "requeue" | "requeue-after" | "error" | "terminal" | "held";

/** One reconcile, from the moment its key was first queued to its end. */
export interface ReconcileRecord {
  /** Increasing number of the record in this process (the timeline's order). */
  seq: number;
  controller: string;
  /** `namespace/name` (or `name` when cluster-scoped). */
  key: string;
  reconcileID: string;
  /** What queued the key (the first cause since the last run). */
  trigger: Trigger;
  /** How many causes were coalesced into this run (≥ 1). */
  triggers: number;
  /** Epoch ms: when the key was queued (first cause), when the run started, when it ended. */
  queuedAt: number;
  startedAt: number;
  endedAt?: number;
  /** startedAt − queuedAt. */
  waitMs: number;
  durationMs?: number;
  outcome: ReconcileOutcome;
  /** With `requeue-after`. */
  requeueAfterMs?: number;
  /** With `error` / `terminal` / `held`: the message. */
  error?: string;
  /** Retries counted for the key when the run ended with an error. */
  retries?: number;
  writes: WriteRecord[];
  /** The trigger was a write of an earlier reconcile of the same key. */
  selfTriggered: boolean;
  /**
   * A reconcile loop: this run was triggered by the previous run's own write and wrote again,
   * and so did the four runs before it (five in a row, or more).
   */
  loop: boolean;
}

/** A Kubernetes Event the operator recorded. */
export interface EventRecord {
  seq: number;
  /** Epoch ms. */
  at: number;
  type: "Normal" | "Warning";
  reason: string;
  action?: string;
  note: string;
  regarding: ObjectName;
  /** The controller and key of the reconcile that recorded it, when known. */
  controller?: string;
  key?: string;
  /**
   * Its `reportingController`, for an Event another controller wrote about the operator's
   * objects (the StatefulSet controller, the scheduler); absent for the operator's own.
   */
  reportedBy?: string;
}

/** A log line of the Manager's logger. */
export interface LogRecord {
  seq: number;
  at: number;
  level: "debug" | "info" | "warn" | "error";
  msg: string;
  controller?: string;
  key?: string;
  /** The other fields, JSON-safe. */
  fields: Record<string, unknown>;
}

/** A key waiting or retrying. */
export interface QueueKey {
  key: string;
  /** Rate-limited retries since the key last succeeded. */
  retries: number;
  /** Epoch ms when a delayed add (backoff, requeueAfter) is due. */
  dueAt?: number;
  /** Held until the caches catch up. */
  held?: boolean;
}

/** A controller and its queue. */
export interface ControllerView {
  name: string;
  /** The primary kind (`for`). */
  for: { apiVersion: string; kind: string };
  owns: { apiVersion: string; kind: string }[];
  watches: { apiVersion: string; kind: string }[];
  workers: number;
  queue: {
    /** Keys that need a run (ready or waiting for their running turn). */
    depth: number;
    /** Keys being reconciled now. */
    inFlight: number;
    /** Delayed adds (backoff and requeueAfter) pending. */
    waiting: number;
    /** Keys held until the caches catch up. */
    held: number;
    /** Keys with retries or delays, most retries first (at most 100). */
    keys: QueueKey[];
  };
  reconciles: { total: number; errors: number; loops: number };
}

/** An informer of the shared cache. */
export interface InformerView {
  apiVersion: string;
  kind: string;
  /** "" = all namespaces. */
  namespace: string;
  synced: boolean;
  stale: boolean;
  objects: number;
  /** Epoch ms of the last event it delivered. */
  lastEventAt?: number;
  events: number;
  lists: number;
  relists: number;
  watchFailures: number;
  /** Times it went stale after its first list (until a relist or an accepted resume). */
  stalls: number;
  /** Approximate bytes held (JSON size of the cached objects, sampled). */
  approxBytes: number;
}

/** Leadership and sharding. */
export interface OwnershipView {
  /** This process. */
  identity: string;
  /** "leader", "standby", or "always" (no leader election). */
  role: "leader" | "standby" | "always";
  leaderElection?: { namespace: string; name: string; holder?: string };
  sharding?: {
    ring: string;
    buckets: number;
    /** Buckets this replica serves. */
    served: number[];
    /** Every member the ring knows, with the buckets assigned to it. */
    members: { identity: string; buckets: number[] }[];
    handovers: { at: number; bucket: number; change: "served" | "drained" }[];
  };
}

/** `GET /api/state`: everything but the owners, the plan and the full history. */
export interface DashboardState {
  protocol: number;
  /** Epoch ms now, on the server. */
  now: number;
  startedAt: number;
  ownership: OwnershipView;
  controllers: ControllerView[];
  informers: InformerView[];
  /** The latest reconciles, oldest first (at most 500). */
  timeline: ReconcileRecord[];
  events: EventRecord[];
  logs: LogRecord[];
}

/** How a child looks. */
export type ChildState = "ready" | "progressing" | "failed" | "deleting" | "unknown";

/**
 * What the Builder does with a child: `keep` (unchanged), `create`, `update`, `prune`
 * (deleted as not desired), `wait` (behind the rollout gate), `failed`, `foreign` (has the
 * desired name but is not ours: refused to touch), `unmanaged` (owned by the primary but not in
 * the Builder's desired set and not pruned: another kind, or retained storage), `unknown`
 * (no Builder result yet).
 */
export type ChildAction = "keep" | "create" | "update" | "prune" | "wait" | "failed" | "foreign" | "unmanaged" | "unknown";

/** A child of a primary (or a grandchild, in `children`). */
export interface ChildNode extends ObjectName {
  uid?: string;
  state: ChildState;
  /** E.g. "2/3 ready", "Bound". */
  detail?: string;
  /** The config hashes in its pod template (env name → hash). */
  configHashes?: Record<string, string>;
  action: ChildAction;
  /** The Builder's reason (what changed, what it waits on, the error). */
  reason?: string;
  /** From the last plan rather than the last reconcile. */
  planned?: boolean;
  /** Not in the cache: only known from the Builder's result. */
  missing?: boolean;
  children: ChildNode[];
}

/**
 * One primary of `GET /api/owners?controller=…`, which answers `{ controller, owners, stale? }`:
 * `stale: true` when the tree predates the controller's latest change (trees are built at most
 * once a second and shared by every page; ask again shortly).
 */
export interface OwnerNode extends ObjectName {
  controller: string;
  key: string;
  uid?: string;
  generation?: number;
  state: ChildState;
  detail?: string;
  /** The last reconcile of its key. */
  last?: { seq: number; outcome: ReconcileOutcome; endedAt?: number; trigger: Trigger };
  children: ChildNode[];
}

/** `GET /api/plan?controller=…&key=…`: what the next reconcile would change, nothing written. */
export interface PlanView {
  controller: string;
  key: string;
  /** Epoch ms. */
  at: number;
  /** Every write the reconcile would make, as server dry runs, with the diff each would cause. */
  writes: WriteRecord[];
  /** The Builder's plan: each object and its action. */
  objects: { apiVersion: string; kind: string; namespace?: string; name: string; action: string; reason?: string }[];
  /** "done", "requeue", "requeue-after", "error". */
  outcome: ReconcileOutcome;
  error?: string;
}

/**
 * A server-sent event of `GET /api/stream` (`event:` is `type`, `data:` the JSON of `data`):
 * - `hello`: the {@link DashboardState} (first event, and after a reconnect);
 * - `reconcile`: a {@link ReconcileRecord}, sent when a run starts (`outcome: "running"`) and
 *   again when it ends (same `seq`);
 * - `event`: an {@link EventRecord}; `log`: a {@link LogRecord};
 * - `stats`: `{ controllers, informers, ownership }` every second;
 * - `owners`: `{ controller, key }`, the owners tree of that key changed (refetch it).
 */
export type StreamMessage =
  | { type: "hello"; data: DashboardState }
  | { type: "reconcile"; data: ReconcileRecord }
  | { type: "event"; data: EventRecord }
  | { type: "log"; data: LogRecord }
  | { type: "stats"; data: { now: number; controllers: ControllerView[]; informers: InformerView[]; ownership: OwnershipView } }
  | { type: "owners"; data: { controller: string; key: string } };
