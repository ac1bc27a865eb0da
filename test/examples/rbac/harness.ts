/**
 * Proves an example operator's generated RBAC on LocalCluster with authorization on: the
 * operator runs as a ServiceAccount holding only the rules `operator-runtime gen rbac` printed
 * for it, through its scenario.
 * - {@link proveSufficient}: the scenario completes with zero 403s.
 * - {@link proveNecessary}: with any one rule removed, the operator meets a 403.
 *
 * The operator runs as one replica under leader election, or (an {@link OperatorMode} of kind
 * `sharded`) as several replicas of a sharded Manager in the module's ring; then the scenario
 * also leaves a crashed member's Lease in the ring for a live member to delete
 * ({@link withLeftoverMember}).
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadAll } from "js-yaml";
import { LocalCluster } from "../../../src/testing/index.ts";
import { ResourceClient } from "../../../src/index.ts";
import { silentLogger } from "../../../src/entries/client.ts";
import type { KubeObject, Manager, ManagerOptions } from "../../../src/index.ts";
import type { PolicyRule } from "../../../src/entries/rbac.ts";
import type { ShardingOptions } from "../../../src/entries/sharding.ts";
import { RING_LABEL, SHARD_BUCKETS } from "../../../src/sharding/index.ts";
import { LEASE_KIND } from "../../../src/lease/lease-record.ts";
import { installCrds } from "../../../examples/example.ts";
import { complete } from "../../support/cli.ts";
import { KUBECTL } from "../../support/kubectl.ts";
import { waitFor, within } from "../../support/wait.ts";
import { SCENARIOS, withLeftoverMember } from "./scenarios.ts";
import type { Scenario } from "./scenarios.ts";

const NS = "default";

/** An example's manager module, as `examples/<name>/manager.ts` (or `sharded.ts`) exports it. */
export interface ExampleModule {
  crds: readonly KubeObject[];
  manager(options?: Partial<ManagerOptions>): Manager;
  /** A sharded variant's ring (`examples/<name>/sharded.ts`): its name and the namespace of its Leases. */
  sharding?: Pick<ShardingOptions, "ring" | "namespace">;
}

/**
 * How a proof runs the operator: one replica holding the Lease `<name>-operator` (the
 * default), or `replicas` replicas of a sharded Manager in the module's ring.
 */
export type OperatorMode = { kind: "leader-election" } | { kind: "sharded"; replicas: number };

const LEADER_ELECTION: OperatorMode = { kind: "leader-election" };

/** The Lease timings of the operator's replicas, short so that the proofs are quick. */
const TIMINGS = { leaseDurationMs: 2000, renewDeadlineMs: 1500, retryPeriodMs: 250 } as const;

/** The RBAC objects `operator-runtime gen rbac <file>` prints (default `examples/<name>/manager.ts`), and its YAML. */
export async function generatedRbac(name: string, file = `examples/${name}/manager.ts`): Promise<{ yaml: string; objects: KubeObject[] }> {
  const r = await complete(["gen", "rbac", file, "--namespace", NS]);
  assert.equal(r.code, 0, r.stderr);
  return { yaml: r.stdout, objects: loadAll(r.stdout) as KubeObject[] };
}

/** The RBAC objects without one rule (or one verb of a rule). */
export interface RuleSlot {
  label: string;
  without: KubeObject[];
}

/** Every rule of the roles among `objects`, as [role index, rule index]. */
export function ruleSlots(objects: readonly KubeObject[]): RuleSlot[] {
  const slots: RuleSlot[] = [];
  objects.forEach((o, i) => {
    const rules = (o as { rules?: PolicyRule[] }).rules;
    if (!rules) return;
    rules.forEach((rule, j) => {
      const without = objects.map((x, k) => (k === i ? { ...x, rules: rules.filter((_, m) => m !== j) } as KubeObject : x));
      const label = `${o.kind} rule ${rule.apiGroups[0] || "core"}/${rule.resources.join(",")}${rule.resourceNames ? `[${rule.resourceNames.join(",")}]` : ""}: ${rule.verbs.join(",")}`;
      slots.push({ label, without });
    });
  });
  return slots;
}

/**
 * Every verb `pick` selects of a rule with more than one verb, as the objects without that one
 * verb: a rule's verbs proven necessary one by one.
 */
export function verbSlots(objects: readonly KubeObject[], pick: (rule: PolicyRule, verb: string) => boolean): RuleSlot[] {
  const slots: RuleSlot[] = [];
  objects.forEach((o, i) => {
    const rules = (o as { rules?: PolicyRule[] }).rules;
    if (!rules) return;
    rules.forEach((rule, j) => {
      if (rule.verbs.length < 2) return;
      for (const verb of rule.verbs.filter((v) => pick(rule, v))) {
        const narrowed = rules.map((r, m) => (m === j ? { ...r, verbs: r.verbs.filter((v) => v !== verb) } : r));
        const without = objects.map((x, k) => (k === i ? { ...x, rules: narrowed } as KubeObject : x));
        slots.push({ label: `${o.kind} rule ${rule.apiGroups[0] || "core"}/${rule.resources.join(",")}: ${verb}`, without });
      }
    });
  });
  return slots;
}

/** A LocalCluster with authorization on, the example's CRDs installed by the admin. */
async function startCluster(module: ExampleModule) {
  const cluster = await LocalCluster.start({ authorization: true, simulate: { readyDelayMs: 5 } });
  const admin = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "rbac-test-admin" });
  await installCrds(admin, module.crds);
  return { cluster, admin };
}

/** The ring of a sharded module; throws naming the fix when the module has none. */
function ringOf(module: ExampleModule): Pick<ShardingOptions, "ring" | "namespace"> {
  if (!module.sharding) throw new Error("a sharded proof needs the module to export `sharding` ({ ring, namespace }), as examples/greeting/sharded.ts does");
  return module.sharding;
}

/**
 * Starts the example's operator as the ServiceAccount the RBAC names, in `mode`: one Manager
 * under leader election, or a sharded Manager per replica (identities `<name>-operator-<i>`).
 * Not awaited: a missing rule may hold their start.
 */
async function startOperator(cluster: LocalCluster, module: ExampleModule, name: string, mode: OperatorMode): Promise<Manager[]> {
  const account = `${name}-operator`;
  const { kubeConfig } = await cluster.serviceAccountKubeConfig(NS, account);
  const common = { kubeConfig, healthPort: false, logger: silentLogger } as const;
  const mgrs = mode.kind === "sharded"
    ? Array.from({ length: mode.replicas }, (_, i) => module.manager({
      ...common, leaderElection: false, sharding: { ...ringOf(module), identity: `${account}-${i}`, ...TIMINGS },
    }))
    : [module.manager({ ...common, leaderElection: { namespace: NS, name: account, leaseDurationMs: 3000, renewDeadlineMs: 2000, retryPeriodMs: 250 } })];
  for (const mgr of mgrs) mgr.start().catch(() => undefined);
  return mgrs;
}

/** The scenario the operator is taken through: the example's, and in a sharded ring a crashed member's Lease to clean up. */
function scenarioOf(module: ExampleModule, name: string, mode: OperatorMode): Scenario {
  const scenario = SCENARIOS[name]!;
  return mode.kind === "sharded" ? withLeftoverMember(scenario, ringOf(module), TIMINGS.leaseDurationMs) : scenario;
}

/** Whether every bucket is served by exactly one of `mgrs`, each serving some. */
function partitioned(mgrs: readonly Manager[]): boolean {
  const counts = new Array<number>(SHARD_BUCKETS).fill(0);
  for (const m of mgrs) for (const b of m.ring?.served() ?? []) counts[b]!++;
  return counts.every((c) => c === 1) && mgrs.every((m) => (m.ring?.served().size ?? 0) > 0);
}

async function stopAll(mgrs: readonly Manager[]): Promise<void> {
  await Promise.all(mgrs.map((m) => within(m.stop(), "mgr.stop()", 15_000).catch(() => undefined)));
}

/** 403 answers so far. */
function forbidden(cluster: LocalCluster): number {
  return cluster.requests.count({ code: 403 });
}

/**
 * Applies the generated RBAC with the real kubectl (as the admin), runs the operator as its
 * ServiceAccount (in `mode`) and the example's scenario; asserts it completes with no 403 at
 * all (and, sharded, that the replicas split the buckets between them), nor the operator's
 * graceful stop (sharded: after which no member Lease is left).
 */
export async function proveSufficient(name: string, module: ExampleModule, yaml: string, mode: OperatorMode = LEADER_ELECTION): Promise<void> {
  const { cluster, admin } = await startCluster(module);
  const dir = await mkdtemp(join(tmpdir(), "rbac-"));
  let mgrs: Manager[] = [];
  try {
    assert.ok(KUBECTL, "no kubectl found (set KUBECTL or put kubectl on PATH)");
    await writeFile(join(dir, "rbac.yaml"), yaml);
    // Asynchronously: LocalCluster answers kubectl from this process.
    await promisify(execFile)(KUBECTL, ["--kubeconfig", cluster.kubeconfigPath, "apply", "-f", join(dir, "rbac.yaml")]);
    mgrs = await startOperator(cluster, module, name, mode);
    await scenarioOf(module, name, mode).run(admin);
    if (mode.kind === "sharded") await waitFor(() => partitioned(mgrs), `the ${mode.replicas} replicas to split the buckets`, 30_000);
    assert.equal(forbidden(cluster), 0, `403s: ${JSON.stringify(cluster.requests.filter({ code: 403 }))}`);
    // A graceful stop too (releasing the leader Lease; leaving the ring and deleting the member Leases).
    await Promise.all(mgrs.map((m) => within(m.stop(), "mgr.stop()", 15_000)));
    assert.equal(forbidden(cluster), 0, `403s while stopping: ${JSON.stringify(cluster.requests.filter({ code: 403 }))}`);
    if (mode.kind === "sharded") {
      const { ring, namespace } = ringOf(module);
      const left = await admin.list(LEASE_KIND, { namespace, labelSelector: `${RING_LABEL}=${ring}` });
      assert.deepEqual(left.items.map((l) => l.metadata?.name), [], "the stopped replicas deleted their member Leases");
    }
  } finally {
    await stopAll(mgrs);
    await cluster.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Creates the RBAC `objects` (one rule, or one verb, short) as the admin, runs the operator (in
 * `mode`) and the scenario, and asserts the operator meets a 403 before the scenario could
 * complete. (Not necessarily on the resource of the missing rule: creating a child whose owner
 * reference blocks the owner's deletion needs `update` on the owner's `finalizers`, and is
 * refused with a 403 on the child.)
 */
export async function proveNecessary(module: ExampleModule, name: string, objects: readonly KubeObject[], mode: OperatorMode = LEADER_ELECTION): Promise<void> {
  const { cluster, admin } = await startCluster(module);
  let mgrs: Manager[] = [];
  try {
    for (const o of objects) await admin.create({ ...o, metadata: { ...o.metadata } });
    mgrs = await startOperator(cluster, module, name, mode);
    const scenario = scenarioOf(module, name, mode).run(admin).then(() => "completed" as const, () => "failed" as const);
    const denied = waitFor(() => forbidden(cluster) > 0, "a 403", 60_000).then(() => "denied" as const);
    const first = await Promise.race([denied, scenario]);
    assert.equal(first === "denied" || forbidden(cluster) > 0, true, `the scenario ${first} without any 403: the rule is not needed`);
  } finally {
    await stopAll(mgrs);
    await cluster.stop();
  }
}

/** Options of {@link describeRbacProof}. */
export interface ProofOptions {
  /** The module `gen rbac` reads (default `examples/<name>/manager.ts`). */
  file?: string;
  /** How the operator runs (default: one replica under leader election). */
  mode?: OperatorMode;
  /** The verbs of rules also proven necessary one by one: those it picks (default none). */
  eachVerbOf?: (rule: PolicyRule, verb: string) => boolean;
}

/**
 * The tests of one example: its generated RBAC is sufficient (zero 403s through its scenario)
 * and each rule is necessary (a 403 without it), as is each verb of the rules `eachVerbOf` picks.
 */
export async function describeRbacProof(name: string, module: ExampleModule, options: ProofOptions = {}): Promise<void> {
  const { file, mode = LEADER_ELECTION, eachVerbOf } = options;
  const rbac = await generatedRbac(name, file);
  const how = mode.kind === "sharded" ? ` (${mode.replicas} sharded replicas)` : "";
  describe(`${name} operator with its generated RBAC${how}`, () => {
    it("converges through its scenario with zero 403s", async () => {
      await proveSufficient(name, module, rbac.yaml, mode);
    });
    for (const slot of [...ruleSlots(rbac.objects), ...(eachVerbOf ? verbSlots(rbac.objects, eachVerbOf) : [])]) {
      it(`meets a 403 without ${slot.label}`, async () => {
        await proveNecessary(module, name, slot.without, mode);
      });
    }
  });
}
