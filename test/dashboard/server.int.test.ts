/**
 * The dashboard's HTTP server on a real Manager (LocalCluster, real HTTP): a Builder-based
 * controller, its JSON API, the server-sent events stream, the plan, and the read-only and
 * loopback guards.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { LocalCluster } from "../../src/testing/index.ts";
import { Action, Builder, Manager } from "../../src/index.ts";
import { silentLogger } from "../../src/entries/client.ts";
import { ConfigMap } from "../../src/kinds/index.ts";
import { defineKind } from "../../src/kinds/custom-resource.ts";
import type { DashboardState, OwnerNode, PlanView, ReconcileRecord, StreamMessage } from "../../src/dashboard/types.ts";
import { createDataApp, installDataApp } from "../support/owner.ts";
import { raw, waitFor, within } from "../support/wait.ts";

const NS = "dash";
const DataApp = defineKind<{ v?: number }>({ apiVersion: "example.com/v1", kind: "DataApp" });

/** A plain HTTP request (any method and Host header, which fetch does not allow). */
function http(url: string, method: string, headers: Record<string, string> = {}): Promise<{ code: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ code: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.setTimeout(10_000, () => req.destroy(new Error(`${method} ${url}: no answer within 10 s`)));
    req.end();
  });
}

/** Follows `/api/stream`: every message parsed, in order. */
async function follow(url: string): Promise<{ messages: StreamMessage[]; headers: Headers; close: () => void; ended: Promise<void> }> {
  const abort = new AbortController();
  const res = await fetch(new URL("/api/stream", url), { signal: abort.signal });
  assert.equal(res.status, 200);
  const messages: StreamMessage[] = [];
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const ended = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        for (let i = buffer.indexOf("\n\n"); i >= 0; i = buffer.indexOf("\n\n")) {
          const frame = buffer.slice(0, i);
          buffer = buffer.slice(i + 2);
          const type = /^event: (.*)$/m.exec(frame)?.[1];
          const data = /^data: (.*)$/m.exec(frame)?.[1];
          if (type && data !== undefined) messages.push({ type, data: JSON.parse(data) } as StreamMessage);
        }
      }
    } catch {
      // Aborted.
    }
  })();
  return { messages, headers: res.headers, close: () => abort.abort(), ended };
}

describe("the dashboard server on a Manager (LocalCluster)", () => {
  let cluster: LocalCluster;
  let mgr: Manager;
  let url: string;
  /** The ConfigMaps each DataApp wants (the cart's come from its spec). */
  const wants = new Map<string, { name: string; data: Record<string, string> }[]>();
  /** Runs of the reconciler in a plan. */
  let planned = 0;

  const json = async <T>(path: string): Promise<{ code: number; body: T; headers: Headers }> => {
    const r = await fetch(new URL(path, url));
    return { code: r.status, body: (await r.json()) as T, headers: r.headers };
  };
  const owners = async (controller = "apps") => (await json<{ controller: string; owners: OwnerNode[] }>(`/api/owners?controller=${controller}`)).body.owners;
  const ownerOf = async (name: string) => (await owners()).find((o) => o.name === name);
  const children = (o: OwnerNode | undefined) => Object.fromEntries((o?.children ?? []).map((c) => [c.name, c.action]));

  before(async () => {
    cluster = await LocalCluster.start();
    await installDataApp(cluster.url);
    await raw(cluster.url, "POST", "/api/v1/namespaces", { metadata: { name: NS } });
    mgr = new Manager({ kubeConfig: cluster.kubeConfig, healthPort: false, logger: silentLogger, fieldManager: "dash-test" }).dashboard({ port: 0 });
    mgr.controller("apps").for(DataApp).owns(ConfigMap).reconcile(async (req, ctx) => {
      const app = await mgr.cache.get({ ...DataApp, namespace: req.namespace, name: req.name });
      if (!app) return Action.done();
      if (ctx.dryRun) planned++;
      const desired = req.name === "cart" ? [{ name: "cart-cfg", data: { v: String(app.spec.v ?? 1) } }] : (wants.get(req.name) ?? []);
      if (req.name === "multi") {
        // Two Builders of one owner, each with its component.
        for (const component of ["one", "two"]) {
          await new Builder({ client: mgr.client, owner: app, reader: mgr.cache, signal: ctx.signal, component })
            .configMap({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: `multi-${component}` }, data: { c: component } })
            .reconcile();
        }
        return Action.done();
      }
      const builder = new Builder({ client: mgr.client, owner: app, reader: mgr.cache, recorder: mgr.recorder!, signal: ctx.signal });
      for (const c of desired) builder.configMap({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: c.name }, data: c.data });
      const result = await builder.reconcile();
      if (req.name === "cart" && !result.ok) throw new Error(`cart: ${result.errors.map((e) => e.message).join("; ")}`);
      return Action.done();
    });
    await within(mgr.start(), "mgr.start()", 15_000);
    url = mgr.dashboardUrl!;
  });
  after(async () => {
    await within(mgr.stop(), "mgr.stop()", 15_000);
    await within(cluster.stop(), "cluster.stop()");
  });

  it("listens on loopback at dashboardUrl, serves the page and its assets with a strict policy", async () => {
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
    const page = await fetch(url);
    assert.equal(page.status, 200);
    assert.match(page.headers.get("content-type") ?? "", /^text\/html/);
    assert.match(page.headers.get("content-security-policy") ?? "", /default-src 'none'/);
    assert.equal(page.headers.get("x-content-type-options"), "nosniff");
    assert.match(await page.text(), /<html/i);
    const js = await fetch(new URL("/assets/app.js", url));
    assert.equal(js.status, 200);
    assert.match(js.headers.get("content-type") ?? "", /^text\/javascript/);
    await js.arrayBuffer();
    for (const path of ["/assets/server.ts", "/assets/..%2fserver.ts", "/assets/%2e%2e/diff.ts", "/assets/nope.js"]) {
      assert.equal((await http(new URL(path, url).href, "GET")).code, 404, path);
    }
    const head = await http(url, "HEAD");
    assert.equal(head.code, 200);
    assert.equal(head.body, "");
    assert.equal((await json<{ ok: boolean }>("/healthz")).body.ok, true);
  });

  it("answers /api/state: protocol, ownership, controllers with their queue, informers, timeline, log", async () => {
    wants.set("shop", [{ name: "shop-a", data: { v: "1" } }]);
    await createDataApp(cluster.url, NS, "shop");
    await waitFor(async () => children(await ownerOf("shop"))["shop-a"] === "keep", "shop-a kept");
    const { code, body: state, headers } = await json<DashboardState>("/api/state");
    assert.equal(code, 200);
    assert.match(headers.get("content-type") ?? "", /^application\/json/);
    assert.equal(headers.get("cache-control"), "no-store");
    assert.equal(state.protocol, 1);
    assert.ok(state.now >= state.startedAt);
    assert.equal(state.ownership.role, "always");
    assert.equal(typeof state.ownership.identity, "string");
    assert.equal(state.controllers.length, 1);
    const c = state.controllers[0]!;
    assert.equal(c.name, "apps");
    assert.deepEqual(c.for, { apiVersion: "example.com/v1", kind: "DataApp" });
    assert.deepEqual(c.owns, [{ apiVersion: "v1", kind: "ConfigMap" }]);
    assert.deepEqual(c.watches, []);
    assert.equal(c.workers, 1);
    for (const k of ["depth", "inFlight", "waiting", "held"] as const) assert.equal(typeof c.queue[k], "number", k);
    assert.ok(Array.isArray(c.queue.keys));
    assert.ok(c.reconciles.total >= 2, `reconciles: ${JSON.stringify(c.reconciles)}`);
    assert.equal(c.reconciles.errors, 0);
    const informers = state.informers.map((i) => `${i.kind} ${i.synced}`).sort();
    // The controller's two, and the Events informer the dashboard follows other controllers' Events with.
    assert.deepEqual(informers, ["ConfigMap true", "DataApp true", "Event true"]);
    const dataApps = state.informers.find((i) => i.kind === "DataApp")!;
    assert.equal(dataApps.objects, 1);
    assert.ok(dataApps.approxBytes > 0);
    assert.equal(dataApps.stale, false);
    const shop = state.timeline.filter((r) => r.key === `${NS}/shop`);
    assert.ok(shop.length >= 2);
    assert.deepEqual(shop[0]!.trigger, { reason: "event", event: "ADDED", role: "for", apiVersion: "example.com/v1", kind: "DataApp", namespace: NS, name: "shop" });
    assert.equal(shop[0]!.outcome, "done");
    assert.deepEqual(shop[0]!.writes.map((w) => `${w.verb} ${w.kind}/${w.name}`), ["create ConfigMap/shop-a"]);
    assert.ok(shop[0]!.writes[0]!.diff?.some((op) => op.op === "add"), "a create's diff adds the object");
    assert.ok(shop.every((r) => r.seq > 0 && r.waitMs >= 0 && typeof r.durationMs === "number"));
    assert.ok(state.logs.some((l) => /^dashboard: http/.test(l.msg)), `logs: ${state.logs.map((l) => l.msg).join(" | ")}`);
    // The Builder's Events about the shop, with the reconcile they came from.
    const created = await waitFor(async () => (await json<DashboardState>("/api/state")).body.events.find((e) => e.regarding.name === "shop" && /shop-a/.test(e.note)), "the Builder's Event in the Events view");
    assert.equal(created.type, "Normal");
    assert.equal(created.regarding.kind, "DataApp");
    assert.equal(created.controller, "apps");
    assert.equal(created.key, `${NS}/shop`);
  });

  it("answers /api/owners: each child with keep, create, update, prune and foreign (a plan), and the last run", async () => {
    wants.set("tree", [{ name: "tree-a", data: { v: "1" } }, { name: "tree-b", data: { v: "1" } }, { name: "tree-c", data: { v: "1" } }]);
    await createDataApp(cluster.url, NS, "tree");
    const kept = await waitFor(async () => {
      const o = await ownerOf("tree");
      const c = children(o);
      return c["tree-a"] === "keep" && c["tree-b"] === "keep" && c["tree-c"] === "keep" ? o : undefined;
    }, "the three children kept");
    assert.equal(kept.kind, "DataApp");
    assert.equal(kept.key, `${NS}/tree`);
    assert.equal(kept.controller, "apps");
    assert.ok(kept.uid);
    assert.equal(kept.last?.outcome, "done");
    for (const child of kept.children) {
      assert.equal(child.kind, "ConfigMap");
      assert.equal(child.state, "ready");
      assert.equal(child.planned, undefined);
    }
    // One child changes, one goes, one comes: a plan (nothing written) shows each.
    wants.set("tree", [{ name: "tree-a", data: { v: "1" } }, { name: "tree-b", data: { v: "2" } }, { name: "tree-d", data: { v: "1" } }]);
    const plan = await json<PlanView>(`/api/plan?controller=apps&key=${NS}/tree`);
    assert.equal(plan.code, 200, JSON.stringify(plan.body));
    assert.deepEqual(Object.fromEntries(plan.body.objects.map((o) => [o.name, o.action])), {
      "tree-a": "unchanged", "tree-b": "updated", "tree-d": "created", "tree-c": "deleted",
    });
    const tree = await ownerOf("tree");
    assert.deepEqual(children(tree), { "tree-a": "keep", "tree-b": "update", "tree-c": "prune", "tree-d": "create" });
    const byName = new Map(tree!.children.map((c) => [c.name, c]));
    assert.equal(byName.get("tree-b")!.planned, true);
    assert.equal(byName.get("tree-b")!.reason, "the desired state changed");
    assert.equal(byName.get("tree-d")!.missing, true, "not created: only planned");
    assert.equal(byName.get("tree-c")!.missing, undefined, "still there: only planned");
    assert.equal(tree!.last?.outcome, "done", "the last real run");

    // Someone else's ConfigMap with a name the owner now wants: refused (and no prune while an object failed).
    const foreign = await raw(cluster.url, "POST", `/api/v1/namespaces/${NS}/configmaps`, { metadata: { name: "tree-f" }, data: { mine: "no" } });
    assert.equal(foreign.code, 201);
    await waitFor(async () => (await json<DashboardState>("/api/state")).body.informers.find((i) => i.kind === "ConfigMap")!.objects >= 5, "the foreign ConfigMap cached");
    wants.set("tree", [{ name: "tree-a", data: { v: "1" } }, { name: "tree-f", data: { v: "1" } }]);
    const refused = await json<PlanView>(`/api/plan?controller=apps&key=${NS}/tree`);
    assert.equal(refused.code, 200);
    assert.deepEqual(Object.fromEntries(refused.body.objects.map((o) => [o.name, o.action])), { "tree-a": "unchanged", "tree-f": "failed" });
    const withForeign = await ownerOf("tree");
    const f = withForeign!.children.find((c) => c.name === "tree-f");
    assert.equal(f?.action, "foreign");
    assert.equal(f?.uid, foreign.body.metadata.uid, "the foreign object, found in the cache");
    assert.equal(f?.missing, undefined);
    assert.match(f?.reason ?? "", /tree-f/);
    // Nothing was written.
    assert.equal((await raw(cluster.url, "GET", `/api/v1/namespaces/${NS}/configmaps/tree-d`)).code, 404);
    assert.equal((await raw(cluster.url, "GET", `/api/v1/namespaces/${NS}/configmaps/tree-c`)).code, 200);
    assert.deepEqual((await raw(cluster.url, "GET", `/api/v1/namespaces/${NS}/configmaps/tree-f`)).body.data, { mine: "no" });
  });

  it("shows the children of every Builder of an owner (two components), in runs and in plans", async () => {
    await createDataApp(cluster.url, NS, "multi");
    await waitFor(async () => {
      const o = await ownerOf("multi");
      return o?.children.length === 2 && o.children.every((c) => c.action !== "create") ? o : undefined;
    }, "the two children reconciled twice");
    assert.deepEqual(children(await ownerOf("multi")), { "multi-one": "keep", "multi-two": "keep" }, "each Builder's child with its action, not only the last Builder's");
    const plan = await json<PlanView>(`/api/plan?controller=apps&key=${NS}/multi`);
    assert.deepEqual(plan.body.objects.map((o) => `${o.action} ${o.name}`).sort(), ["unchanged multi-one", "unchanged multi-two"]);
    assert.deepEqual(children(await ownerOf("multi")), { "multi-one": "keep", "multi-two": "keep" }, "after a plan too");
  });

  it("answers /api/plan with the diff of a pending change whose real writes fail, nothing written", async () => {
    await createDataApp(cluster.url, NS, "cart", { v: 1 });
    await waitFor(async () => children(await ownerOf("cart"))["cart-cfg"] === "keep", "cart-cfg kept");
    cluster.inject({ verb: "patch", resource: "configmaps", dryRun: false, code: 500, times: Infinity });
    try {
      const r = await raw(cluster.url, "PATCH", `/apis/example.com/v1/namespaces/${NS}/dataapps/cart`, { spec: { v: 2 } }, "application/merge-patch+json");
      assert.equal(r.code, 200, r.text);
      const failed = await waitFor(async () => (await json<{ records: ReconcileRecord[] }>(`/api/timeline?key=${NS}/cart`)).body.records.find((rec) => rec.outcome === "error"), "a failed reconcile of the cart");
      assert.match(failed.error ?? "", /cart:/);
      assert.deepEqual(failed.trigger.changed, ["spec"]);
      const write = failed.writes.find((w) => w.name === "cart-cfg");
      assert.ok(write?.error, `the failed write shows its error: ${JSON.stringify(failed.writes)}`);
      assert.equal(write.diff, null);

      const plan = await json<PlanView>(`/api/plan?controller=apps&key=${NS}/cart`);
      assert.equal(plan.code, 200, JSON.stringify(plan.body));
      assert.equal(plan.body.controller, "apps");
      assert.equal(plan.body.key, `${NS}/cart`);
      assert.equal(plan.body.outcome, "done");
      assert.deepEqual(plan.body.objects, [{ apiVersion: "v1", kind: "ConfigMap", namespace: NS, name: "cart-cfg", action: "updated", reason: "the desired state changed" }]);
      assert.equal(plan.body.writes.length, 1);
      const w = plan.body.writes[0]!;
      assert.equal(w.verb, "apply");
      assert.equal(w.dryRun, true);
      assert.equal(w.error, undefined);
      assert.deepEqual(w.diff?.find((op) => op.path === "/data/v"), { op: "replace", path: "/data/v", old: "1", value: "2" });
      assert.ok(w.diff!.every((op) => op.path === "/data/v" || op.path.startsWith("/metadata/annotations")), `only the change: ${JSON.stringify(w.diff)}`);
      assert.deepEqual((await raw(cluster.url, "GET", `/api/v1/namespaces/${NS}/configmaps/cart-cfg`)).body.data, { v: "1" }, "nothing written");
    } finally {
      cluster.clearFaults();
    }
    mgr.controllers()[0]!.enqueue({ namespace: NS, name: "cart" });
    await waitFor(async () => (await raw(cluster.url, "GET", `/api/v1/namespaces/${NS}/configmaps/cart-cfg`)).body.data.v === "2", "the change made once writes work");
  });

  it("filters /api/timeline by controller, key, before and limit", async () => {
    const all = (await json<{ records: ReconcileRecord[] }>("/api/timeline")).body.records;
    assert.ok(all.length >= 4);
    assert.deepEqual(all.map((r) => r.seq), [...all.map((r) => r.seq)].sort((a, b) => a - b), "oldest first");
    const shop = (await json<{ records: ReconcileRecord[] }>(`/api/timeline?controller=apps&key=${encodeURIComponent(`${NS}/shop`)}`)).body.records;
    assert.ok(shop.length >= 2 && shop.every((r) => r.key === `${NS}/shop` && r.controller === "apps"));
    assert.deepEqual((await json<{ records: ReconcileRecord[] }>("/api/timeline?controller=other")).body.records, []);
    const last2 = (await json<{ records: ReconcileRecord[] }>("/api/timeline?limit=2")).body.records;
    const after = (await json<{ records: ReconcileRecord[] }>("/api/timeline")).body.records;
    // The newest two at the time (a reconcile may start between the requests).
    assert.equal(last2.length, 2);
    assert.ok(last2[0]!.seq < last2[1]!.seq && last2[1]!.seq >= all.at(-1)!.seq, `newest two: ${last2.map((r) => r.seq)}`);
    assert.ok(last2.every((r) => after.some((a) => a.seq === r.seq)) && after.filter((a) => a.seq > last2[1]!.seq).every((a) => a.seq > all.at(-1)!.seq));
    const pivot = all[2]!.seq;
    const older = (await json<{ records: ReconcileRecord[] }>(`/api/timeline?before=${pivot}`)).body.records;
    assert.deepEqual(older.map((r) => r.seq), all.filter((r) => r.seq < pivot).map((r) => r.seq));
    assert.equal((await json<{ records: ReconcileRecord[] }>("/api/timeline?limit=nonsense")).code, 200);
  });

  it("streams hello, then each reconcile as it starts and ends (server-sent events)", async () => {
    const stream = await follow(url);
    try {
      assert.match(stream.headers.get("content-type") ?? "", /^text\/event-stream/);
      const hello = await waitFor(() => stream.messages[0], "the hello message");
      assert.equal(hello.type, "hello");
      assert.equal((hello.data as DashboardState).protocol, 1);
      assert.equal((hello.data as DashboardState).controllers[0]!.name, "apps");
      const r = await raw(cluster.url, "PATCH", `/apis/example.com/v1/namespaces/${NS}/dataapps/shop`, { metadata: { labels: { touched: "yes" } } }, "application/merge-patch+json");
      assert.equal(r.code, 200);
      const ended = await waitFor(() => stream.messages.find((m) => m.type === "reconcile" && m.data.key === `${NS}/shop` && m.data.outcome === "done" && m.data.trigger.changed?.includes("metadata")), "the reconcile's end");
      // Its start came first with the same seq, or in the same 100 ms batch, merged into its end.
      const same = stream.messages.filter((m) => m.type === "reconcile" && m.data.seq === (ended.data as ReconcileRecord).seq);
      assert.ok(same.length <= 2 && same.at(-1) === ended, `one record per state, the end last: ${same.map((m) => (m.data as ReconcileRecord).outcome)}`);
      if (same.length === 2) assert.equal((same[0]!.data as ReconcileRecord).outcome, "running");
      await waitFor(() => stream.messages.some((m) => m.type === "stats"), "a stats message", 3000);
    } finally {
      stream.close();
      await stream.ended;
    }
  });

  it("shows the Events other controllers write about the operator's objects, and not others'", async () => {
    const shop = await waitFor(async () => (await ownerOf("shop"))?.children.find((c) => c.uid), "a child of shop");
    // The dashboard follows Events from when its informer has listed them (older ones are not news).
    await waitFor(async () => (await json<DashboardState>("/api/state")).body.informers.some((i) => i.kind === "Event" && i.synced), "the dashboard's Events informer");
    const event = (name: string, regarding: Record<string, string>) => ({
      apiVersion: "events.k8s.io/v1", kind: "Event", metadata: { name, namespace: NS }, eventTime: new Date().toISOString().replace(/\.\d+Z$/, ".000000Z"),
      reportingController: "example.com/other-controller", reportingInstance: "other-1", action: "Check", reason: "SomethingHappened", type: "Warning",
      note: `about ${regarding.name}`, regarding,
    });
    const ours = await raw(cluster.url, "POST", `/apis/events.k8s.io/v1/namespaces/${NS}/events`,
      event("about-ours", { apiVersion: shop.apiVersion, kind: shop.kind, namespace: NS, name: shop.name, uid: shop.uid! }));
    assert.equal(ours.code, 201, JSON.stringify(ours.body));
    const theirs = await raw(cluster.url, "POST", `/apis/events.k8s.io/v1/namespaces/${NS}/events`,
      event("about-theirs", { apiVersion: "v1", kind: "ConfigMap", namespace: NS, name: "not-ours-at-all" }));
    assert.equal(theirs.code, 201);
    const shown = await waitFor(async () => (await json<DashboardState>("/api/state")).body.events.find((e) => e.note === `about ${shop.name}`), "the other controller's Event");
    assert.equal(shown.reportedBy, "example.com/other-controller");
    assert.equal(shown.type, "Warning");
    assert.deepEqual(shown.regarding, { apiVersion: shop.apiVersion, kind: shop.kind, namespace: NS, name: shop.name });
    assert.ok(!(await json<DashboardState>("/api/state")).body.events.some((e) => e.note === "about not-ours-at-all"));
  });

  it("answers HEAD on /api/plan and /api/stream without planning or streaming", async () => {
    const before = (await json<DashboardState>("/api/state")).body.timeline.length;
    for (const path of [`/api/plan?controller=apps&key=${NS}/shop`, "/api/stream"]) {
      const r = await http(new URL(path, url).href, "HEAD");
      assert.equal(r.code, 200, path);
      assert.equal(r.body, "", path);
    }
    assert.ok((await json<DashboardState>("/api/state")).body.timeline.length >= before);
  });

  it("is read-only: POST, PUT, DELETE, PATCH and OPTIONS get 405 with Allow: GET, HEAD", async () => {
    for (const method of ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"]) {
      for (const path of ["/", "/api/state", `/api/plan?controller=apps&key=${NS}/shop`]) {
        const r = await http(new URL(path, url).href, method);
        assert.equal(r.code, 405, `${method} ${path}`);
        assert.equal(r.headers.allow, "GET, HEAD");
        assert.match(JSON.parse(r.body).error, /read-only/);
      }
    }
  });

  it("answers 403 to a Host header of another name (DNS rebinding), and serves localhost names", async () => {
    const port = new URL(url).port;
    for (const host of [`evil.example:${port}`, "evil.example", `127.0.0.1.evil.example:${port}`, `localhost.evil.example:${port}`]) {
      const r = await http(new URL("/api/state", url).href, "GET", { host });
      assert.equal(r.code, 403, host);
      assert.match(JSON.parse(r.body).error, /Host/);
    }
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `app.localhost:${port}`]) {
      assert.equal((await http(new URL("/api/state", url).href, "GET", { host })).code, 200, host);
    }
  });

  it("runs no plan for another site's page (a cross-site GET, e.g. an <img> on a page the user visits)", async () => {
    // A plan runs the reconciler (whose side effects outside Kubernetes are not dry runs unless it checks ctx.dryRun):
    // the browser sends the dashboard's own Host, so only Origin / Sec-Fetch-Site tell the request came from elsewhere.
    const plansBefore = planned;
    const r = await http(new URL(`/api/plan?controller=apps&key=${NS}/shop`, url).href, "GET", { origin: "https://evil.example", "sec-fetch-site": "cross-site", "sec-fetch-mode": "no-cors" });
    assert.equal(r.code, 403, `a cross-site plan request: ${r.code} ${r.body.slice(0, 200)}`);
    assert.equal(planned, plansBefore, "the reconciler did not run");
    // The page itself (same origin) still plans.
    const same = await http(new URL(`/api/plan?controller=apps&key=${NS}/shop`, url).href, "GET", { "sec-fetch-site": "same-origin" });
    assert.equal(same.code, 200);
    assert.equal(planned, plansBefore + 1);
  });

  it("answers 404 to an unknown path or controller, 400 to a bad key", async () => {
    assert.equal((await http(new URL("/api/nope", url).href, "GET")).code, 404);
    assert.equal((await http(new URL("/nope", url).href, "GET")).code, 404);
    const owners404 = await json<{ error: string }>("/api/owners?controller=nope");
    assert.equal(owners404.code, 404);
    assert.match(owners404.body.error, /no controller named "nope".*apps/);
    assert.equal((await json<{ error: string }>(`/api/plan?controller=nope&key=${NS}/shop`)).code, 404);
    for (const key of ["", "a/b/c", "ns/"]) {
      const r = await json<{ error: string }>(`/api/plan?controller=apps&key=${encodeURIComponent(key)}`);
      assert.equal(r.code, 400, key);
      assert.match(r.body.error, /key/);
    }
  });

  it("refuses mgr.dashboard() after start", () => {
    assert.throws(() => mgr.dashboard({ port: 0 }), /call it before start\(\)/);
  });
});

describe("a Manager without the dashboard", () => {
  let cluster: LocalCluster;
  before(async () => {
    cluster = await LocalCluster.start();
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("checks the dashboard's options when they are given (named field, the fix), not at start", () => {
    const mgr = () => new Manager({ kubeConfig: cluster.kubeConfig, healthPort: false, logger: silentLogger });
    assert.throws(() => mgr().dashboard({ port: 70000 }), /port/);
    assert.throws(() => mgr().dashboard({ port: 1.5 }), /port/);
    assert.throws(() => mgr().dashboard({ logLevel: "verbose" as never }), /logLevel/);
    assert.throws(() => mgr().dashboard({ timeline: -1 }), /timeline/);
    assert.throws(() => mgr().dashboard({ host: 5 as never }), /host/);
    assert.throws(() => new Manager({ kubeConfig: cluster.kubeConfig, healthPort: false, logger: silentLogger, dashboard: { port: -1 } }), /port/);
  });

  it("has no dashboardUrl", async () => {
    const mgr = new Manager({ kubeConfig: cluster.kubeConfig, healthPort: false, logger: silentLogger });
    mgr.controller("plain").for(ConfigMap).reconcile(() => Action.done());
    await within(mgr.start(), "mgr.start()", 15_000);
    assert.equal(mgr.dashboardUrl, undefined);
    await within(mgr.stop(), "mgr.stop()", 15_000);
    assert.equal(mgr.dashboardUrl, undefined);
  });

  it("loads none of the dashboard's modules, started and stopped (a separate process)", async () => {
    const script = `
      import { registerHooks } from "node:module";
      const loaded = [];
      registerHooks({ load(url, context, next) { if (url.includes("/src/dashboard/")) loaded.push(url); return next(url, context); } });
      const { Manager, Action, KubeConfig } = await import(${JSON.stringify(new URL("../../src/index.ts", import.meta.url).href)});
      const { silentLogger } = await import(${JSON.stringify(new URL("../../src/entries/client.ts", import.meta.url).href)});
      const kubeConfig = new KubeConfig();
      kubeConfig.loadFromFile(${JSON.stringify(cluster.kubeconfigPath)});
      const mgr = new Manager({ kubeConfig, healthPort: false, logger: silentLogger });
      mgr.controller("plain").for({ apiVersion: "v1", kind: "ConfigMap" }).reconcile(() => Action.done());
      await mgr.start();
      await mgr.stop();
      const off = { loaded: [...loaded], url: mgr.dashboardUrl ?? null };
      // The control: with it on, the hook sees the dashboard's modules.
      const on = new Manager({ kubeConfig, healthPort: false, logger: silentLogger }).dashboard({ port: 0 });
      await on.start();
      await on.stop();
      console.log(JSON.stringify({ off, on: loaded.length > 0 }));
    `;
    // Asynchronously: this process serves the cluster meanwhile.
    const r = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", timeout: 30_000 });
    assert.deepEqual(JSON.parse(r.stdout.trim().split("\n").at(-1)!), { off: { loaded: [], url: null }, on: true }, "no module of src/dashboard loaded while it is off");
  });
});
