/**
 * The dashboard's HTTP server: the page and its assets, a read-only JSON API, and a stream of
 * server-sent events. It binds loopback by default and answers GET and HEAD only.
 */
import { createServer } from "node:http";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { isIP } from "node:net";
import { hostname } from "node:os";
import { readFile } from "node:fs/promises";
import type { Controller } from "../controller/controller.ts";
import type { Informer } from "../cache/types.ts";
import type { SharedInformer } from "../cache/informer.ts";
import type { Logger } from "../log/logger.ts";
import { silentLogger } from "../log/logger.ts";
import { OperatorRuntimeError } from "../errors.ts";
import { requestOf } from "../controller/reconciler.ts";
import { DashboardRecorder } from "./recorder.ts";
import { ownersTree } from "./owners.ts";
import { DASHBOARD_PROTOCOL } from "./types.ts";
import type { ControllerView, DashboardState, InformerView, OwnershipView, PlanView, StreamMessage } from "./types.ts";

/**
 * Options of the dashboard (`mgr.dashboard(options)`, `ManagerOptions.dashboard`).
 *
 * @example
 * ```ts
 * const options: DashboardOptions = { port: 0 }; // a free port on 127.0.0.1
 * ```
 */
export interface DashboardOptions {
  /** Port (0 picks a free one). Default 8089. */
  port?: number;
  /**
   * Address to bind. Default `127.0.0.1`: the dashboard has no authentication, so only this
   * machine reaches it (from a pod: `kubectl port-forward`). Another address is your choice to
   * expose it; the page is still read-only.
   */
  host?: string;
  /** Reconciles kept for the timeline (a ring; default 5,000). */
  timeline?: number;
  /** Lowest level of the log lines kept (default `info`). */
  logLevel?: "debug" | "info" | "warn" | "error";
}

/** The default dashboard port. */
export const DEFAULT_DASHBOARD_PORT = 8089;

/** What the server shows, supplied by the Manager. */
export interface DashboardSource {
  /** The Manager's controllers. */
  controllers(): readonly Controller[];
  /** The shared cache's informers. */
  informers(): readonly SharedInformer[];
  /** Leadership and sharding now. */
  ownership(): OwnershipView;
}

/** How long records wait to be sent to the pages in one batch (ms). */
const BATCH_MS = 100;
/** How long an owners tree is served again before it is built anew (ms). */
const OWNERS_CACHE_MS = 1000;
/** Plans waiting or running at most (more get 429). */
const MAX_PLANS_WAITING = 4;
/** Browsers connected at once at most (more get 503). */
const MAX_STREAMS = 32;
/** A stream whose unsent data passes this is closed (the page reconnects and starts again). */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
/** A comment on idle streams, so proxies and the browser keep them open. */
const KEEPALIVE_MS = 15_000;
const ASSETS = new URL("./assets/", import.meta.url);
const CONTENT_TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8", ".html": "text/html; charset=utf-8",
  ".svg": "image/svg+xml", ".png": "image/png", ".json": "application/json; charset=utf-8",
};
const SECURITY_HEADERS = {
  "content-security-policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
};

/**
 * Serves the dashboard: `/` (the page), `/assets/*`, `/api/state`, `/api/owners`,
 * `/api/timeline`, `/api/plan` and `/api/stream` (server-sent events). Read-only: any method but
 * GET and HEAD is a 405, and the only action, a plan, writes nothing (server dry runs).
 * Requests whose Host is not this machine's (DNS rebinding) get 403 unless it binds another address.
 *
 * @example
 * ```ts
 * import { DashboardRecorder } from "./recorder.ts";
 *
 * declare const source: DashboardSource;
 * const server = new DashboardServer({ source, recorder: new DashboardRecorder(), port: 0 });
 * await server.start();
 * console.log(`dashboard: ${server.url}`);
 * await server.stop();
 * ```
 */
export class DashboardServer {
  readonly recorder: DashboardRecorder;
  readonly #source: DashboardSource;
  readonly #port: number;
  readonly #host: string;
  readonly #log: Logger;
  readonly #startedAt = Date.now();
  readonly #streams = new Set<ServerResponse>();
  readonly #sockets = new Set<Socket>();
  #server: Server | undefined;
  #url = "";
  #ticker: NodeJS.Timeout | undefined;
  #plans: Promise<unknown> = Promise.resolve();
  /** Records waiting for the next batch to the pages. */
  readonly #pending = new Map<string, StreamMessage>();
  #queued = 0;
  #flushTimer: NodeJS.Timeout | undefined;
  #unsubscribe: (() => void) | undefined;
  #plansWaiting = 0;
  /** The owners tree of each controller, as last sent, and when it was built (performance.now()). */
  readonly #ownersCache = new Map<string, { at: number; json: string; version: number }>();
  /** Changes seen per controller (runs ended, plans): a tree built before the latest is stale. */
  readonly #ownersVersion = new Map<string, number>();
  /** Informer → when it last delivered an event (its handler, added when first shown). */
  readonly #lastEvents = new WeakMap<SharedInformer, { at?: number; stop: () => void }>();
  readonly #stopHandlers: (() => void)[] = [];

  constructor(options: { source: DashboardSource; recorder: DashboardRecorder; port?: number; host?: string; logger?: Logger }) {
    this.#source = options.source;
    this.recorder = options.recorder;
    this.#port = checkPort(options.port ?? DEFAULT_DASHBOARD_PORT);
    this.#host = options.host ?? "127.0.0.1";
    this.#log = (options.logger ?? silentLogger).child({ component: "dashboard" });
  }

  /** `http://host:port/` once started; "" before. */
  get url(): string {
    return this.#url;
  }

  /** Listens; resolves once it does. */
  async start(): Promise<void> {
    if (this.#server) return;
    this.#unsubscribe ??= this.recorder.subscribe((m) => this.#queue(m));
    const server = createServer((req, res) => void this.#handle(req, res));
    server.on("connection", (socket) => {
      this.#sockets.add(socket);
      socket.once("close", () => this.#sockets.delete(socket));
    });
    this.#server = server;
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.#port, this.#host, () => {
        server.off("error", reject);
        resolve();
      });
    }).catch((err: unknown) => {
      this.#server = undefined;
      const code = (err as { code?: string }).code;
      throw new OperatorRuntimeError(`dashboard: cannot listen on ${this.#host}:${this.#port}${code ? ` (${code})` : ""}. Fix: pass another port, or 0 for a free one`, { cause: err });
    });
    const address = server.address() as AddressInfo;
    const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
    this.#url = `http://${host === "0.0.0.0" || host === "[::]" ? "127.0.0.1" : host}:${address.port}/`;
    if (!isLoopback(this.#host)) this.#log.warn("the dashboard listens beyond this machine; it has no authentication (it is read-only)", { host: this.#host });
  }

  /** Closes the streams and the server. */
  async stop(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    this.#url = "";
    this.#stopTicker();
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    if (this.#flushTimer) clearTimeout(this.#flushTimer);
    this.#flushTimer = undefined;
    this.#pending.clear();
    for (const stop of this.#stopHandlers.splice(0)) stop();
    for (const res of this.#streams) res.end();
    this.#streams.clear();
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const s of this.#sockets) s.destroy();
    });
  }

  /** The state the page starts from. */
  state(): DashboardState {
    return {
      protocol: DASHBOARD_PROTOCOL, now: Date.now(), startedAt: this.#startedAt, ownership: this.#source.ownership(),
      controllers: this.#controllers(), informers: this.#informers(), timeline: this.recorder.timeline(500),
      events: this.recorder.events(500), logs: this.recorder.logs(500),
    };
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      if (!this.#hostAllowed(req.headers.host)) return send(res, 403, { error: "this dashboard answers requests for this machine only (the Host header names another); open it at its URL" });
      if (crossSite(req)) return send(res, 403, { error: "the dashboard answers its own page only, not another site's (a cross-site request)" });
      if (req.method !== "GET" && req.method !== "HEAD") {
        res.setHeader("allow", "GET, HEAD");
        return send(res, 405, { error: `the dashboard is read-only: ${req.method} is not allowed` });
      }
      const url = new URL(req.url ?? "/", "http://dashboard.local");
      const path = url.pathname;
      if (path === "/" || path === "/index.html") return await this.#asset(res, "index.html", req.method === "HEAD");
      if (path.startsWith("/assets/")) return await this.#asset(res, path.slice("/assets/".length), req.method === "HEAD");
      if (path === "/api/state") return send(res, 200, this.state());
      if (path === "/api/owners") return this.#owners(res, url.searchParams.get("controller") ?? "");
      if (path === "/api/timeline") {
        const before = url.searchParams.get("before");
        const limit = Math.min(5000, Math.max(1, Number(url.searchParams.get("limit") ?? 500) || 500));
        return send(res, 200, {
          records: this.recorder.timeline(limit, {
            ...(url.searchParams.get("controller") ? { controller: url.searchParams.get("controller")! } : {}),
            ...(url.searchParams.get("key") ? { key: url.searchParams.get("key")! } : {}),
            ...(before !== null && Number.isFinite(Number(before)) ? { before: Number(before) } : {}),
          }),
        });
      }
      if (path === "/api/plan" && req.method === "HEAD") return void res.writeHead(200, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...SECURITY_HEADERS }).end();
      if (path === "/api/plan") return await this.#plan(res, url.searchParams.get("controller") ?? "", url.searchParams.get("key") ?? "");
      if (path === "/api/stream") {
        if (req.method === "HEAD") return void res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store", ...SECURITY_HEADERS }).end();
        return this.#stream(req, res);
      }
      if (path === "/healthz") return send(res, 200, { ok: true });
      return send(res, 404, { error: `no such page: ${path}` });
    } catch (err) {
      this.#log.error("dashboard request failed", { error: err, url: req.url });
      if (!res.headersSent) send(res, 500, { error: (err as Error)?.message ?? String(err) });
      else res.end();
    }
  }

  /**
   * Whether the Host header names this machine: a loopback name, an IP address (DNS rebinding
   * needs a name), the bound address, or (bound beyond loopback) this machine's hostname.
   */
  #hostAllowed(host: string | undefined): boolean {
    if (!host) return false;
    const name = (host.startsWith("[") ? host.slice(1, host.indexOf("]")) : host.split(":")[0]!).toLowerCase();
    if (name === "localhost" || name.endsWith(".localhost") || isIP(name) !== 0 || name === this.#host.toLowerCase()) return true;
    return !isLoopback(this.#host) && (name === hostname().toLowerCase() || name.startsWith(`${hostname().toLowerCase()}.`));
  }

  async #asset(res: ServerResponse, name: string, head: boolean): Promise<void> {
    if (!/^[a-zA-Z0-9_-]+(\.[a-zA-Z0-9]+)+$/.test(name)) return send(res, 404, { error: "no such asset" });
    const ext = name.slice(name.lastIndexOf("."));
    const type = CONTENT_TYPES[ext];
    if (!type) return send(res, 404, { error: "no such asset" });
    let body: Buffer;
    try {
      body = await readFile(new URL(name, ASSETS));
    } catch {
      return send(res, 404, { error: `no such asset: ${name}` });
    }
    res.writeHead(200, { "content-type": type, "content-length": body.length, "cache-control": "no-cache", ...SECURITY_HEADERS });
    res.end(head ? undefined : body);
  }

  #controller(name: string): Controller | undefined {
    return this.#source.controllers().find((c) => c.name === name);
  }

  #owners(res: ServerResponse, name: string): void {
    const controller = this.#controller(name);
    if (!controller) return send(res, 404, { error: `no controller named ${JSON.stringify(name)}; the Manager has ${this.#source.controllers().map((c) => c.name).join(", ") || "none"}` });
    // Built at most once a second per controller, and shared by every page that asks: an older
    // tree says `stale: true`, and the page asks again a little later.
    const cached = this.#ownersCache.get(name);
    const now = performance.now();
    const version = this.#ownersVersion.get(name) ?? 0;
    if (cached && now - cached.at < OWNERS_CACHE_MS) {
      return sendJson(res, 200, cached.version === version ? cached.json : `${cached.json.slice(0, -1)},"stale":true}`);
    }
    const watched = controller.watched();
    const primary = watched.find((w) => w.role === "for")?.informer;
    const informers = [...new Set([...watched.filter((w) => w.role !== "for").map((w) => w.informer), ...this.#source.informers()])].filter((i) => i !== primary);
    const owners = primary ? ownersTree({ controller: name, primary, informers, passes: this.recorder.passes(name), lastRuns: this.recorder.lastRuns(name) }) : [];
    const json = JSON.stringify({ controller: name, owners });
    this.#ownersCache.set(name, { at: now, json, version });
    sendJson(res, 200, json);
  }

  async #plan(res: ServerResponse, name: string, key: string): Promise<void> {
    const controller = this.#controller(name);
    if (!controller) return send(res, 404, { error: `no controller named ${JSON.stringify(name)}` });
    if (!key || key.split("/").length > 2 || key.endsWith("/")) return send(res, 400, { error: `key: give the primary as namespace/name (or name when cluster-scoped), not ${JSON.stringify(key)}` });
    if (this.#plansWaiting >= MAX_PLANS_WAITING) return send(res, 429, { error: `${this.#plansWaiting} plans are waiting already; try again when they are done` });
    // One plan at a time (each is a whole reconcile); a page that goes away cancels its plan.
    const gone = new AbortController();
    res.on("close", () => !res.writableFinished && gone.abort(new Error("the page that asked for the plan went away")));
    this.#plansWaiting++;
    const run = this.#plans.then(() => {
      gone.signal.throwIfAborted();
      return controller.plan(requestOf(key), { signal: gone.signal });
    }).finally(() => this.#plansWaiting--);
    this.#plans = run.catch(() => undefined);
    let plan: Awaited<typeof run>;
    try {
      plan = await run;
    } catch (err) {
      return send(res, 409, { error: (err as Error)?.message ?? String(err) });
    }
    if (plan.end.outcome !== "error" && plan.end.outcome !== "terminal") {
      // A plan that ran through: the owners tree shows its actions (a failed one's may be partial).
      this.recorder.planned(name, key, plan.builder.map((b) => b.result));
      this.#ownersCache.delete(name);
      this.#ownersVersion.set(name, (this.#ownersVersion.get(name) ?? 0) + 1);
    }
    const view: PlanView = {
      controller: name, key, at: plan.run.startedAt,
      writes: DashboardRecorder.writeRecords(plan.writes.filter((w) => !(w.kind === "Event" && w.apiVersion.startsWith("events.k8s.io")))),
      objects: plan.builder.flatMap((b) => b.result.objects.map((o) => ({
        apiVersion: o.apiVersion, kind: o.kind, ...(o.namespace ? { namespace: o.namespace } : {}), name: o.name, action: o.action,
        ...(o.action === "failed" && o.error ? { reason: o.error.message } : o.reason ? { reason: o.reason } : {}),
      }))),
      outcome: plan.end.outcome,
      ...(plan.end.error !== undefined ? { error: (plan.end.error as Error)?.message ?? String(plan.end.error) } : {}),
    };
    send(res, 200, view);
    this.#broadcast({ type: "owners", data: { controller: name, key } });
  }

  #stream(req: IncomingMessage, res: ServerResponse): void {
    if (this.#streams.size >= MAX_STREAMS) return send(res, 503, { error: `at most ${MAX_STREAMS} pages may follow the dashboard at once` });
    res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store", connection: "keep-alive", ...SECURITY_HEADERS });
    res.write("retry: 2000\n\n");
    res.write(frame({ type: "hello", data: this.state() }));
    this.#streams.add(res);
    const keepalive = setInterval(() => res.write(": keepalive\n\n"), KEEPALIVE_MS);
    keepalive.unref();
    const close = () => {
      clearInterval(keepalive);
      this.#streams.delete(res);
      if (this.#streams.size === 0) this.#stopTicker();
    };
    req.on("close", close);
    res.on("close", close);
    this.#startTicker();
  }

  /** Writes to a stream; a page that cannot keep up is disconnected (it reconnects and starts over). */
  #write(res: ServerResponse, data: string | Buffer): void {
    if (res.writableLength > MAX_BUFFERED_BYTES) {
      res.destroy();
      return;
    }
    res.write(data);
  }

  #broadcast(m: StreamMessage): void {
    if (this.#streams.size === 0) return;
    const data = frame(m);
    for (const res of this.#streams) this.#write(res, data);
  }

  /**
   * Queues a record for the pages: sent in a batch every {@link BATCH_MS}, serialized once for
   * all of them, a run's start and end merged into one message when they fall in one batch.
   */
  #queue(m: StreamMessage): void {
    // What a run changed is in the next owners tree its controller's pages fetch.
    if (m.type === "owners" || (m.type === "reconcile" && m.data.outcome !== "running")) {
      this.#ownersVersion.set(m.data.controller, (this.#ownersVersion.get(m.data.controller) ?? 0) + 1);
    }
    if (this.#streams.size === 0) return;
    const key = m.type === "reconcile" ? `r${m.data.seq}` : m.type === "owners" ? `o${m.data.controller}\u0000${m.data.key}` : `${m.type}${++this.#queued}`;
    this.#pending.delete(key);
    this.#pending.set(key, m);
    if (this.#flushTimer) return;
    this.#flushTimer = setTimeout(() => this.#flush(), BATCH_MS);
    this.#flushTimer.unref();
  }

  #flush(): void {
    this.#flushTimer = undefined;
    if (this.#pending.size === 0) return;
    let text = "";
    for (const m of this.#pending.values()) text += frame(m);
    this.#pending.clear();
    // Encoded once for every page.
    const data = Buffer.from(text);
    for (const res of this.#streams) this.#write(res, data);
  }

  #startTicker(): void {
    if (this.#ticker) return;
    this.#ticker = setInterval(() => {
      this.#broadcast({ type: "stats", data: { now: Date.now(), controllers: this.#controllers(), informers: this.#informers(), ownership: this.#source.ownership() } });
    }, 1000);
    this.#ticker.unref();
  }

  #stopTicker(): void {
    if (this.#ticker) clearInterval(this.#ticker);
    this.#ticker = undefined;
  }

  #controllers(): ControllerView[] {
    return this.#source.controllers().map((c) => {
      const q = c.queue.inspect(100);
      const inspected = c.inspect();
      const watched = c.watched();
      const kindOf = (role: string) => watched.filter((w) => w.role === role).map((w) => ({ apiVersion: w.informer.kind.apiVersion, kind: w.informer.kind.kind }));
      const access = c.access.kinds;
      const forKind = kindOf("for")[0] ?? (access[0] ? { apiVersion: access[0].kind.apiVersion, kind: access[0].kind.kind } : { apiVersion: "", kind: "" });
      const held = new Set(inspected.held);
      const now = Date.now();
      return {
        name: c.name, for: forKind, owns: kindOf("owns"), watches: kindOf("watches"), workers: c.workers,
        queue: {
          depth: q.depth, inFlight: q.processing, waiting: q.delayed, held: held.size,
          keys: [
            ...q.keys.filter((k) => k.state !== "ready" || k.retries > 0).map((k) => ({ key: k.key, retries: k.retries, ...(k.dueInMs !== undefined ? { dueAt: now + k.dueInMs } : {}) })),
            ...[...held].slice(0, 50).map((key) => ({ key, retries: 0, held: true })),
          ].sort((a, b) => b.retries - a.retries).slice(0, 100),
        },
        reconciles: this.recorder.totals(c.name),
      };
    });
  }

  /** When `informer` last delivered an event (a handler, registered the first time it is asked, notes it). */
  #lastEventOf(informer: SharedInformer): number | undefined {
    let seen = this.#lastEvents.get(informer);
    if (!seen) {
      const entry: { at?: number; stop: () => void } = { stop: () => undefined };
      const note = () => void (entry.at = Date.now());
      entry.stop = informer.addEventHandler({ add: (_obj, initial) => !initial && note(), update: note, delete: note });
      this.#lastEvents.set(informer, entry);
      this.#stopHandlers.push(entry.stop);
      seen = entry;
    }
    return seen.at;
  }

  #informers(): InformerView[] {
    return this.#source.informers().map((i) => {
      const objects = i.list();
      const events = i.eventsReceived;
      const at = this.#lastEventOf(i);
      const stats = i.stats;
      return {
        apiVersion: i.kind.apiVersion, kind: i.kind.kind, namespace: i.namespace ?? "", synced: i.hasSynced(), stale: i.isStale(),
        objects: objects.length, ...(at !== undefined ? { lastEventAt: at } : {}), events,
        lists: stats.lists, relists: stats.relists, watchFailures: stats.watchFailures, stalls: i.stalls, approxBytes: approxBytes(objects),
      };
    });
  }
}

/** The JSON size of `objects`, from a sample of at most 20. */
function approxBytes(objects: readonly unknown[]): number {
  if (objects.length === 0) return 0;
  const step = Math.max(1, Math.floor(objects.length / 20));
  let bytes = 0;
  let n = 0;
  for (let i = 0; i < objects.length; i += step) {
    bytes += JSON.stringify(objects[i])?.length ?? 0;
    n++;
  }
  return Math.round((bytes / n) * objects.length);
}

function frame(m: StreamMessage): string {
  return `event: ${m.type}\ndata: ${JSON.stringify(m.data)}\n\n`;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  sendJson(res, status, JSON.stringify(body));
}

function sendJson(res: ServerResponse, status: number, json: string): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(json), "cache-control": "no-store", ...SECURITY_HEADERS });
  res.end(json);
}

/** A request another site's page made (an image, a script, a fetch): browsers say so in Sec-Fetch-Site and Origin. */
function crossSite(req: IncomingMessage): boolean {
  const site = req.headers["sec-fetch-site"];
  if (typeof site === "string" && site !== "same-origin" && site !== "none") return true;
  const origin = req.headers.origin;
  if (typeof origin !== "string" || origin === "null") return typeof origin === "string";
  try {
    return new URL(origin).host !== req.headers.host;
  } catch {
    return true;
  }
}

function isLoopback(host: string): boolean {
  return host === "127.0.0.1" || host === "localhost" || host === "::1" || host.startsWith("127.");
}

function checkPort(port: number): number {
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new OperatorRuntimeError(`dashboard: port must be an integer from 0 to 65535 (0 picks a free one), not ${JSON.stringify(port)}`);
  }
  return port;
}
