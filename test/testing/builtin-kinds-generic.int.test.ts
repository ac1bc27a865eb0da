/**
 * Every built-in kind of kube-apiserver v1.36.2 is served generically (resources, scope, verbs
 * and subresources read from its Swagger document): Jobs, CronJobs, Ingresses, NetworkPolicies,
 * PodDisruptionBudgets, DaemonSets and HorizontalPodAutoscalers through client-node's typed
 * clients; discovery lists them as the real server does; kubectl reads the real OpenAPI
 * documents (`explain` in both forms) and creates Jobs, CronJobs and Ingresses with its
 * protobuf-sending generators.
 */
import { after, afterEach, before, beforeEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import {
  AppsV1Api,
  AutoscalingV2Api,
  BatchV1Api,
  CoreV1Api,
  NetworkingV1Api,
  PatchStrategy,
  PolicyV1Api,
  setHeaderOptions,
} from "@kubernetes/client-node";
import { LocalCluster } from "../../src/testing/index.ts";
import { raw, waitFor, within } from "../support/wait.ts";
import { openWatch } from "../support/watch-stream.ts";
import { KUBECTL } from "../support/kubectl.ts";

const execFileP = promisify(execFile);
const NS = "generic";
const POD_TEMPLATE = { metadata: { labels: { app: "w" } }, spec: { containers: [{ name: "c", image: "busybox" }] } };
const MERGE = setHeaderOptions("Content-Type", PatchStrategy.MergePatch);
const STRATEGIC = setHeaderOptions("Content-Type", PatchStrategy.StrategicMergePatch);

describe("built-in kinds served generically", () => {
  let cluster: LocalCluster;
  let batch: BatchV1Api;
  let networking: NetworkingV1Api;
  let policy: PolicyV1Api;
  let apps: AppsV1Api;
  let autoscaling: AutoscalingV2Api;

  before(async () => {
    cluster = await LocalCluster.start();
    const kc = cluster.kubeConfig;
    batch = kc.makeApiClient(BatchV1Api);
    networking = kc.makeApiClient(NetworkingV1Api);
    policy = kc.makeApiClient(PolicyV1Api);
    apps = kc.makeApiClient(AppsV1Api);
    autoscaling = kc.makeApiClient(AutoscalingV2Api);
    await kc.makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name: NS } } });
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  /** One kind's create, get, list, patch, delete through its typed client. */
  interface Case {
    kind: string;
    /** group/version path prefix and plural, for the raw watch. */
    collection: string;
    create(name: string): Promise<{ metadata?: { name?: string; generation?: number; resourceVersion?: string } }>;
    read(name: string): Promise<{ metadata?: { labels?: Record<string, string> } }>;
    list(): Promise<{ items: { metadata?: { name?: string } }[] }>;
    patch(name: string, body: unknown): Promise<{ metadata?: { labels?: Record<string, string> } }>;
    remove(name: string): Promise<unknown>;
    generation: boolean;
  }

  const cases = (): Case[] => [
    {
      kind: "Job",
      collection: `/apis/batch/v1/namespaces/${NS}/jobs`,
      create: (name) => batch.createNamespacedJob({ namespace: NS, body: { metadata: { name }, spec: { template: { spec: { ...POD_TEMPLATE.spec, restartPolicy: "Never" } } } } }),
      read: (name) => batch.readNamespacedJob({ namespace: NS, name }),
      list: () => batch.listNamespacedJob({ namespace: NS }),
      patch: (name, body) => batch.patchNamespacedJob({ namespace: NS, name, body }, MERGE),
      remove: (name) => batch.deleteNamespacedJob({ namespace: NS, name }),
      generation: true,
    },
    {
      kind: "CronJob",
      collection: `/apis/batch/v1/namespaces/${NS}/cronjobs`,
      create: (name) => batch.createNamespacedCronJob({
        namespace: NS,
        body: { metadata: { name }, spec: { schedule: "*/5 * * * *", jobTemplate: { spec: { template: { spec: { ...POD_TEMPLATE.spec, restartPolicy: "OnFailure" } } } } } },
      }),
      read: (name) => batch.readNamespacedCronJob({ namespace: NS, name }),
      list: () => batch.listNamespacedCronJob({ namespace: NS }),
      patch: (name, body) => batch.patchNamespacedCronJob({ namespace: NS, name, body }, MERGE),
      remove: (name) => batch.deleteNamespacedCronJob({ namespace: NS, name }),
      generation: true,
    },
    {
      kind: "Ingress",
      collection: `/apis/networking.k8s.io/v1/namespaces/${NS}/ingresses`,
      create: (name) => networking.createNamespacedIngress({
        namespace: NS,
        body: {
          metadata: { name },
          spec: { rules: [{ host: "a.example.com", http: { paths: [{ path: "/", pathType: "Prefix", backend: { service: { name: "s", port: { number: 80 } } } }] } }] },
        },
      }),
      read: (name) => networking.readNamespacedIngress({ namespace: NS, name }),
      list: () => networking.listNamespacedIngress({ namespace: NS }),
      patch: (name, body) => networking.patchNamespacedIngress({ namespace: NS, name, body }, MERGE),
      remove: (name) => networking.deleteNamespacedIngress({ namespace: NS, name }),
      generation: true,
    },
    {
      kind: "NetworkPolicy",
      collection: `/apis/networking.k8s.io/v1/namespaces/${NS}/networkpolicies`,
      create: (name) => networking.createNamespacedNetworkPolicy({ namespace: NS, body: { metadata: { name }, spec: { podSelector: {}, policyTypes: ["Ingress"] } } }),
      read: (name) => networking.readNamespacedNetworkPolicy({ namespace: NS, name }),
      list: () => networking.listNamespacedNetworkPolicy({ namespace: NS }),
      patch: (name, body) => networking.patchNamespacedNetworkPolicy({ namespace: NS, name, body }, MERGE),
      remove: (name) => networking.deleteNamespacedNetworkPolicy({ namespace: NS, name }),
      generation: true,
    },
    {
      kind: "PodDisruptionBudget",
      collection: `/apis/policy/v1/namespaces/${NS}/poddisruptionbudgets`,
      create: (name) => policy.createNamespacedPodDisruptionBudget({ namespace: NS, body: { metadata: { name }, spec: { minAvailable: 1, selector: { matchLabels: { app: "w" } } } } }),
      read: (name) => policy.readNamespacedPodDisruptionBudget({ namespace: NS, name }),
      list: () => policy.listNamespacedPodDisruptionBudget({ namespace: NS }),
      patch: (name, body) => policy.patchNamespacedPodDisruptionBudget({ namespace: NS, name, body }, MERGE),
      remove: (name) => policy.deleteNamespacedPodDisruptionBudget({ namespace: NS, name }),
      generation: true,
    },
    {
      kind: "DaemonSet",
      collection: `/apis/apps/v1/namespaces/${NS}/daemonsets`,
      create: (name) => apps.createNamespacedDaemonSet({ namespace: NS, body: { metadata: { name }, spec: { selector: { matchLabels: { app: "w" } }, template: POD_TEMPLATE } } }),
      read: (name) => apps.readNamespacedDaemonSet({ namespace: NS, name }),
      list: () => apps.listNamespacedDaemonSet({ namespace: NS }),
      patch: (name, body) => apps.patchNamespacedDaemonSet({ namespace: NS, name, body }, STRATEGIC),
      remove: (name) => apps.deleteNamespacedDaemonSet({ namespace: NS, name }),
      generation: true,
    },
    {
      kind: "HorizontalPodAutoscaler",
      collection: `/apis/autoscaling/v2/namespaces/${NS}/horizontalpodautoscalers`,
      create: (name) => autoscaling.createNamespacedHorizontalPodAutoscaler({
        namespace: NS,
        body: { metadata: { name }, spec: { maxReplicas: 3, scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name: "web" } } },
      }),
      read: (name) => autoscaling.readNamespacedHorizontalPodAutoscaler({ namespace: NS, name }),
      list: () => autoscaling.listNamespacedHorizontalPodAutoscaler({ namespace: NS }),
      patch: (name, body) => autoscaling.patchNamespacedHorizontalPodAutoscaler({ namespace: NS, name, body }, MERGE),
      remove: (name) => autoscaling.deleteNamespacedHorizontalPodAutoscaler({ namespace: NS, name }),
      generation: true,
    },
  ];

  for (const kind of ["Job", "CronJob", "Ingress", "NetworkPolicy", "PodDisruptionBudget", "DaemonSet", "HorizontalPodAutoscaler"]) {
    it(`${kind}: create, get, list, watch, patch and delete through client-node`, async () => {
      const c = cases().find((x) => x.kind === kind)!;
      const name = `g-${kind.toLowerCase()}`;
      const created = await c.create(name);
      assert.equal(created.metadata?.name, name);
      if (c.generation) assert.equal(created.metadata?.generation, 1, `${kind} keeps metadata.generation`);
      const w = await openWatch(cluster.url, `${c.collection}?watch=true&resourceVersion=${created.metadata!.resourceVersion}`);
      try {
        assert.equal(w.res.status, 200);
        assert.equal((await c.read(name)).metadata?.labels?.["x"], undefined);
        assert.ok((await c.list()).items.some((i) => i.metadata?.name === name));
        const patched = await c.patch(name, { metadata: { labels: { x: "y" } } });
        assert.equal(patched.metadata?.labels?.["x"], "y");
        assert.equal((await c.read(name)).metadata?.labels?.["x"], "y");
        await c.remove(name);
        await waitFor(() => w.events.some((e) => e.type === "DELETED"), `the DELETED event of the ${kind}`);
        assert.deepEqual(w.events.map((e) => e.type), ["MODIFIED", "DELETED"]);
        assert.equal(w.events[0].object.kind, kind);
      } finally {
        w.stop();
      }
      assert.ok(!(await c.list()).items.some((i) => i.metadata?.name === name));
    });
  }

  it("discovery lists the groups in kube-apiserver's order, and their kinds with short names and subresources", async () => {
    const apis = await raw(cluster.url, "GET", "/apis");
    const real = JSON.parse(readFileSync(new URL("../../src/testing/openapi/kube-openapi-1.36/apis.json", import.meta.url), "utf8"));
    assert.deepEqual(apis.body, real);
    const batchV1 = (await raw(cluster.url, "GET", "/apis/batch/v1")).body;
    assert.deepEqual(batchV1.resources.map((r: { name: string }) => r.name), ["cronjobs", "cronjobs/status", "jobs", "jobs/status"]);
    const cronjobs = batchV1.resources[0];
    assert.deepEqual(cronjobs.shortNames, ["cj"]);
    assert.deepEqual(cronjobs.categories, ["all"]);
    assert.deepEqual(cronjobs.verbs, ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"]);
    const resources = async (gv: string) => (await raw(cluster.url, "GET", gv)).body.resources as { name: string; shortNames?: string[] }[];
    const short = async (gv: string, name: string) => (await resources(gv)).find((r) => r.name === name)?.shortNames;
    assert.deepEqual(await short("/apis/networking.k8s.io/v1", "ingresses"), ["ing"]);
    assert.deepEqual(await short("/apis/networking.k8s.io/v1", "networkpolicies"), ["netpol"]);
    assert.deepEqual(await short("/apis/policy/v1", "poddisruptionbudgets"), ["pdb"]);
    assert.deepEqual(await short("/apis/autoscaling/v2", "horizontalpodautoscalers"), ["hpa"]);
    assert.deepEqual(await short("/apis/apps/v1", "daemonsets"), ["ds"]);
    assert.deepEqual(await short("/apis/storage.k8s.io/v1", "storageclasses"), ["sc"]);
    assert.deepEqual(await short("/api/v1", "persistentvolumes"), ["pv"]);
    const core = (await resources("/api/v1")).map((r) => r.name);
    assert.ok(core.includes("namespaces/finalize") && core.includes("replicationcontrollers/scale") && core.includes("nodes"));
    // Left out: virtual or action-only resources.
    assert.ok(!core.includes("componentstatuses") && !core.includes("bindings"));
    // The real server's storage version hash (the first 8 bytes of SHA-256 of "/v1/Pod", base64).
    assert.equal((await resources("/api/v1") as { name: string; storageVersionHash?: string }[]).find((r) => r.name === "pods")?.storageVersionHash, "xPOwRZ+Yhw8=");
  });

  it("an HPA created at autoscaling/v2 is listed at autoscaling/v1 too (one storage)", async () => {
    await autoscaling.createNamespacedHorizontalPodAutoscaler({
      namespace: NS,
      body: { metadata: { name: "shared" }, spec: { maxReplicas: 2, scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name: "web" } } },
    });
    const v1 = await raw(cluster.url, "GET", `/apis/autoscaling/v1/namespaces/${NS}/horizontalpodautoscalers/shared`);
    assert.equal(v1.code, 200);
    assert.equal(v1.body.apiVersion, "autoscaling/v1");
  });
});

describe("kubectl reads the real OpenAPI documents and creates built-in kinds", {
  skip: KUBECTL ? false : "no kubectl binary on PATH; install kubectl (or set KUBECTL) to run these tests",
  timeout: 180_000,
}, () => {
  let cluster: LocalCluster;
  let batch: BatchV1Api;
  let networking: NetworkingV1Api;
  let cacheDir: string;

  before(async () => {
    cluster = await LocalCluster.start();
    batch = cluster.kubeConfig.makeApiClient(BatchV1Api);
    networking = cluster.kubeConfig.makeApiClient(NetworkingV1Api);
  });
  after(() => within(cluster.stop(), "cluster.stop()"));
  beforeEach(async () => {
    cacheDir = await mkdtemp(path.join(tmpdir(), "kubectl-cache-"));
  });
  afterEach(() => rm(cacheDir, { recursive: true, force: true }));

  async function kubectl(args: string[]): Promise<string> {
    try {
      const { stdout } = await execFileP(KUBECTL!, ["--kubeconfig", cluster.kubeconfigPath, "--cache-dir", cacheDir, ...args], {
        timeout: 60_000,
        killSignal: "SIGKILL",
        env: { ...process.env, KUBECONFIG: cluster.kubeconfigPath },
        maxBuffer: 16 * 1024 * 1024,
      });
      return stdout;
    } catch (e) {
      const err = e as { stdout?: string; stderr?: string; code?: number };
      throw new Error(`kubectl ${args.join(" ")} exited with ${err.code}\nstdout: ${err.stdout ?? ""}\nstderr: ${err.stderr ?? ""}`);
    }
  }

  it("explain deployment.spec.strategy prints the field's description (OpenAPI v3)", async () => {
    const out = await kubectl(["explain", "deployment.spec.strategy"]);
    assert.match(out, /The deployment strategy to use to replace existing pods with new ones\./);
    assert.match(out, /rollingUpdate/);
  });

  it("explain --output=plaintext-openapiv2 reads the protobuf /openapi/v2 (kubectl 1.20's path)", async () => {
    const out = await kubectl(["explain", "--output=plaintext-openapiv2", "deployment.spec.strategy"]);
    assert.match(out, /The deployment strategy to use to replace existing pods with new ones\./);
    assert.match(out, /RESOURCE: strategy <Object>/);
  });

  it("create job, create cronjob and create ingress send protobuf bodies the server reads", async () => {
    assert.match(await kubectl(["create", "job", "j", "--image=busybox"]), /job\.batch\/j created/);
    assert.match(await kubectl(["create", "cronjob", "c", "--image=busybox", "--schedule=*/1 * * * *"]), /cronjob\.batch\/c created/);
    assert.match(await kubectl(["create", "ingress", "i", "--rule=a.example.com/=svc:80"]), /ingress\.networking\.k8s\.io\/i created/);
    const job = await batch.readNamespacedJob({ namespace: "default", name: "j" });
    assert.equal(job.spec?.template.spec?.containers[0]?.image, "busybox");
    const cron = await batch.readNamespacedCronJob({ namespace: "default", name: "c" });
    assert.equal(cron.spec?.schedule, "*/1 * * * *");
    const ing = await networking.readNamespacedIngress({ namespace: "default", name: "i" });
    assert.equal(ing.spec?.rules?.[0]?.host, "a.example.com");
    assert.equal(ing.spec?.rules?.[0]?.http?.paths[0]?.backend.service?.port?.number, 80);
  });
});
