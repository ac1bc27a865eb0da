/**
 * `operator-runtime gen manifests MODULE --image IMG`, run for real: CRDs, RBAC and a Deployment
 * wired to the Manager's health endpoints, accepted by a server-side dry run and by a real apply
 * with kubectl on LocalCluster; the Manager's settings that a deployment needs are checked.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadAll } from "js-yaml";
import { LocalCluster } from "../../src/testing/index.ts";
import { complete } from "../support/cli.ts";
import { KUBECTL } from "../support/kubectl.ts";

interface Doc {
  kind: string;
  metadata: { name: string; namespace?: string };
  spec?: Record<string, unknown>;
}

interface DeploymentSpec {
  replicas: number;
  template: { spec: {
    serviceAccountName: string;
    terminationGracePeriodSeconds: number;
    containers: { image: string; ports: { name: string; containerPort: number }[];
      livenessProbe: { httpGet: { path: string; port: string } }; readinessProbe: { httpGet: { path: string; port: string } } }[];
  } };
}

async function manifests(args: string[]) {
  const r = await complete(["gen", "manifests", ...args]);
  assert.equal(r.code, 0, r.stderr);
  return { yaml: r.stdout, docs: loadAll(r.stdout) as Doc[] };
}

/** Runs kubectl asynchronously (LocalCluster answers it from this process); its exit status and output. */
async function kubectl(kubeconfig: string, args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  assert.ok(KUBECTL, "no kubectl found (set KUBECTL or put kubectl on PATH)");
  try {
    const { stdout, stderr } = await promisify(execFile)(KUBECTL, ["--kubeconfig", kubeconfig, ...args]);
    return { status: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { status: typeof e.code === "number" ? e.code : 1, stdout: e.stdout ?? "", stderr: e.stderr ?? String(err) };
  }
}

describe("operator-runtime gen manifests", () => {
  it("prints the CRDs, the RBAC and a Deployment with probes, grace period and ServiceAccount", async () => {
    const { docs } = await manifests(["examples/greeting/manager.ts", "--image", "ghcr.io/acme/greeting:1.2", "--namespace", "ops", "--replicas", "2"]);
    assert.deepEqual(docs.map((d) => `${d.kind} ${d.metadata.namespace ?? ""}/${d.metadata.name}`), [
      "CustomResourceDefinition /greetings.greeting.example.com", "CustomResourceDefinition /people.greeting.example.com",
      "ServiceAccount ops/greeting-operator", "ClusterRole /greeting-operator", "ClusterRoleBinding /greeting-operator",
      "Role default/greeting-operator", "RoleBinding default/greeting-operator", "Deployment ops/greeting-operator",
    ]);
    const spec = docs.at(-1)!.spec as unknown as DeploymentSpec;
    const pod = spec.template.spec;
    const container = pod.containers[0]!;
    assert.equal(spec.replicas, 2);
    assert.equal(pod.serviceAccountName, "greeting-operator");
    assert.equal(container.image, "ghcr.io/acme/greeting:1.2");
    assert.deepEqual(container.ports.map((p) => [p.name, p.containerPort]), [["health", 8080]]);
    assert.deepEqual([container.livenessProbe.httpGet, container.readinessProbe.httpGet],
      [{ path: "/healthz", port: "health" }, { path: "/readyz", port: "health" }]);
    assert.ok(pod.terminationGracePeriodSeconds > 30, "longer than the default 30 s reconcile timeout a stop drains");
    assert.deepEqual((pod as unknown as { securityContext: unknown }).securityContext,
      { runAsNonRoot: true, runAsUser: 1000, runAsGroup: 1000, seccompProfile: { type: "RuntimeDefault" } });
  });

  it("accepts a sharded Manager: the Deployment runs the requested replicas, the Role grants the ring's Leases", async () => {
    const { docs } = await manifests(["test/cli/fixtures/sharded-operator.ts", "--image", "x/widgets:1", "--namespace", "apps", "--replicas", "3"]);
    assert.deepEqual(docs.map((d) => `${d.kind} ${d.metadata.namespace ?? ""}/${d.metadata.name}`), [
      "ServiceAccount apps/widgets", "ClusterRole /widgets", "ClusterRoleBinding /widgets",
      "Role operators/widgets", "RoleBinding operators/widgets", "Deployment apps/widgets",
    ]);
    const spec = docs.at(-1)!.spec as unknown as DeploymentSpec;
    assert.equal(spec.replicas, 3);
    assert.equal(spec.template.spec.serviceAccountName, "widgets");
    const role = docs.find((d) => d.kind === "Role") as unknown as { rules: unknown[] };
    assert.deepEqual(role.rules, [
      { apiGroups: ["coordination.k8s.io"], resources: ["leases"], verbs: ["get", "list", "watch", "create", "update", "delete"] },
    ]);
    const binding = docs.find((d) => d.kind === "RoleBinding") as unknown as { subjects: unknown[]; roleRef: { kind: string; name: string } };
    assert.deepEqual(binding.subjects, [{ kind: "ServiceAccount", name: "widgets", namespace: "apps" }]);
    assert.deepEqual([binding.roleRef.kind, binding.roleRef.name], ["Role", "widgets"]);
  });

  it("sizes memory from --cached-objects and runs Node with a lean young generation", async () => {
    const container = async (args: string[]) =>
      (((await manifests(["examples/greeting/manager.ts", "--image", "x/g:1", ...args])).docs.at(-1)!.spec as unknown as DeploymentSpec).template.spec.containers[0] as unknown as
        { env: { name: string; value: string }[]; resources: { requests: { memory: string }; limits: { memory: string } } });
    const sized = await container(["--cached-objects", "50000"]);
    assert.deepEqual(sized.env, [{ name: "NODE_OPTIONS", value: "--max-semi-space-size=8" }]);
    assert.deepEqual([sized.resources.requests.memory, sized.resources.limits.memory], ["351Mi", "448Mi"]);
    const byDefault = await container([]);
    assert.deepEqual([byDefault.resources.requests.memory, byDefault.resources.limits.memory], ["128Mi", "512Mi"], "without a count: what it always had");
    const r = await complete(["gen", "manifests", "examples/greeting/manager.ts", "--image", "x/g:1", "--cached-objects", "lots"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--cached-objects must be a whole number of objects from 0 to 10000000, got "lots"/);
  });

  it("sizes the grace period from the longest reconcile timeout and probes the Manager's health port", async () => {
    const { docs } = await manifests(["test/cli/fixtures/slow-drain-operator.ts", "--image", "x/slow:1"]);
    const pod = (docs.at(-1)!.spec as unknown as DeploymentSpec).template.spec;
    assert.ok(pod.terminationGracePeriodSeconds > 120, `grace ${pod.terminationGracePeriodSeconds} s`);
    assert.equal(pod.containers[0]!.ports[0]!.containerPort, 9090);
  });

  it("is accepted by kubectl: a server-side dry run changes nothing, then an apply creates it all", async () => {
    const cluster = await LocalCluster.start({ simulate: true });
    const dir = await mkdtemp(join(tmpdir(), "manifests-"));
    try {
      const { yaml, docs } = await manifests(["examples/pinot/manager.ts", "--image", "ghcr.io/acme/pinot-operator:0.1"]);
      const file = join(dir, "all.yaml");
      await writeFile(file, yaml);
      const before = cluster.resourceVersion;
      const dry = await kubectl(cluster.kubeconfigPath, ["apply", "--server-side", "--dry-run=server", "-f", file]);
      assert.equal(dry.status, 0, dry.stderr);
      assert.equal(dry.stdout.trim().split("\n").length, docs.length, dry.stdout);
      assert.equal(cluster.resourceVersion, before, "a dry run stores nothing");
      const applied = await kubectl(cluster.kubeconfigPath, ["apply", "-f", file]);
      assert.equal(applied.status, 0, applied.stderr);
      const got = await kubectl(cluster.kubeconfigPath, ["get", "crd/pinots.datainfra.io", "clusterrole/pinot-operator", "serviceaccount/pinot-operator",
        "deployment/pinot-operator", "role/pinot-operator", "-o", "name"]);
      assert.equal(got.status, 0, got.stderr);
      assert.equal(got.stdout.trim().split("\n").length, 5);
    } finally {
      await cluster.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("--help says the Manager needs leader election or sharding, and a fixed health port", async () => {
    const r = await complete(["gen", "manifests", "--help"]);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /^usage: operator-runtime gen manifests MODULE/);
    assert.match(r.stdout.replace(/\s+/g, " "), /The Manager must configure leader election or sharding, and a fixed healthPort\./);
  });

  for (const [args, message] of [
    [["examples/greeting/manager.ts"], /--image is required/],
    [["examples/greeting/manager.ts", "--image", "a b"], /--image must be an image reference without spaces/],
    [["examples/greeting/manager.ts", "--image", "x", "--replicas", "0"], /--replicas must be an integer from 1 to 10, got "0"/],
    [["--image", "x"], /MODULE is required/],
  ] as const) {
    it(`exits 2 with the usage for ${JSON.stringify(args)}`, async () => {
      const r = await complete(["gen", "manifests", ...args]);
      assert.equal(r.code, 2);
      assert.match(r.stderr, message);
      assert.match(r.stderr, /usage: operator-runtime gen manifests MODULE --image IMG/);
    });
  }

  for (const [module, message] of [
    ["test/cli/fixtures/no-election-operator.ts", /neither leader election nor sharding: .*give the Manager `leaderElection: \{ namespace, name \}` or `sharding: \{ ring, namespace \}`/],
    ["test/cli/fixtures/no-health-operator.ts", /has no health server \(healthPort: false\): probes need a fixed one/],
  ] as const) {
    it(`exits 1 naming what the Manager lacks for ${module}`, async () => {
      const r = await complete(["gen", "manifests", module, "--image", "x/y:1"]);
      assert.equal(r.code, 1);
      assert.match(r.stderr, message);
      assert.equal(r.stdout, "");
    });
  }
});
