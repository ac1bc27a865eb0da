import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { Builder, BuilderValidationErrors, ResourceClient } from "../../src/index.ts";
import type { ConfigMap, KubeObject } from "../../src/index.ts";
import { within } from "../support/wait.ts";

/**
 * What the Builder's applies did, seen at the client: each apply's start and end in order, how
 * many were in flight at most, and (optionally) a hold on the first `holdUntil` applies until
 * that many are in flight together — proof of concurrency without timing.
 */
class Applies {
  events: string[] = [];
  inFlight = 0;
  maxInFlight = 0;
  #holdUntil = 0;
  #release: () => void = () => undefined;
  #held: Promise<void> = Promise.resolve();
  onStart: (inFlight: number) => void = () => undefined;

  /** Holds applies until `n` are in flight together (once). */
  holdUntil(n: number): void {
    this.#holdUntil = n;
    this.#held = new Promise((resolve) => (this.#release = resolve));
  }

  async around<T>(obj: KubeObject, apply: () => Promise<T>): Promise<T> {
    const name = `${obj.kind}/${obj.metadata?.name}`;
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    this.events.push(`start ${name}`);
    this.onStart(this.inFlight);
    try {
      if (this.#holdUntil) {
        if (this.inFlight >= this.#holdUntil) {
          this.#holdUntil = 0;
          this.#release();
        } else {
          await within(this.#held, `${this.#holdUntil} applies in flight together (only ${this.inFlight} started)`);
        }
      }
      return await apply();
    } finally {
      this.inFlight--;
      this.events.push(`end ${name}`);
    }
  }
}

/** `client` with its applies and creates (also those of clients it binds a signal to) going through `applies`. */
function tracked(client: ResourceClient, applies: Applies): ResourceClient {
  return new Proxy(client, {
    get(target, key) {
      // A new object is created (POST), an existing one applied: both are the Builder's writes.
      if (key === "apply") return (obj: KubeObject, opts?: object) => applies.around(obj, () => target.apply(obj, opts));
      if (key === "create") return (obj: KubeObject, opts?: object) => applies.around(obj, () => target.create(obj, opts));
      if (key === "withSignal") return (signal: AbortSignal) => tracked(target.withSignal(signal), applies);
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

const cm = (name: string, v = "1"): KubeObject => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name }, data: { v } });
const deployment = (name: string, config: string): KubeObject => ({
  apiVersion: "apps/v1", kind: "Deployment", metadata: { name },
  spec: { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: {
    containers: [{ name, image: "example/app:1" }], volumes: [{ name: "config", configMap: { name: config } }],
  } } },
});

describe("a Builder reconciles the objects of a phase at once", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  let n = 0;
  const owner = async () => client.create<ConfigMap>({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: `owner-${++n}`, namespace: "default" } });
  /** Five ConfigMaps (config phase), three Deployments mounting them (workload phase). */
  const build = (o: KubeObject, applies: Applies, extra: object = {}, v = "1") => {
    let b = new Builder({ client: tracked(client, applies), owner: o, ...extra });
    for (let i = 0; i < 5; i++) b = b.configMap(cm(`${o.metadata!.name}-c${i}`, v));
    for (let i = 0; i < 3; i++) b = b.deployment(deployment(`${o.metadata!.name}-d${i}`, `${o.metadata!.name}-c${i}`));
    return b;
  };
  const names = (o: KubeObject) => [...[0, 1, 2, 3, 4].map((i) => `ConfigMap/${o.metadata!.name}-c${i}`), ...[0, 1, 2].map((i) => `Deployment/${o.metadata!.name}-d${i}`)];

  before(async () => {
    cluster = await LocalCluster.start();
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "concurrency-test" });
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("up to `concurrency` writes of a phase in flight together, the next phase after all of them, results in order", async () => {
    const o = await owner();
    const applies = new Applies();
    applies.holdUntil(3);
    // Every write waits at the server, so the overlap is visible in the request log too.
    cluster.inject({ verb: "patch", resource: ["configmaps", "deployments"], latencyMs: 20, times: 8 });
    const result = await build(o, applies, { concurrency: 3 }).reconcile();
    assert.equal(result.ok, true, result.errors.map((e) => e.message).join("\n"));
    assert.deepEqual(result.objects.map((r) => `${r.action} ${r.kind}/${r.name}`), names(o).map((x) => `created ${x}`));
    assert.equal(applies.maxInFlight, 3, applies.events.join("\n"));
    const lastConfigEnd = applies.events.findLastIndex((e) => e.startsWith("end ConfigMap/"));
    const firstWorkloadStart = applies.events.findIndex((e) => e.startsWith("start Deployment/"));
    assert.ok(lastConfigEnd < firstWorkloadStart, `no workload write before every config write answered:\n${applies.events.join("\n")}`);
    // Config writes start in the order the objects were added.
    assert.deepEqual(applies.events.filter((e) => e.startsWith("start ConfigMap/")), names(o).slice(0, 5).map((x) => `start ${x}`));
  });

  it("the default writes up to 8 at once; concurrency 1 writes one after another", async () => {
    const wide = new Applies();
    wide.holdUntil(5);
    assert.equal((await build(await owner(), wide).reconcile()).ok, true);
    assert.equal(wide.maxInFlight, 5, "all five ConfigMaps together");

    const serial = new Applies();
    const o = await owner();
    const result = await build(o, serial, { concurrency: 1 }).reconcile();
    assert.equal(result.ok, true);
    assert.equal(serial.maxInFlight, 1);
    assert.deepEqual(serial.events, names(o).flatMap((x) => [`start ${x}`, `end ${x}`]));
  });

  it("an ordered rollout still writes its workloads one at a time", async () => {
    const applies = new Applies();
    const o = await owner();
    const result = await build(o, applies, { orderedRollout: true }).reconcile();
    const workloadStarts = applies.events.filter((e) => e.includes("Deployment/"));
    assert.deepEqual(workloadStarts, [`start Deployment/${o.metadata!.name}-d0`, `end Deployment/${o.metadata!.name}-d0`], "the next waits for the first to roll out");
    assert.deepEqual(result.objects.slice(5).map((r) => r.action), ["created", "waiting", "waiting"]);
  });

  it("a failed write of a phase fails only that object and skips prune", async () => {
    const o = await owner();
    assert.equal((await build(o, new Applies()).reconcile()).ok, true);
    cluster.inject({ verb: "patch", resource: "configmaps", name: `${o.metadata!.name}-c3`, code: 500 });
    const result = await build(o, new Applies(), {}, "2").reconcile();
    assert.deepEqual(result.objects.map((r) => r.action), ["updated", "updated", "updated", "failed", "updated", "updated", "updated", "updated"]);
    assert.match(result.pruneSkipped ?? "", new RegExp(`1 object\\(s\\) did not reconcile: .*${o.metadata!.name}-c3`));
  });

  it("once the signal aborts mid-phase, nothing more is sent and every unwritten object says why", async () => {
    const o = await owner();
    const aborted = new AbortController();
    const applies = new Applies();
    applies.holdUntil(2);
    applies.onStart = (inFlight) => {
      if (inFlight === 2) aborted.abort(new Error("reconcile timed out"));
    };
    cluster.requests.clear();
    const result = await build(o, applies, { concurrency: 2, signal: aborted.signal }).reconcile();
    assert.equal(result.ok, false);
    const configs = result.objects.slice(0, 5);
    assert.ok(configs.every((r) => r.action === "failed" && /reconcile timed out/.test(r.error?.message ?? "")), JSON.stringify(configs));
    // Workloads are held back: their config did not reconcile.
    assert.deepEqual(result.objects.slice(5).map((r) => r.action), ["waiting", "waiting", "waiting"]);
    assert.ok(applies.maxInFlight <= 2);
    assert.equal(cluster.requests.count({ verb: "patch" }), 0, "the two in flight were aborted before they were sent");
    assert.match(result.pruneSkipped ?? "", /did not reconcile/);
  });

  it("refuses a concurrency that is not an integer >= 1 before any request", async () => {
    const o = await owner();
    cluster.requests.clear();
    await assert.rejects(build(o, new Applies(), { concurrency: 0 }).reconcile(), (err: unknown) =>
      err instanceof BuilderValidationErrors && /concurrency/.test(err.message));
    assert.equal(cluster.requests.count(), 0);
  });
});
