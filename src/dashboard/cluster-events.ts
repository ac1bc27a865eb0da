/**
 * The Events other controllers write about the operator's objects (the StatefulSet controller's
 * `FailedCreate` on a child, the scheduler's `FailedScheduling` on its Pods): followed with an
 * Events informer while the dashboard is on, kept when they regard a primary or a child the
 * controllers' caches hold.
 */
import type { KubeObject } from "../client/types.ts";
import type { ResourceClient } from "../client/resource-client.ts";
import type { Cache } from "../cache/cache.ts";
import type { SharedInformer } from "../cache/informer.ts";
import type { Controller } from "../controller/controller.ts";
import type { Logger } from "../log/logger.ts";
import type { DashboardRecorder } from "./recorder.ts";

/** The Events kind the dashboard follows. */
const EVENT = { apiVersion: "events.k8s.io/v1", kind: "Event" } as const;

/** An Event as the informer holds it (the fields the dashboard reads). */
interface ClusterEvent extends KubeObject {
  type?: string;
  reason?: string;
  action?: string;
  note?: string;
  reportingController?: string;
  regarding?: { apiVersion?: string; kind?: string; namespace?: string; name?: string; uid?: string };
}

/**
 * Follows the cluster's Events into `recorder` (see the module doc). First checks that the
 * Manager may list them; when it may not (its RBAC has only create/patch on events), logs once
 * and answers a `stop` that does nothing. `ownEvent` says whether an Event is one of the
 * operator's own (already shown). Answers the function that stops following, and the informer.
 *
 * @example
 * ```ts
 * import type { Manager } from "operator-runtime";
 * import type { DashboardRecorder } from "./recorder.ts";
 *
 * declare const mgr: Manager;
 * declare const recorder: DashboardRecorder;
 * const { stop } = await followClusterEvents({ client: mgr.client, cache: mgr.cache, controllers: () => mgr.controllers(), recorder, logger: mgr.logger, ownEvent: () => false });
 * stop();
 * ```
 */
export async function followClusterEvents(o: {
  client: ResourceClient; cache: Cache; controllers: () => readonly Controller[]; recorder: DashboardRecorder; logger: Logger;
  /** Whether an Event is the operator's own (already shown): by its name, or its reportingController. */
  ownEvent: (namespace: string, name: string, reportingController: string | undefined) => boolean;
}): Promise<{ stop: () => void; informer?: SharedInformer }> {
  try {
    await o.client.list(EVENT, { limit: 1 });
  } catch (err) {
    o.logger.warn("dashboard: cannot list Events, so the Events view shows only those the operator records. Fix: allow list and watch on events.k8s.io events (the dashboard is for development)", { error: err });
    return { stop: () => undefined };
  }
  const informer = o.cache.informer<ClusterEvent>(EVENT);
  const seen = new Map<string, string>();
  const take = (e: ClusterEvent) => {
    const m = e.metadata ?? {};
    const id = `${m.namespace ?? ""}/${m.name ?? ""}`;
    // One record per change of the Event (a series bumps its count, a repeat its resourceVersion).
    if (seen.get(id) === m.resourceVersion) return;
    seen.set(id, m.resourceVersion ?? "");
    if (seen.size > 10_000) seen.delete(seen.keys().next().value!);
    if (o.ownEvent(m.namespace ?? "", m.name ?? "", e.reportingController)) return;
    const regarding = e.regarding;
    if (!regarding?.kind || !regarding.name || !regards(o.controllers(), regarding)) return;
    o.recorder.clusterEvent({
      type: e.type === "Warning" ? "Warning" : "Normal", reason: e.reason ?? "", ...(e.action ? { action: e.action } : {}), note: e.note ?? "",
      regarding: { apiVersion: regarding.apiVersion ?? "", kind: regarding.kind, namespace: regarding.namespace ?? "", name: regarding.name },
      ...(e.reportingController ? { reportedBy: e.reportingController } : {}),
    });
  };
  // From now on: an Event of the informer's first list happened before the dashboard started.
  const stop = informer.addEventHandler({ add: (e, initial) => !initial && take(e), update: (_old, e) => take(e) });
  return { stop, informer: informer as unknown as SharedInformer };
}

/**
 * Whether an Event regards a primary of a controller, or a child of one: an object of an owned
 * kind whose controller owner reference is a cached primary (the same group and kind, and UID
 * when the Event names one).
 */
function regards(controllers: readonly Controller[], r: NonNullable<ClusterEvent["regarding"]>): boolean {
  const group = groupOf(r.apiVersion ?? "");
  for (const c of controllers) {
    const watched = c.watched();
    const primary = watched.find((w) => w.role === "for")?.informer;
    if (!primary) continue;
    for (const { role, informer } of watched) {
      if (role === "watches" || informer.kind.kind !== r.kind || groupOf(informer.kind.apiVersion) !== group) continue;
      const found = informer.get(r.name!, r.namespace || undefined);
      if (!found || (r.uid && found.metadata?.uid !== r.uid)) continue;
      if (role === "for") return true;
      const owner = found.metadata?.ownerReferences?.find((ref) => ref.controller === true);
      if (owner && primary.get(owner.name, found.metadata?.namespace || undefined)?.metadata?.uid === owner.uid) return true;
    }
  }
  return false;
}

function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf("/");
  return slash < 0 ? "" : apiVersion.slice(0, slash);
}
