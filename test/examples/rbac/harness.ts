/**
 * Proves an example operator's generated RBAC on LocalCluster with authorization on: the
 * operator runs as a ServiceAccount holding only the rules `operator-runtime gen rbac` printed
 * for it, through its scenario.
 * - {@link proveSufficient}: the scenario completes with zero 403s.
 * - {@link proveNecessary}: with any one rule removed, the operator meets a 403.
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
import { ResourceClient, silentLogger } from "../../../src/index.ts";
import type { KubeObject, Manager, ManagerOptions, PolicyRule } from "../../../src/index.ts";
import { installCrds } from "../../../examples/example.ts";
import { complete } from "../../support/cli.ts";
import { KUBECTL } from "../../support/kubectl.ts";
import { waitFor, within } from "../../support/wait.ts";
import { SCENARIOS } from "./scenarios.ts";

const NS = "default";

/** An example's manager module, as `examples/<name>/manager.ts` exports it. */
export interface ExampleModule {
  crds: readonly KubeObject[];
  manager(options?: Partial<ManagerOptions>): Manager;
}

/** The RBAC objects `operator-runtime gen rbac examples/<name>/manager.ts` prints, and its YAML. */
export async function generatedRbac(name: string): Promise<{ yaml: string; objects: KubeObject[] }> {
  const r = await complete(["gen", "rbac", `examples/${name}/manager.ts`, "--namespace", NS]);
  assert.equal(r.code, 0, r.stderr);
  return { yaml: r.stdout, objects: loadAll(r.stdout) as KubeObject[] };
}

/** Every rule of the roles among `objects`, as [role index, rule index]. */
export function ruleSlots(objects: readonly KubeObject[]): { label: string; without: KubeObject[] }[] {
  const slots: { label: string; without: KubeObject[] }[] = [];
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

/** A LocalCluster with authorization on, the example's CRDs installed by the admin. */
async function startCluster(module: ExampleModule) {
  const cluster = await LocalCluster.start({ authorization: true, simulate: { readyDelayMs: 5 } });
  const admin = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "rbac-test-admin" });
  await installCrds(admin, module.crds);
  return { cluster, admin };
}

/** Starts the example's operator as the ServiceAccount the RBAC names (not awaited: a missing rule may hold its start). */
async function startOperator(cluster: LocalCluster, module: ExampleModule, name: string): Promise<Manager> {
  const account = `${name}-operator`;
  const { kubeConfig } = await cluster.serviceAccountKubeConfig(NS, account);
  const mgr = module.manager({
    kubeConfig, healthPort: false, logger: silentLogger,
    leaderElection: { namespace: NS, name: account, leaseDurationMs: 3000, renewDeadlineMs: 2000, retryPeriodMs: 250 },
  });
  mgr.start().catch(() => undefined);
  return mgr;
}

/** 403 answers so far. */
function forbidden(cluster: LocalCluster): number {
  return cluster.requests.count({ code: 403 });
}

/**
 * Applies the generated RBAC with the real kubectl (as the admin), runs the operator as its
 * ServiceAccount and the example's scenario; asserts it completes with no 403 at all.
 */
export async function proveSufficient(name: string, module: ExampleModule, yaml: string): Promise<void> {
  const { cluster, admin } = await startCluster(module);
  const dir = await mkdtemp(join(tmpdir(), "rbac-"));
  let mgr: Manager | undefined;
  try {
    assert.ok(KUBECTL, "no kubectl found (set KUBECTL or put kubectl on PATH)");
    await writeFile(join(dir, "rbac.yaml"), yaml);
    // Asynchronously: LocalCluster answers kubectl from this process.
    await promisify(execFile)(KUBECTL, ["--kubeconfig", cluster.kubeconfigPath, "apply", "-f", join(dir, "rbac.yaml")]);
    mgr = await startOperator(cluster, module, name);
    await SCENARIOS[name]!.run(admin);
    assert.equal(forbidden(cluster), 0, `403s: ${JSON.stringify(cluster.requests.filter({ code: 403 }))}`);
  } finally {
    if (mgr) await within(mgr.stop(), "mgr.stop()", 15_000).catch(() => undefined);
    await cluster.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Creates the RBAC `objects` (one rule short) as the admin, runs the operator and the scenario,
 * and asserts the operator meets a 403 before the scenario could complete.
 */
export async function proveNecessary(module: ExampleModule, name: string, objects: readonly KubeObject[]): Promise<void> {
  const { cluster, admin } = await startCluster(module);
  let mgr: Manager | undefined;
  try {
    for (const o of objects) await admin.create({ ...o, metadata: { ...o.metadata } });
    mgr = await startOperator(cluster, module, name);
    const scenario = SCENARIOS[name]!.run(admin).then(() => "completed" as const, () => "failed" as const);
    const denied = waitFor(() => forbidden(cluster) > 0, "a 403", 60_000).then(() => "denied" as const);
    const first = await Promise.race([denied, scenario]);
    assert.equal(first === "denied" || forbidden(cluster) > 0, true, `the scenario ${first} without any 403: the rule is not needed`);
  } finally {
    if (mgr) await within(mgr.stop(), "mgr.stop()", 15_000).catch(() => undefined);
    await cluster.stop();
  }
}

/**
 * The tests of one example: its generated RBAC is sufficient (zero 403s through its scenario)
 * and each rule is necessary (a 403 without it).
 */
export async function describeRbacProof(name: string, module: ExampleModule): Promise<void> {
  const rbac = await generatedRbac(name);
  describe(`${name} operator with its generated RBAC`, () => {
    it("converges through its scenario with zero 403s", async () => {
      await proveSufficient(name, module, rbac.yaml);
    });
    for (const slot of ruleSlots(rbac.objects)) {
      it(`meets a 403 without ${slot.label}`, async () => {
        await proveNecessary(module, name, slot.without);
      });
    }
  });
}
