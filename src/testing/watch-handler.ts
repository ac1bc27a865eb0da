/**
 * Serves one watch: initial ADDED events or a replay from the history, then live changes as
 * newline-delimited JSON, with bookmarks, timeouts, 410 Expired for resumes too old and 504 for
 * resumes from a resourceVersion the server has not reached.
 */
import type { ApiContext, ResourceRequest } from "./api-context.ts";
import type { Change, StoredObject } from "./object-store.ts";
import type { Watcher } from "./watch-hub.ts";
import { eventFor } from "./watch-hub.ts";
import { apiVersionOf } from "./resource-type.ts";
import { StatusError } from "./status.ts";
import { queryBool } from "./request-info.ts";
import { convertsByWebhook, renderView, toView, toViewsAsync } from "./object-view.ts";
import { toTable, wantsTable } from "./views/table.ts";
import { awaitResourceVersion } from "./resource-version-wait.ts";
import { parseResourceVersion, validateListOptions } from "./list-params.ts";
import { parseTimeoutSeconds, setLongTimeout } from "./watch-timeout.ts";
import { listCandidates } from "./list-candidates.ts";

/**
 * Starts streaming a watch on `r.res`. A resourceVersion ahead of the store is first waited for
 * (see {@link awaitResourceVersion}: 504 when it is not reached in time); from then on it is
 * synchronous up to registration, so nothing is missed.
 */
export async function serveWatch(ctx: ApiContext, r: ResourceRequest, matches: (o: StoredObject) => boolean): Promise<void> {
  const q = r.query;
  const { res, type } = r;
  const rvParam = q.get("resourceVersion") ?? "";
  const sendInitial = queryBool(q, "sendInitialEvents");
  const timeoutSeconds = parseTimeoutSeconds(q);
  validateListOptions(q, true);
  const asked = parseResourceVersion(rvParam);
  if (asked > BigInt(ctx.store.resourceVersion)) {
    if (!(await awaitResourceVersion(ctx, asked, res))) return;
  }
  // Reached (or waited for): within the store's versions, so exact as a number.
  const since = asked === 0n ? undefined : Number(asked);
  const table = wantsTable(r.req.headers.accept);
  const namespace = r.path.namespace;
  res.writeHead(200, { "Content-Type": "application/json", "Transfer-Encoding": "chunked", "Cache-Control": "no-cache, private" });
  res.flushHeaders();

  const writeLine = (line: string) => {
    if (!res.writableEnded && !res.destroyed) res.write(line);
  };
  const render = (o: StoredObject): string =>
    table ? JSON.stringify(toTable(type, [toView(type, o.object())], String(o.rv), new Date(), "Object")) : renderView(type, o);
  const viewKey = `${apiVersionOf(type)}|${table}`;
  // With a conversion webhook every event is converted before it is written, in order (see
  // orderedWriter).
  const ordered = convertsByWebhook(type)
    ? orderedWriter(viewKey, writeLine, () => watcher.close(false), async (objects) => {
      const views = await toViewsAsync(type, objects.map((o) => o.object()));
      return views.map((v, i) => JSON.stringify(table ? toTable(type, [v], String(objects[i]!.rv), new Date(), "Object") : v));
    })
    : undefined;

  // Too old: one ERROR event, then a clean close.
  let replay: Change[] = [];
  if (since !== undefined) {
    try {
      replay = ctx.store.changesSince(type.storageKey, since);
    } catch (err) {
      if (!(err instanceof StatusError)) throw err;
      writeLine(`{"type":"ERROR","object":${JSON.stringify(err.toStatus())}}\n`);
      res.end();
      return;
    }
  }

  const timers = new Set<NodeJS.Timeout>();
  let cancelTimeout: (() => void) | undefined;
  const watcher: Watcher = {
    storageKey: type.storageKey,
    namespace,
    matches,
    viewKey,
    render,
    send(evType, json) {
      writeLine(`{"type":"${evType}","object":${json}}\n`);
    },
    ...(ordered ? { deliver: (evType: string, o: StoredObject) => ordered.events([{ type: evType, object: o }]) } : {}),
    close(abrupt) {
      cleanup();
      if (abrupt) res.destroy();
      else res.end();
    },
  };
  const cleanup = () => {
    for (const t of timers) clearTimeout(t);
    timers.clear();
    cancelTimeout?.();
    ctx.hub.remove(watcher);
  };

  const bookmark = (annotations?: Record<string, string>) => {
    const meta: Record<string, unknown> = { resourceVersion: String(ctx.store.resourceVersion) };
    if (annotations) meta.annotations = annotations;
    const line = `{"type":"BOOKMARK","object":${JSON.stringify({ kind: type.kind, apiVersion: apiVersionOf(type), metadata: meta })}}\n`;
    // Behind the events still being converted, so a bookmark never overtakes them.
    if (ordered) ordered.line(line);
    else writeLine(line);
  };

  // Initial state or replay, then registration — all in one tick.
  if (since === undefined) {
    // sendInitialEvents=false: from the current state on, without the synthetic ADDED events.
    const initial = sendInitial === false ? [] : listCandidates(ctx.store, type.storageKey, namespace || undefined, q);
    if (ordered) ordered.events(initial.filter(matches).map((o) => ({ type: "ADDED", object: o })));
    else {
      for (const o of initial) {
        if (matches(o)) watcher.send("ADDED", render(o));
      }
    }
    if (sendInitial === true) bookmark({ "k8s.io/initial-events-end": "true" });
  } else {
    const events: PendingEvent[] = [];
    for (const c of replay) {
      const ev = eventFor(watcher, c);
      if (ev) events.push(ev);
    }
    if (ordered) ordered.events(events);
    else for (const ev of events) watcher.send(ev.type, render(ev.object));
  }
  ctx.hub.add(watcher);

  // Any length is honoured (a huge one means "very long"); a negative one ends the watch at once.
  if (timeoutSeconds !== 0) cancelTimeout = setLongTimeout(() => watcher.close(false), timeoutSeconds * 1000);
  if (queryBool(q, "allowWatchBookmarks") === true) {
    const interval = setInterval(() => bookmark(), ctx.bookmarkIntervalMs);
    interval.unref();
    timers.add(interval);
  }
  res.on("close", cleanup);
}

/** Conversions shared by the watches of one view: by stored object, then view key. */
const sharedRenders = new WeakMap<StoredObject, Map<string, Promise<string>>>();

/** One event to write. */
interface PendingEvent {
  type: string;
  object: StoredObject;
}

/** Writes of one watch that converts through a webhook: events and bookmarks, in order. */
interface OrderedWriter {
  /** Converts the objects (in one review) and writes their events after what came before. */
  events(events: PendingEvent[]): void;
  /** Writes a ready line after what came before. */
  line(text: string): void;
}

/**
 * A per-watch promise chain: each write waits for the one before it, and its conversion starts
 * only then (one review at a time per watch). A live event's conversion is shared by the
 * watches of the same view. A failed conversion ends the watch, cleanly and without an ERROR
 * event, as kube-apiserver does when it cannot encode a watch event; nothing after it is
 * written.
 */
function orderedWriter(
  viewKey: string,
  writeLine: (line: string) => void,
  end: () => void,
  renderMany: (objects: StoredObject[]) => Promise<string[]>,
): OrderedWriter {
  let chain: Promise<void> = Promise.resolve();
  let failed = false;
  const shared = (o: StoredObject): Promise<string> => {
    let byView = sharedRenders.get(o);
    if (!byView) sharedRenders.set(o, (byView = new Map()));
    let json = byView.get(viewKey);
    if (!json) {
      const views = byView;
      const rendering: Promise<string> = renderMany([o]).then((all) => all[0]!);
      // Only a successful conversion is shared: a failed one is retried by the next watch.
      rendering.catch(() => {
        if (views.get(viewKey) === rendering) views.delete(viewKey);
      });
      views.set(viewKey, (json = rendering));
    }
    return json;
  };
  const enqueue = (produce: () => Promise<string> | string) => {
    if (failed) return;
    chain = chain
      .then(async () => {
        if (failed) return;
        writeLine(await produce());
      })
      .catch(() => {
        failed = true;
        end();
      });
  };
  const line = (type: string, json: string) => `{"type":"${type}","object":${json}}\n`;
  return {
    events(events) {
      if (events.length === 0) return;
      if (events.length === 1) {
        const [ev] = events;
        enqueue(async () => line(ev!.type, await shared(ev!.object)));
        return;
      }
      enqueue(async () => {
        const json = await renderMany(events.map((e) => e.object));
        return events.map((e, i) => line(e.type, json[i]!)).join("");
      });
    },
    line(text) {
      enqueue(() => text);
    },
  };
}
