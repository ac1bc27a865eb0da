/**
 * A fake dashboard server for the page's browser tests (and screenshots): serves the files of
 * src/dashboard/assets and canned answers of the wire contract (src/dashboard/types.ts) that the
 * test controls: `data` is read at every request, `send()` pushes a stream message to every
 * connected page.
 */
import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join } from "node:path";
import type {
  ChildNode,
  ControllerView,
  DashboardState,
  EventRecord,
  InformerView,
  LogRecord,
  OwnerNode,
  PlanView,
  ReconcileRecord,
  StreamMessage,
  WriteRecord,
} from "../../src/dashboard/types.ts";
import type { Trigger } from "../../src/controller/triggers.ts";

const ASSETS = join(import.meta.dirname, "../../src/dashboard/assets");
const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".html": "text/html; charset=utf-8",
};

/** The real server's policy (src/dashboard/server.ts): the page must live with it (a violation is a console error). */
const SECURITY_HEADERS = {
  "content-security-policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
};

/** What the fake answers; mutate it from the test, it is read at every request. */
export interface FakeData {
  state: DashboardState;
  /** `GET /api/owners?controller=` */
  owners: Record<string, OwnerNode[]>;
  /** `GET /api/timeline`: the full history it pages from (oldest first). */
  history: ReconcileRecord[];
  /** `GET /api/plan`: a PlanView (200), or `{ status, error }` for a failure. */
  plan: (controller: string, key: string) => PlanView | { status: number; error: string };
}

/** A running fake. */
export interface FakeDashboard {
  url: string;
  data: FakeData;
  /** Path and query of every request, in order. */
  requests: string[];
  /** Sends a stream message to every connected page. */
  send<M extends StreamMessage>(type: M["type"], data: M["data"]): void;
  /** Pages connected to `/api/stream` now. */
  streams(): number;
  /** Ends every stream (the pages reconnect after the `retry: 100` the fake sends). */
  dropStreams(): void;
  close(): Promise<void>;
}

/**
 * Starts the fake on a loopback port.
 *
 * @example
 * ```ts
 * const fake = await startFakeDashboard(cannedData());
 * await page.goto(fake.url);
 * fake.send("owners", { controller: "pinot", key: "default/pinot-a" });
 * await fake.close();
 * ```
 */
export async function startFakeDashboard(initial: FakeData): Promise<FakeDashboard> {
  const requests: string[] = [];
  const current = { data: initial };
  const streams = new Set<ServerResponse>();

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...SECURITY_HEADERS });
    res.end(JSON.stringify(body));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const data = current.data;
    requests.push(url.pathname + url.search);
    if (req.method !== "GET") return json(res, 405, { error: `${req.method} is not allowed: the dashboard is read-only` });
    const p = url.pathname;
    const q = url.searchParams;
    if (p === "/" || p.startsWith("/assets/")) {
      const name = p === "/" ? "index.html" : p.slice("/assets/".length);
      if (!/^[\w.-]+$/.test(name) || name.startsWith(".")) return json(res, 404, { error: `no asset ${name}` });
      try {
        const body = await readFile(join(ASSETS, name));
        res.writeHead(200, { "content-type": TYPES[extname(name)] ?? "application/octet-stream", "cache-control": "no-store", ...SECURITY_HEADERS });
        res.end(body);
      } catch {
        json(res, 404, { error: `no asset ${name}` });
      }
      return;
    }
    if (p === "/api/state") return json(res, 200, { ...data.state, now: Date.now() });
    if (p === "/api/owners") {
      const controller = q.get("controller") ?? "";
      if (!(controller in data.owners)) return json(res, 404, { error: `no controller ${controller}` });
      return json(res, 200, { controller, owners: data.owners[controller] });
    }
    if (p === "/api/timeline") {
      const controller = q.get("controller");
      const key = q.get("key");
      const before = q.has("before") ? Number(q.get("before")) : Infinity;
      const limit = Number(q.get("limit") ?? 500);
      const matching = data.history.filter((r) => (!controller || r.controller === controller) && (!key || r.key === key) && r.seq < before);
      return json(res, 200, { records: matching.slice(Math.max(0, matching.length - limit)) });
    }
    if (p === "/api/plan") {
      const answer = data.plan(q.get("controller") ?? "", q.get("key") ?? "");
      if ("status" in answer) return json(res, answer.status, { error: answer.error });
      return json(res, 200, answer);
    }
    if (p === "/api/stream") {
      res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store", connection: "keep-alive", ...SECURITY_HEADERS });
      res.write(`retry: 100\n\n${frame("hello", { ...data.state, now: Date.now() })}`);
      streams.add(res);
      res.on("close", () => streams.delete(res));
      return;
    }
    json(res, 404, { error: `no route ${p}` });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => json(res, 500, { error: String(err) }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    get data() {
      return current.data;
    },
    set data(d: FakeData) {
      current.data = d;
    },
    requests,
    send(type, payload) {
      for (const res of streams) res.write(frame(type, payload));
    },
    streams: () => streams.size,
    dropStreams() {
      for (const res of streams) res.end();
      streams.clear();
    },
    async close() {
      for (const res of streams) res.end();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function frame(type: string, data: unknown): string {
  return `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}

// ---------------------------------------------------------------------------------------------
// Canned data

const T0 = Date.UTC(2026, 10, 28, 9, 0, 0);

function child(kind: string, name: string, action: ChildNode["action"], extra: Partial<ChildNode> = {}): ChildNode {
  return { apiVersion: kind === "Deployment" || kind === "StatefulSet" ? "apps/v1" : "v1", kind, namespace: "default", name, state: "ready", action, children: [], ...extra };
}

function owner(controller: string, kind: string, name: string, children: ChildNode[], last?: OwnerNode["last"]): OwnerNode {
  return { apiVersion: "example.com/v1", kind, namespace: "default", name, controller, key: `default/${name}`, uid: `uid-${name}`, generation: 3, state: "ready", children, last };
}

/** Owners of the `pinot` and `greeting` controllers: children of every action, grandchildren. */
export function cannedOwners(): Record<string, OwnerNode[]> {
  const deleted: Trigger = { reason: "event", event: "DELETED", role: "owns", apiVersion: "apps/v1", kind: "StatefulSet", namespace: "default", name: "pinot-broker" };
  return {
    pinot: [
      owner(
        "pinot",
        "PinotCluster",
        "pinot-a",
        [
          child("StatefulSet", "pinot-broker", "keep", { detail: "3/3 ready", configHashes: { CONFIG_HASH: "0123456789abcdef0123" } }),
          child("StatefulSet", "pinot-server", "update", {
            state: "progressing",
            detail: "2/3 ready",
            reason: "spec.replicas changed",
            children: [child("PersistentVolumeClaim", "data-pinot-server-0", "unmanaged", { detail: "Bound" }), child("PersistentVolumeClaim", "data-pinot-server-1", "unmanaged", { detail: "Bound" })],
          }),
          child("ConfigMap", "pinot-config", "create", { state: "unknown", missing: true }),
          child("Service", "pinot-broker", "keep"),
          child("Secret", "pinot-credentials", "foreign", { reason: "not controlled by default/pinot-a" }),
        ],
        { seq: 4999, outcome: "done", endedAt: T0 + 4999 * 100, trigger: deleted },
      ),
      owner("pinot", "PinotCluster", "pinot-b", [
        child("ConfigMap", "pinot-b-old", "prune", { state: "deleting" }),
        child("StatefulSet", "pinot-b-server", "wait", { state: "progressing", reason: "waiting for pinot-b-broker to be ready" }),
        child("Service", "pinot-b-broker", "failed", { state: "failed", reason: "Service \"pinot-b-broker\" is invalid: spec.ports: Required value" }),
        child("StatefulSet", "pinot-b-broker", "unknown", { state: "unknown" }),
      ]),
    ],
    greeting: [owner("greeting", "Greeting", "hello", [child("Deployment", "hello", "keep", { detail: "1/1 ready" }), child("ConfigMap", "hello", "update", { reason: "data changed" })])],
  };
}

const TRIGGERS: Trigger[] = [
  { reason: "event", event: "DELETED", role: "owns", apiVersion: "apps/v1", kind: "StatefulSet", namespace: "default", name: "pinot-broker" },
  { reason: "event", event: "MODIFIED", role: "watches", apiVersion: "v1", kind: "ConfigMap", namespace: "default", name: "app", changed: ["data"] },
  { reason: "requeue-after", delayMs: 30000 },
  { reason: "event", event: "ADDED", role: "for", apiVersion: "example.com/v1", kind: "PinotCluster", namespace: "default", name: "pinot-a", initial: true },
  { reason: "retry", delayMs: 200 },
];

/** A write of `spec.replicas` 2 → 3 (and a label added). */
export function replicasWrite(name: string): WriteRecord {
  return {
    apiVersion: "apps/v1",
    kind: "StatefulSet",
    namespace: "default",
    name,
    verb: "update",
    resourceVersion: "1234",
    diff: [
      { op: "replace", path: "/spec/replicas", old: 2, value: 3 },
      { op: "add", path: "/metadata/labels/tier", value: "broker" },
    ],
  };
}

/**
 * `n` reconcile records, seq 1..n, alternating `pinot` / `greeting` over 50 keys; seq n−10 is
 * self-triggered and seq n−5 a loop; the last 3 are of key `default/special`.
 */
export function cannedTimeline(n: number): ReconcileRecord[] {
  const out: ReconcileRecord[] = [];
  for (let seq = 1; seq <= n; seq++) {
    const controller = seq % 2 ? "pinot" : "greeting";
    const key = seq > n - 3 ? "default/special" : `default/${controller}-${seq % 50}`;
    const startedAt = T0 + seq * 100;
    const self = seq === n - 10 || seq === n - 5;
    const trigger: Trigger = self ? { reason: "event", event: "MODIFIED", role: "owns", apiVersion: "apps/v1", kind: "StatefulSet", namespace: "default", name: "pinot-broker", changed: ["spec"], self: true } : TRIGGERS[seq % TRIGGERS.length];
    const error = seq % 97 === 0;
    out.push({
      seq,
      controller,
      key,
      reconcileID: `r-${seq}`,
      trigger,
      triggers: 1 + (seq % 3),
      queuedAt: startedAt - 5,
      startedAt,
      endedAt: startedAt + 12,
      waitMs: 5,
      durationMs: 12,
      outcome: error ? "error" : seq % 10 === 0 ? "requeue-after" : "done",
      requeueAfterMs: seq % 10 === 0 ? 30000 : undefined,
      error: error ? `update StatefulSet default/pinot-broker: conflict (seq ${seq})` : undefined,
      retries: error ? 1 : undefined,
      writes: seq % 7 === 0 || self ? [replicasWrite("pinot-broker")] : [],
      selfTriggered: self,
      loop: seq === n - 5,
    });
  }
  return out;
}

function controllerView(name: string, kind: string, depth: number): ControllerView {
  return {
    name,
    for: { apiVersion: "example.com/v1", kind },
    owns: [{ apiVersion: "apps/v1", kind: "StatefulSet" }, { apiVersion: "v1", kind: "ConfigMap" }],
    watches: [],
    workers: 2,
    queue: { depth, inFlight: 1, waiting: 2, held: 0, keys: [{ key: `default/${name}-1`, retries: 3, dueAt: Date.now() + 4000 }, { key: `default/${name}-2`, retries: 0, held: true }] },
    reconciles: { total: 2500, errors: 25, loops: name === "pinot" ? 1 : 0 },
  };
}

/** Informers of the canned state. */
export function cannedInformers(): InformerView[] {
  const now = Date.now();
  return [
    { apiVersion: "example.com/v1", kind: "PinotCluster", namespace: "", synced: true, stale: false, objects: 2, lastEventAt: now - 3000, events: 40, lists: 1, relists: 0, watchFailures: 0, stalls: 0, approxBytes: 4096 },
    { apiVersion: "apps/v1", kind: "StatefulSet", namespace: "", synced: true, stale: false, objects: 6, lastEventAt: now - 500, events: 900, lists: 2, relists: 1, watchFailures: 1, stalls: 1, approxBytes: 3 * 1024 * 1024 },
    { apiVersion: "v1", kind: "ConfigMap", namespace: "default", synced: false, stale: true, objects: 12, events: 0, lists: 1, relists: 0, watchFailures: 0, stalls: 2, approxBytes: 800 },
  ];
}

/** Everything the fake serves: 2 controllers, 5,000 records, events, logs, 64 buckets on 2 members. */
export function cannedData(timeline = 5000): FakeData {
  const records = cannedTimeline(timeline);
  const events: EventRecord[] = [];
  for (let i = 1; i <= 30; i++) {
    events.push({
      seq: i,
      at: T0 + i * 1000,
      type: i % 5 === 0 ? "Warning" : "Normal",
      reason: i % 5 === 0 ? "ReconcileError" : "Created",
      note: `created StatefulSet pinot-broker (${i})`,
      regarding: { apiVersion: "example.com/v1", kind: "PinotCluster", namespace: "default", name: i % 2 ? "pinot-a" : "pinot-b" },
      controller: "pinot",
      key: i % 2 ? "default/pinot-a" : "default/pinot-b",
    });
  }
  const levels: LogRecord["level"][] = ["debug", "info", "info", "warn", "error"];
  const logs: LogRecord[] = [];
  for (let i = 1; i <= 60; i++) {
    const level = levels[i % levels.length];
    logs.push({ seq: i, at: T0 + i * 500, level, msg: level === "error" ? "reconcile failed" : "reconciled", controller: "pinot", key: i % 2 ? "default/pinot-a" : "default/pinot-b", fields: { durationMs: i, trigger: { reason: "requeue" } } });
  }
  const even = Array.from({ length: 32 }, (_, i) => i * 2);
  const odd = even.map((b) => b + 1);
  const state: DashboardState = {
    protocol: 1,
    now: Date.now(),
    startedAt: T0,
    ownership: {
      identity: "replica-a",
      role: "leader",
      leaderElection: { namespace: "default", name: "operator-lock", holder: "replica-a" },
      sharding: {
        ring: "operator-ring",
        buckets: 64,
        served: even,
        members: [
          { identity: "replica-a", buckets: even },
          { identity: "replica-b", buckets: odd },
        ],
        handovers: [
          { at: T0 + 1000, bucket: 1, change: "drained" },
          { at: T0 + 2000, bucket: 2, change: "served" },
        ],
      },
    },
    controllers: [controllerView("pinot", "PinotCluster", 4), controllerView("greeting", "Greeting", 0)],
    informers: cannedInformers(),
    timeline: records,
    events,
    logs,
  };
  return {
    state,
    owners: cannedOwners(),
    history: records,
    plan(controller, key) {
      if (key === "default/broken") return { status: 500, error: `dry run of default/broken failed: admission webhook denied the request` };
      const writes = key === "default/pinot-a" ? [replicasWrite("pinot-server")] : [];
      return {
        controller,
        key,
        at: Date.now(),
        outcome: "done",
        writes,
        objects: [
          { apiVersion: "apps/v1", kind: "StatefulSet", namespace: "default", name: "pinot-server", action: writes.length ? "update" : "keep", reason: writes.length ? "spec.replicas changed" : undefined },
          { apiVersion: "v1", kind: "Service", namespace: "default", name: "pinot-broker", action: "keep" },
        ],
      };
    },
  };
}
