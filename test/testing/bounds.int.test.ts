import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { CoreV1Api, Watch } from "@kubernetes/client-node";
import { LocalCluster } from "../../src/testing/index.ts";
import { raw, waitFor, within } from "../support/wait.ts";

const cmPath = "/api/v1/namespaces/default/configmaps";

/** A billion-laughs body: 7 levels of 10 aliases, about 10^7 nodes once expanded. */
function aliasBomb(): string {
  const lines = ["apiVersion: v1", "kind: ConfigMap", "metadata: {name: bomb}", `l0: &l0 [${Array(10).fill('"lol"').join(",")}]`];
  for (let i = 1; i < 7; i++) lines.push(`l${i}: &l${i} [${Array(10).fill(`*l${i - 1}`).join(",")}]`);
  lines.push("data: {k: v}");
  return lines.join("\n");
}

interface WatchEvent {
  type: string;
  object: any;
}

/** Watches ConfigMaps in `namespace` from `resourceVersion` with client-node's Watch. */
async function watchFrom(cluster: LocalCluster, namespace: string, resourceVersion: string) {
  const events: WatchEvent[] = [];
  let ended = false;
  const request = await within(
    new Watch(cluster.kubeConfig).watch(`/api/v1/namespaces/${namespace}/configmaps`, { resourceVersion },
      (type, object) => events.push({ type, object }), () => { ended = true; }),
    `client-node's Watch from resourceVersion ${resourceVersion} to connect`,
  );
  return { events, ended: () => ended, stop: () => request.abort() };
}

describe("LocalCluster refuses YAML alias bombs and keeps sensible anchors", () => {
  let cluster: LocalCluster;
  before(async () => {
    cluster = await LocalCluster.start();
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("answers a 10^7-node alias bomb in an apply body with 400 and stores nothing", async () => {
    const bomb = aliasBomb();
    assert.ok(bomb.length < 500, `the bomb is small (${bomb.length} bytes)`);
    const r = await within(
      raw(cluster.url, "PATCH", `${cmPath}/bomb?fieldManager=test`, bomb, "application/apply-patch+yaml"),
      "the server's answer to the alias bomb",
    );
    assert.equal(r.code, 400);
    assert.equal(r.body.kind, "Status");
    assert.equal(r.body.reason, "BadRequest");
    assert.match(r.body.message, /^error decoding YAML: yaml: document contains excessive aliasing/);
    assert.equal((await raw(cluster.url, "GET", `${cmPath}/bomb`)).code, 404);
  });

  it("answers the same bomb as an application/yaml create body with 400", async () => {
    const r = await within(raw(cluster.url, "POST", cmPath, aliasBomb(), "application/yaml"), "the answer to the YAML create");
    assert.equal(r.code, 400);
    assert.match(r.body.message, /excessive aliasing/);
  });

  it("answers an alias inside its own anchor (a cycle) with 400", async () => {
    const body = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: loop}\nloop: &a [*a]\n";
    const r = await within(raw(cluster.url, "PATCH", `${cmPath}/loop?fieldManager=test`, body, "application/apply-patch+yaml"), "the answer to the cyclic apply");
    assert.equal(r.code, 400);
    assert.match(r.body.message, /contains an alias to itself/);
  });

  it("applies YAML that uses anchors and aliases sensibly", async () => {
    const body = [
      "apiVersion: v1",
      "kind: ConfigMap",
      "metadata:",
      "  name: anchored",
      "  labels: &labels",
      "    app: web",
      "    tier: front",
      "  annotations: *labels",
      "data:",
      "  first: &greeting hello",
      "  second: *greeting",
      "",
    ].join("\n");
    const r = await raw(cluster.url, "PATCH", `${cmPath}/anchored?fieldManager=test`, body, "application/apply-patch+yaml");
    assert.equal(r.code, 201, r.text);
    const cm = await cluster.kubeConfig.makeApiClient(CoreV1Api).readNamespacedConfigMap({ name: "anchored", namespace: "default" });
    assert.deepEqual(cm.metadata!.labels, { app: "web", tier: "front" });
    assert.deepEqual(cm.metadata!.annotations, { app: "web", tier: "front" });
    assert.deepEqual(cm.data, { first: "hello", second: "hello" });
  });

  it("applies a document where one anchor is expanded into thousands of nodes", async () => {
    // 20 keys reused 50 times: 2,000 of ~2,100 nodes come from aliases (95 %, under go-yaml's 99 %).
    const keys = Array.from({ length: 20 }, (_, i) => `k${i}: v${i}`).join(", ");
    const uses = Array.from({ length: 50 }, (_, i) => `  u${i}: *block`).join("\n");
    const body = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: wide}\nblock: &block {${keys}}\nuses:\n${uses}\n`;
    const r = await raw(cluster.url, "POST", cmPath, body, "application/yaml");
    // The body parses; ConfigMaps have no `block`/`uses` fields, which a create drops.
    assert.equal(r.code, 201, r.text);
  });
});

describe("LocalCluster keeps a bounded request log", () => {
  let cluster: LocalCluster;
  let core: CoreV1Api;
  before(async () => {
    cluster = await LocalCluster.start({ requestLogSize: 5 });
    core = cluster.kubeConfig.makeApiClient(CoreV1Api);
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("keeps the newest requests, counts queries over them, and totals every request", async () => {
    for (let i = 0; i < 8; i++) await core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: `log-${i}` } } });
    assert.equal(cluster.requests.writes({ resource: "configmaps" }), 5, "queries see the kept records only");
    cluster.requests.clear();
    for (let i = 0; i < 8; i++) await core.readNamespacedConfigMap({ namespace: "default", name: `log-${i}` });
    assert.equal(cluster.requests.total, 8);
    assert.equal(cluster.requests.dropped, 3);
    assert.equal(cluster.requests.count({ verb: "get" }), 5);
    assert.deepEqual(cluster.requests.all().map((r) => r.name), ["log-3", "log-4", "log-5", "log-6", "log-7"]);
    cluster.requests.clear();
    assert.deepEqual([cluster.requests.total, cluster.requests.dropped, cluster.requests.count()], [0, 0, 0]);
  });

  it("rejects a request log size that keeps nothing", async () => {
    await assert.rejects(LocalCluster.start({ requestLogSize: 0 }), /requestLogSize must be a whole number ≥ 1/);
  });
});

describe("LocalCluster bounds the change history by bytes", () => {
  let cluster: LocalCluster;
  let core: CoreV1Api;
  // Each update below stores a ~20 KB object: 64 KiB keep the last three changes or so.
  const blob = (i: number) => String(i % 10).repeat(20_000);
  before(async () => {
    cluster = await LocalCluster.start({ historyBytes: 64 * 1024 });
    core = cluster.kubeConfig.makeApiClient(CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: "hist" } } });
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("expires a watch from before the kept bytes and replays one from a recent resourceVersion", async () => {
    const first = await core.createNamespacedConfigMap({ namespace: "hist", body: { metadata: { name: "big" }, data: { blob: blob(0) } } });
    let recent = first;
    let last = first;
    for (let i = 1; i <= 10; i++) {
      recent = last;
      last = await core.replaceNamespacedConfigMap({ name: "big", namespace: "hist", body: { ...last, data: { blob: blob(i) } } });
    }
    const old = await watchFrom(cluster, "hist", first.metadata!.resourceVersion!);
    await waitFor(() => old.events.length > 0 && old.ended(), "the watch from the first resourceVersion to end with an event");
    assert.equal(old.events.length, 1);
    assert.equal(old.events[0]!.type, "ERROR");
    assert.equal(old.events[0]!.object.code, 410);
    assert.equal(old.events[0]!.object.reason, "Expired");

    const fresh = await watchFrom(cluster, "hist", recent.metadata!.resourceVersion!);
    await waitFor(() => fresh.events.length === 1, "the replay of the last update");
    assert.equal(fresh.events[0]!.type, "MODIFIED");
    assert.equal(fresh.events[0]!.object.metadata.resourceVersion, last.metadata!.resourceVersion);
    assert.equal(fresh.events[0]!.object.data.blob, blob(10));
    fresh.stop();
  });

  it("expires a continue token once the changes after its list fell off", async () => {
    for (let i = 0; i < 3; i++) await core.createNamespacedConfigMap({ namespace: "hist", body: { metadata: { name: `page-${i}` } } });
    const page = await core.listNamespacedConfigMap({ namespace: "hist", limit: 1 });
    assert.ok(page.metadata!._continue, "the first page has a continue token");
    const next = await core.listNamespacedConfigMap({ namespace: "hist", limit: 1, _continue: page.metadata!._continue! });
    assert.equal(next.items.length, 1, "a fresh token still works");
    for (let i = 0; i < 5; i++) {
      const cm = await core.readNamespacedConfigMap({ name: "big", namespace: "hist" });
      await core.replaceNamespacedConfigMap({ name: "big", namespace: "hist", body: { ...cm, data: { blob: blob(i) } } });
    }
    const expired = await raw(cluster.url, "GET", `/api/v1/namespaces/hist/configmaps?limit=1&continue=${page.metadata!._continue}`);
    assert.equal(expired.code, 410);
    assert.equal(expired.body.reason, "Expired");
  });
});

describe("LocalCluster sets remainingItemCount only on lists without selectors", () => {
  let cluster: LocalCluster;
  let core: CoreV1Api;
  before(async () => {
    cluster = await LocalCluster.start();
    core = cluster.kubeConfig.makeApiClient(CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: "rem" } } });
    for (let i = 0; i < 5; i++) {
      await core.createNamespacedConfigMap({ namespace: "rem", body: { metadata: { name: `r${i}`, labels: { team: i < 4 ? "a" : "b" } } } });
    }
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("counts the remaining items of a plain paged list", async () => {
    const page = await core.listNamespacedConfigMap({ namespace: "rem", limit: 2 });
    assert.equal(page.metadata!.remainingItemCount, 3);
    assert.ok(page.metadata!._continue);
  });

  it("leaves it unset with a label selector, and pages on", async () => {
    const names: string[] = [];
    let cont: string | undefined;
    do {
      const page = await core.listNamespacedConfigMap({ namespace: "rem", limit: 2, labelSelector: "team=a", ...(cont ? { _continue: cont } : {}) });
      assert.equal(page.metadata!.remainingItemCount, undefined);
      names.push(...page.items.map((i) => i.metadata!.name!));
      cont = page.metadata!._continue;
    } while (cont);
    assert.deepEqual(names, ["r0", "r1", "r2", "r3"]);
  });

  it("leaves it unset with a field selector", async () => {
    const page = await core.listNamespacedConfigMap({ namespace: "rem", limit: 1, fieldSelector: "metadata.namespace=rem" });
    assert.ok(page.metadata!._continue, "there is a next page");
    assert.equal(page.metadata!.remainingItemCount, undefined);
  });

  it("counts them when the selectors are present but empty", async () => {
    const r = await raw(cluster.url, "GET", "/api/v1/namespaces/rem/configmaps?limit=2&labelSelector=&fieldSelector=");
    assert.equal(r.code, 200);
    assert.equal(r.body.metadata.remainingItemCount, 3);
  });
});
