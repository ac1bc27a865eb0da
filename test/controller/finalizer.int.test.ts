import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { ResourceClient, finalizer } from "../../src/index.ts";
import type { KubeObject } from "../../src/index.ts";
import { createDataApp, installDataApp } from "../support/owner.ts";
import { raw, within } from "../support/wait.ts";

const NS = "finalizers";
const OURS = "example.com/cleanup";
const appPath = (name: string) => `/apis/example.com/v1/namespaces/${NS}/dataapps/${name}`;
const ref = (name: string) => ({ apiVersion: "example.com/v1", kind: "DataApp", namespace: NS, name });

describe("finalizer(): a concurrent change to the finalizer list by another writer is never clobbered", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  before(async () => {
    cluster = await LocalCluster.start();
    await installDataApp(cluster.url);
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig });
  });
  after(async () => {
    await within(cluster.stop(), "cluster.stop()");
  });

  /** Another writer's JSON patch of the finalizer list. */
  async function otherWriter(name: string, ops: unknown[]): Promise<void> {
    const r = await raw(cluster.url, "PATCH", appPath(name), ops, "application/json-patch+json");
    assert.equal(r.code, 200, r.text);
  }

  it("adding ours to a stale empty list fails instead of dropping the finalizer another writer just added", async () => {
    await createDataApp(cluster.url, NS, "adding");
    const stale = await client.get<KubeObject>(ref("adding"));
    await otherWriter("adding", [{ op: "add", path: "/metadata/finalizers", value: ["other.example.com/keep"] }]);
    let applied = 0;
    await assert.rejects(finalizer(client, stale, OURS, { apply: () => void applied++, cleanup: () => undefined }));
    assert.equal(applied, 0, "apply never runs without our finalizer stored");
    assert.deepEqual((await client.get<KubeObject>(ref("adding"))).metadata?.finalizers, ["other.example.com/keep"]);

    // The retry, with the object as it now is, adds ours beside theirs.
    await finalizer(client, await client.get<KubeObject>(ref("adding")), OURS, { apply: () => void applied++, cleanup: () => undefined });
    assert.equal(applied, 1);
    assert.deepEqual((await client.get<KubeObject>(ref("adding"))).metadata?.finalizers, ["other.example.com/keep", OURS]);
  });

  it("removing ours after cleanup fails instead of removing another writer's finalizer when the list shifted", async () => {
    await createDataApp(cluster.url, NS, "removing");
    await otherWriter("removing", [{ op: "add", path: "/metadata/finalizers", value: ["a.example.com/first", OURS, "c.example.com/third"] }]);
    await raw(cluster.url, "DELETE", appPath("removing"));
    const deleting = await client.get<KubeObject>(ref("removing"));
    assert.ok(deleting.metadata?.deletionTimestamp, "deletion in progress");
    let cleanups = 0;
    const handlers = {
      apply: () => undefined,
      cleanup: async () => {
        cleanups++;
        // Between our read and our patch, another controller finishes and drops its finalizer: ours moves from index 1 to 0.
        if (cleanups === 1) await otherWriter("removing", [{ op: "remove", path: "/metadata/finalizers/0" }]);
      },
    };
    await assert.rejects(finalizer(client, deleting, OURS, handlers));
    assert.deepEqual((await client.get<KubeObject>(ref("removing"))).metadata?.finalizers, [OURS, "c.example.com/third"], "nobody else's finalizer removed");

    // The retry re-reads, cleans up again (cleanup is idempotent) and removes only ours.
    await finalizer(client, await client.get<KubeObject>(ref("removing")), OURS, handlers);
    assert.equal(cleanups, 2);
    assert.deepEqual((await client.get<KubeObject>(ref("removing"))).metadata?.finalizers, ["c.example.com/third"]);
  });
});
