/**
 * What each example operator is taken through when its RBAC is proven: its samples applied and
 * converged, then a change that makes it use the rest of its verbs (delete, finalizer removal,
 * status updates, relaunches). Each step waits for its outcome and fails naming it.
 */
import type { ResourceClient, KubeObject } from "../../../src/index.ts";
import type { ShardingOptions } from "../../../src/entries/sharding.ts";
import { Pod, isNotFound } from "../../../src/index.ts";
import { LEASE_KIND } from "../../../src/lease/lease-record.ts";
import { memberLease, memberLeaseName } from "../../../src/sharding/ring-lease.ts";
import { Greeting, Person } from "../../../examples/greeting/kinds.ts";
import { operator as greeting } from "../../../examples/greeting/operator.ts";
import { Pinot, operator as pinot, nodeConfigPatch, removeNodePatch } from "../../../examples/pinot/operator.ts";
import { PodSet, operator as replicaset } from "../../../examples/replicaset/operator.ts";
import { Job, ProcessingElement, operator as streams } from "../../../examples/streams/operator.ts";
import { loadYamlFile } from "../../../examples/example.ts";
import { Site, operator as sites } from "./sites-operator.ts";
import { waitFor } from "../../support/wait.ts";

const NS = "default";
const STEP_MS = 30_000;

/** One example's walk: `run` applies and changes things as the admin and waits for each outcome. */
export interface Scenario {
  name: string;
  run(admin: ResourceClient): Promise<void>;
}

async function applySamples(admin: ResourceClient, samples: readonly KubeObject[]): Promise<void> {
  for (const s of samples) await admin.apply({ ...s, metadata: { ...s.metadata, namespace: s.metadata?.namespace ?? NS } });
}

/** The Deployments and ConfigMaps of a Site's workers, by name (`<site>-w<i>`). */
async function workersOf(admin: ResourceClient, site: string): Promise<{ deployments: string[]; configMaps: string[] }> {
  const names = (items: readonly KubeObject[]) => items.map((o) => o.metadata!.name!).filter((n) => n.startsWith(`${site}-w`)).sort();
  return {
    deployments: names((await admin.list({ apiVersion: "apps/v1", kind: "Deployment" }, { namespace: NS })).items),
    configMaps: names((await admin.list({ apiVersion: "v1", kind: "ConfigMap" }, { namespace: NS })).items),
  };
}

/** The example operators' scenarios (and the test operators'), by name. */
export const SCENARIOS: Readonly<Record<string, Scenario>> = {
  greeting: {
    name: "greeting",
    async run(admin) {
      await applySamples(admin, greeting.samples);
      await waitFor(async () => (await admin.list(Greeting, { namespace: NS })).items.every((g) => g.status?.message), "every greeting to have a message", STEP_MS);
      const family = (await admin.list(Greeting, { namespace: NS })).items.find((g) => g.spec.surname && (g.status?.people?.length ?? 0) > 1);
      if (!family) throw new Error("the greeting samples have no family greeting with two people");
      const leaving = family.status!.people!.at(-1)!;
      await admin.delete({ ...Person, name: leaving, namespace: NS });
      await waitFor(async () => !(await admin.list(Person, { namespace: NS })).items.some((p) => p.metadata!.name === leaving),
        `Person ${leaving} to be released by its finalizer and gone`, STEP_MS);
      await waitFor(async () => !(await admin.get({ ...Greeting, name: family.metadata!.name!, namespace: NS })).status?.people?.includes(leaving),
        "the family greeting to drop them", STEP_MS);
    },
  },
  pinot: {
    name: "pinot",
    async run(admin) {
      await applySamples(admin, pinot.samples);
      const ready = async () => (await admin.list(Pinot, { namespace: NS })).items.every((p) => p.status?.phase === "Ready");
      await waitFor(ready, "the Pinot cluster to be Ready", STEP_MS);
      const cr = (await admin.list(Pinot, { namespace: NS })).items[0]!;
      const ref = { ...Pinot, name: cr.metadata!.name!, namespace: NS };
      await admin.patch(ref, nodeConfigPatch(cr, "broker", "pinot.broker.client.queryPort=8099\npinot.broker.timeoutMs=30000"), "json");
      await waitFor(async () => (await admin.get(ref)).metadata?.generation === (await admin.get(ref)).status?.observedGeneration && ready(),
        "the Pinot cluster to be Ready after the config change", STEP_MS);
      const changed = await admin.get(ref);
      const last = changed.spec.nodes.at(-1)!.name;
      await admin.patch(ref, removeNodePatch(changed, last), "json");
      await waitFor(async () => {
        const p = await admin.get(ref);
        return !p.status?.nodes?.some((n) => n.name === last) && p.status?.phase === "Ready";
      }, `node ${last} to be removed`, STEP_MS);
      // A Deployment with storage: its claims are created (and kept).
      await applySamples(admin, loadYamlFile(new URL("../pinot/crs/mixed.yaml", import.meta.url)));
      await waitFor(async () => (await admin.get({ ...Pinot, name: "mixed", namespace: NS })).status?.phase === "Ready", "the mixed Pinot to be Ready", STEP_MS);
    },
  },
  replicaset: {
    name: "replicaset",
    async run(admin) {
      await applySamples(admin, replicaset.samples);
      const readyAt = (n?: number) => async () => (await admin.list(PodSet, { namespace: NS })).items
        .every((s) => s.status?.readyReplicas === (n ?? s.spec.replicas) && s.spec.replicas === (n ?? s.spec.replicas));
      await waitFor(readyAt(), "every PodSet to be ready", STEP_MS);
      const set = (await admin.list(PodSet, { namespace: NS })).items[0]!;
      const ref = { ...PodSet, name: set.metadata!.name!, namespace: NS };
      await admin.patch(ref, { spec: { replicas: set.spec.replicas + 2 } }, "merge");
      await waitFor(async () => (await admin.get(ref)).status?.readyReplicas === set.spec.replicas + 2, "the PodSet to scale out", STEP_MS);
      await admin.patch(ref, { spec: { replicas: 1 } }, "merge");
      await waitFor(async () => (await admin.get(ref)).status?.replicas === 1, "the PodSet to scale in to 1", STEP_MS);
    },
  },
  sites: {
    name: "sites",
    async run(admin) {
      await applySamples(admin, sites.samples);
      const has = (n: number) => async () => {
        const { deployments, configMaps } = await workersOf(admin, "web");
        const want = Array.from({ length: n }, (_, i) => `web-w${i}`);
        return JSON.stringify(deployments) === JSON.stringify(want) && JSON.stringify(configMaps) === JSON.stringify(want);
      };
      await waitFor(has(2), "the Site's 2 workers (a Deployment and a ConfigMap each)", STEP_MS);
      const ref = { ...Site, name: "web", namespace: NS };
      await admin.patch(ref, { spec: { conf: "level=debug\n" } }, "merge");
      await waitFor(async () => (await admin.list({ apiVersion: "v1", kind: "ConfigMap" }, { namespace: NS })).items
        .filter((c) => c.metadata!.name!.startsWith("web-w")).every((c) => (c as { data?: Record<string, string> }).data?.["worker.conf"]?.endsWith("level=debug\n")),
      "the workers' ConfigMaps to take the new conf", STEP_MS);
      await admin.patch(ref, { spec: { workers: 1 } }, "merge");
      await waitFor(has(1), "worker web-w1's Deployment and ConfigMap to be pruned", STEP_MS);
      await admin.patch(ref, { spec: { workers: 0 } }, "merge");
      await waitFor(has(0), "the last worker's Deployment and ConfigMap to be pruned", STEP_MS);
    },
  },
  streams: {
    name: "streams",
    async run(admin) {
      await applySamples(admin, streams.samples);
      await waitFor(async () => (await admin.list(Job, { namespace: NS })).items.every((j) => j.status?.phase === "Running"), "the Job to run", STEP_MS);
      const pe = (await admin.list(ProcessingElement, { namespace: NS })).items[0]!;
      await admin.delete({ ...Pod, name: pe.metadata!.name!, namespace: NS });
      await waitFor(async () => {
        const now = await admin.get({ ...ProcessingElement, name: pe.metadata!.name!, namespace: NS });
        return (now.status?.launchCount ?? 0) > (pe.status?.launchCount ?? 0) && now.status?.phase === "Running";
      }, `PE ${pe.metadata!.name} to relaunch its pod`, STEP_MS);
    },
  },
};

/**
 * `scenario` in a sharded ring that a crashed replica left a Lease in: first the Lease a member
 * of `ring` holds and renews (serving a few buckets, renewed an hour ago, as the replica left it
 * when it died), then the scenario, then until a live member has deleted that Lease (members
 * delete the Leases of members gone for two lease durations, `leaseDurationMs` being theirs and
 * the crashed one's). So the members' `delete` on leases is used while the scenario runs.
 */
export function withLeftoverMember(scenario: Scenario, ring: Pick<ShardingOptions, "ring" | "namespace">, leaseDurationMs: number): Scenario {
  const identity = `${ring.ring}-crashed`;
  const name = memberLeaseName(ring.ring, identity);
  return {
    name: `${scenario.name}, with a crashed member's Lease in the ring ${ring.ring}`,
    async run(admin) {
      await admin.create(memberLease(undefined, {
        namespace: ring.namespace, ring: ring.ring, name, identity, durationMs: leaseDurationMs, now: Date.now() - 3_600_000,
        buckets: 64, serving: [0, 1, 2, 3], claiming: [], leaving: false,
      }));
      await scenario.run(admin);
      await waitFor(async () => {
        try {
          await admin.get({ ...LEASE_KIND, namespace: ring.namespace, name });
          return false;
        } catch (err) {
          if (isNotFound(err)) return true;
          throw err;
        }
      }, `a live member to delete the crashed member's Lease ${name}`, STEP_MS);
    },
  };
}
