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
import { renderView, toView } from "./object-view.ts";
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
    viewKey: `${apiVersionOf(type)}|${table}`,
    render,
    send(evType, json) {
      writeLine(`{"type":"${evType}","object":${json}}\n`);
    },
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
    writeLine(`{"type":"BOOKMARK","object":${JSON.stringify({ kind: type.kind, apiVersion: apiVersionOf(type), metadata: meta })}}\n`);
  };

  // Initial state or replay, then registration — all in one tick.
  if (since === undefined) {
    // sendInitialEvents=false: from the current state on, without the synthetic ADDED events.
    const initial = sendInitial === false ? [] : listCandidates(ctx.store, type.storageKey, namespace || undefined, q);
    for (const o of initial) {
      if (matches(o)) watcher.send("ADDED", render(o));
    }
    if (sendInitial === true) bookmark({ "k8s.io/initial-events-end": "true" });
  } else {
    for (const c of replay) {
      const ev = eventFor(watcher, c);
      if (ev) watcher.send(ev.type, render(ev.object));
    }
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
