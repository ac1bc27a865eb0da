/**
 * kubectl behaviour against LocalCluster: the real `kubectl` binary (from PATH, or `KUBECTL`)
 * with the generated kubeconfig and a per-test `--cache-dir`, so discovery caches never leak
 * between tests or clusters. Skipped (with the reason printed) only when there is no kubectl.
 *
 * Only flags that kubectl 1.20 already had are used. To try another kubectl release:
 * `KUBECTL=/path/to/kubectl-1.27 node --test test/testing/kubectl.int.test.ts`. kubectl ≤ 1.28
 * reads `/openapi/v2` (protobuf) before `apply -f` with validation on; 1.29+ uses `/openapi/v3`.
 */
import { after, afterEach, before, beforeEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { CoreV1Api, CustomObjectsApi } from "@kubernetes/client-node";
import { LocalCluster } from "../../src/testing/index.ts";
import { waitFor, within } from "../support/wait.ts";
import { KUBECTL } from "../support/kubectl.ts";

const execFileP = promisify(execFile);
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const PODMONITORS_CRD = path.resolve(repoRoot, "test/fixtures/crds/monitoring.coreos.com_podmonitors.yaml");


const WIDGET_CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: widgets
    singular: widget
    kind: Widget
    shortNames: [wd]
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
    additionalPrinterColumns:
    - name: Size
      type: integer
      jsonPath: .spec.size
    - name: Color
      type: string
      jsonPath: .spec.color
    - name: Phase
      type: string
      jsonPath: .status.phase
    - name: Owner
      type: string
      priority: 1
      jsonPath: .spec.owner
    - name: Age
      type: date
      jsonPath: .metadata.creationTimestamp
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [size]
            properties:
              size: {type: integer, minimum: 1}
              color: {type: string, enum: [red, blue]}
              owner: {type: string}
          status:
            type: object
            properties:
              phase: {type: string}
`;

const widget = (name: string, size: number) => `apiVersion: example.com/v1
kind: Widget
metadata:
  name: ${name}
  namespace: default
spec:
  size: ${size}
  color: red
  owner: team-a
`;

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: default
  labels: {app: web}
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx:1.27
        ports:
        - containerPort: 80
`;

const configMap = (name: string, extra = "") => `apiVersion: v1
kind: ConfigMap
metadata:
  name: ${name}
  namespace: default
${extra}data:
  a: "1"
`;

interface KubectlError extends Error {
  code?: number | string;
  stdout?: string;
  stderr?: string;
}

describe("kubectl against LocalCluster", {
  skip: KUBECTL
    ? false
    : process.env.KUBECTL
      ? `KUBECTL=${process.env.KUBECTL} is not an executable kubectl`
      : "no kubectl binary on PATH; install kubectl (or set KUBECTL) to run these tests",
  timeout: 240_000,
}, () => {
  let cluster: LocalCluster;
  let core: CoreV1Api;
  let custom: CustomObjectsApi;
  let files: string;
  let cacheDir: string;
  const children = new Set<ChildProcess>();

  before(async () => {
    cluster = await LocalCluster.start();
    core = cluster.kubeConfig.makeApiClient(CoreV1Api);
    custom = cluster.kubeConfig.makeApiClient(CustomObjectsApi);
    files = await mkdtemp(path.join(tmpdir(), "kubectl-test-"));
  });
  after(async () => {
    if (cluster) await within(cluster.stop(), "cluster.stop()");
    if (files) await rm(files, { recursive: true, force: true });
  });
  beforeEach(async () => {
    cacheDir = await mkdtemp(path.join(tmpdir(), "kubectl-cache-"));
  });
  afterEach(async () => {
    for (const child of children) child.kill();
    children.clear();
    await rm(cacheDir, { recursive: true, force: true });
  });

  const globalFlags = () => ["--kubeconfig", cluster.kubeconfigPath, "--cache-dir", cacheDir];

  /** Runs kubectl; resolves with stdout, rejects with its stderr in the message. */
  async function kubectl(args: string[], timeoutMs = 30_000): Promise<string> {
    try {
      const { stdout } = await execFileP(KUBECTL!, [...globalFlags(), ...args], {
        timeout: timeoutMs,
        killSignal: "SIGKILL",
        env: { ...process.env, KUBECONFIG: cluster.kubeconfigPath },
        maxBuffer: 16 * 1024 * 1024,
      });
      return stdout;
    } catch (e) {
      const err = e as KubectlError & { killed?: boolean };
      const how = err.killed ? `was killed after ${timeoutMs} ms` : `exited with ${err.code}`;
      throw new Error(`kubectl ${args.join(" ")} ${how}\nstdout: ${err.stdout ?? ""}\nstderr: ${err.stderr ?? ""}`);
    }
  }

  /** Starts a long-running kubectl (e.g. `get -w`), collecting its stdout and stderr. */
  function kubectlSpawn(args: string[]): { child: ChildProcess; out: () => string; err: () => string } {
    const child = spawn(KUBECTL!, [...globalFlags(), ...args], {
      env: { ...process.env, KUBECONFIG: cluster.kubeconfigPath },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.add(child);
    let out = "";
    let err = "";
    child.stdout!.setEncoding("utf8").on("data", (d: string) => (out += d));
    child.stderr!.setEncoding("utf8").on("data", (d: string) => (err += d));
    return { child, out: () => out, err: () => err };
  }

  async function writeTemp(name: string, content: string): Promise<string> {
    const file = path.join(files, name);
    await writeFile(file, content);
    return file;
  }

  async function applyText(name: string, content: string): Promise<string> {
    return kubectl(["apply", "-f", await writeTemp(name, content)]);
  }

  /** Makes sure the Widget CRD is installed and established (tests may run alone). */
  async function ensureWidgetCrd(): Promise<void> {
    await applyText("widgets-crd.yaml", WIDGET_CRD);
    await kubectl(["wait", "--for=condition=established", "crd/widgets.example.com", "--timeout=20s"]);
  }

  /** An object straight from storage (`default` namespace), loosely typed for assertions. */
  const peek = (group: string, plural: string, name: string) => cluster.peek({ group, plural }, "default", name) as Record<string, any> | undefined;

  /** Splits `kubectl get` output into whitespace-separated cells per line. */
  const rowsOf = (out: string) => out.trim().split("\n").map((line) => line.trim().split(/\s+/));

  it("applies a CRD with validation on, waits for Established, then applies a CR, a Deployment and a real CRD", async () => {
    const crdOut = await applyText("widgets-crd.yaml", WIDGET_CRD);
    assert.match(crdOut, /customresourcedefinition\.apiextensions\.k8s\.io\/widgets\.example\.com created/);
    const waited = await kubectl(["wait", "--for=condition=established", "crd/widgets.example.com", "--timeout=20s"]);
    assert.match(waited, /widgets\.example\.com condition met/);

    assert.match(await applyText("w1.yaml", widget("w1", 3)), /widget\.example\.com\/w1 created/);
    const stored = peek("example.com", "widgets", "w1");
    assert.equal(stored?.spec?.size, 3);
    assert.ok(stored?.metadata?.annotations?.["kubectl.kubernetes.io/last-applied-configuration"], "client-side apply keeps its annotation");
    // Re-applying an unchanged CR is a no-op; a changed one is a (JSON merge) patch.
    assert.match(await applyText("w1.yaml", widget("w1", 3)), /widget\.example\.com\/w1 unchanged/);
    assert.match(await applyText("w1.yaml", widget("w1", 4)), /widget\.example\.com\/w1 configured/);
    assert.equal(peek("example.com", "widgets", "w1")?.spec?.size, 4);

    // Validation happens on the server: an invalid CR is refused with the schema error.
    await assert.rejects(
      applyText("bad.yaml", widget("bad", 3).replace("color: red", "color: green")),
      /spec\.color: Unsupported value: "green"/,
    );

    assert.match(await applyText("deploy.yaml", DEPLOYMENT), /deployment\.apps\/web created/);
    assert.equal(peek("apps", "deployments", "web")?.spec?.replicas, 2);
    // A second apply of a built-in kind goes through kubectl's strategic-merge path.
    assert.match(await applyText("deploy.yaml", DEPLOYMENT.replace("replicas: 2", "replicas: 3")), /deployment\.apps\/web configured/);
    assert.equal(peek("apps", "deployments", "web")?.spec?.replicas, 3);

    const pm = await kubectl(["apply", "-f", PODMONITORS_CRD]);
    assert.match(pm, /customresourcedefinition\.apiextensions\.k8s\.io\/podmonitors\.monitoring\.coreos\.com created/);
    await kubectl(["wait", "--for=condition=established", "crd/podmonitors.monitoring.coreos.com", "--timeout=20s"]);
    const pmd = await applyText("pm.yaml", `apiVersion: monitoring.coreos.com/v1
kind: PodMonitor
metadata:
  name: web
  namespace: default
spec:
  selector:
    matchLabels: {app: web}
  podMetricsEndpoints:
  - port: metrics
`);
    assert.match(pmd, /podmonitor\.monitoring\.coreos\.com\/web created/);
  });

  it("get shows a CRD's printer columns (priority > 0 only with -o wide), ConfigMaps, and Deployments as JSON", async () => {
    await ensureWidgetCrd();
    await applyText("w-get.yaml", widget("w-get", 7));
    await applyText("deploy.yaml", DEPLOYMENT);
    await applyText("cm-get.yaml", configMap("cm-get"));

    const table = rowsOf(await kubectl(["get", "widgets"]));
    assert.deepEqual(table[0], ["NAME", "SIZE", "COLOR", "PHASE", "AGE"]);
    const row = table.find((r) => r[0] === "w-get");
    assert.ok(row, "w-get listed");
    assert.deepEqual(row.slice(0, 3), ["w-get", "7", "red"]);
    const wide = rowsOf(await kubectl(["get", "wd", "w-get", "-o", "wide"]));
    assert.deepEqual(wide[0], ["NAME", "SIZE", "COLOR", "PHASE", "OWNER", "AGE"]);
    assert.ok(wide[1]!.includes("team-a"));

    const cms = rowsOf(await kubectl(["get", "configmaps"]));
    assert.deepEqual(cms[0], ["NAME", "DATA", "AGE"]);
    assert.deepEqual(cms.find((r) => r[0] === "cm-get")?.slice(0, 2), ["cm-get", "1"]);
    const allNs = rowsOf(await kubectl(["get", "cm", "--all-namespaces"]));
    assert.deepEqual(allNs[0], ["NAMESPACE", "NAME", "DATA", "AGE"]);

    const deployTable = rowsOf(await kubectl(["get", "deploy"]));
    assert.deepEqual(deployTable[0], ["NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE"]);
    await applyText("more-kinds.yaml", `apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: rs-get, namespace: default}
spec:
  replicas: 2
  selector: {matchLabels: {app: rs-get}}
  template:
    metadata: {labels: {app: rs-get}}
    spec: {containers: [{name: c, image: busybox:1.36}]}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: sa-get, namespace: default}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: pvc-get, namespace: default}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
`);
    const rs = rowsOf(await kubectl(["get", "rs", "rs-get", "-o", "wide"]));
    assert.deepEqual(rs[0], ["NAME", "DESIRED", "CURRENT", "READY", "AGE", "CONTAINERS", "IMAGES", "SELECTOR"]);
    assert.deepEqual([rs[1]![0], rs[1]![1], ...rs[1]!.slice(-3)], ["rs-get", "2", "c", "busybox:1.36", "app=rs-get"]);
    assert.deepEqual(rowsOf(await kubectl(["get", "sa", "sa-get"]))[0], ["NAME", "SECRETS", "AGE"]);
    assert.deepEqual(rowsOf(await kubectl(["get", "pvc", "pvc-get"]))[0], ["NAME", "STATUS", "VOLUME", "CAPACITY", "ACCESS", "MODES", "STORAGECLASS", "VOLUMEATTRIBUTESCLASS", "AGE"]);

    const list = JSON.parse(await kubectl(["get", "deploy", "-o", "json"]));
    assert.equal(list.kind, "List");
    const web = list.items.find((d: { metadata: { name: string } }) => d.metadata.name === "web");
    assert.equal(web?.kind, "Deployment");
    assert.equal(web?.apiVersion, "apps/v1");
    assert.equal(web?.spec.template.spec.containers[0].image, "nginx:1.27");
    const one = JSON.parse(await kubectl(["get", "deploy", "web", "-o", "json"]));
    assert.equal(one.metadata.uid, web.metadata.uid);
    assert.equal(await kubectl(["get", "widget", "w-get", "-o", "jsonpath={.spec.size}"]), "7");
  });

  it("get -w prints a ConfigMap change made afterwards through client-node", async () => {
    await core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "watched", labels: { watch: "cm" } }, data: { a: "1" } } });
    const w = kubectlSpawn(["get", "configmaps", "-l", "watch=cm", "-w"]);
    await waitFor(() => /^watched\s+1\s/m.test(w.out()), `the initial row (stdout: ${w.out()}, stderr: ${w.err()})`, 20_000);
    await core.replaceNamespacedConfigMap({
      name: "watched", namespace: "default",
      body: { metadata: { name: "watched", labels: { watch: "cm" } }, data: { a: "1", b: "2", c: "3" } },
    });
    await waitFor(() => /^watched\s+3\s/m.test(w.out()), `the updated row (stdout: ${w.out()}, stderr: ${w.err()})`, 20_000);
    assert.equal(w.child.exitCode, null, "kubectl get -w keeps running");
    w.child.kill();
  });

  it("get -w on a custom resource prints printer columns of a status change made through client-node", async () => {
    await ensureWidgetCrd();
    await applyText("w-watch.yaml", widget("w-watch", 2));
    const w = kubectlSpawn(["get", "widgets", "w-watch", "-w"]);
    await waitFor(() => /^w-watch\s+2\s+red\s/m.test(w.out()), `the initial row (stdout: ${w.out()}, stderr: ${w.err()})`, 20_000);
    await custom.patchNamespacedCustomObjectStatus({
      group: "example.com", version: "v1", namespace: "default", plural: "widgets", name: "w-watch",
      body: [{ op: "add", path: "/status", value: { phase: "Running" } }],
    });
    await waitFor(() => /^w-watch\s+2\s+red\s+Running\s/m.test(w.out()), `the Running row (stdout: ${w.out()}, stderr: ${w.err()})`, 20_000);
    w.child.kill();
  });

  it("describe shows the core/v1 Events of an object", async () => {
    const cm = await core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "described" }, data: { a: "1" } } });
    const now = new Date();
    await core.createNamespacedEvent({
      namespace: "default",
      body: {
        metadata: { name: `described.${(BigInt(now.getTime()) * 1_000_000n).toString(16)}` },
        involvedObject: { kind: "ConfigMap", apiVersion: "v1", namespace: "default", name: "described", uid: cm.metadata!.uid! },
        reason: "ConfigSynced",
        message: "synced the described config to 3 replicas",
        type: "Warning",
        count: 1,
        firstTimestamp: now,
        lastTimestamp: now,
        source: { component: "kubectl-test" },
      },
    });
    // An event of another object with the same name but another uid (a previous incarnation) is not shown.
    await core.createNamespacedEvent({
      namespace: "default",
      body: {
        metadata: { name: "described.old" },
        involvedObject: { kind: "ConfigMap", apiVersion: "v1", namespace: "default", name: "described", uid: "00000000-0000-0000-0000-000000000000" },
        reason: "StaleReason", message: "from a deleted incarnation", type: "Normal", count: 1,
        firstTimestamp: now, lastTimestamp: now, source: { component: "kubectl-test" },
      },
    });
    const out = await kubectl(["describe", "configmap", "described"]);
    assert.match(out, /^Name:\s+described$/m);
    const events = out.slice(out.indexOf("Events:"));
    assert.match(events, /Warning\s+ConfigSynced\s+.*kubectl-test\s+synced the described config to 3 replicas/);
    assert.doesNotMatch(events, /StaleReason/);
  });

  it("describe of a custom resource shows its fields and Events", async () => {
    await ensureWidgetCrd();
    await applyText("w-desc.yaml", widget("w-desc", 5));
    const w = await custom.getNamespacedCustomObject({ group: "example.com", version: "v1", namespace: "default", plural: "widgets", name: "w-desc" });
    const now = new Date();
    await core.createNamespacedEvent({
      namespace: "default",
      body: {
        metadata: { name: "w-desc.1" },
        involvedObject: { kind: "Widget", apiVersion: "example.com/v1", namespace: "default", name: "w-desc", uid: w.metadata.uid },
        reason: "Scaled", message: "scaled widget to 5", type: "Normal", count: 1,
        firstTimestamp: now, lastTimestamp: now, source: { component: "widget-operator" },
      },
    });
    const out = await kubectl(["describe", "widget", "w-desc"]);
    assert.match(out, /^Kind:\s+Widget$/m);
    assert.match(out, /Size:\s+5/);
    assert.match(out.slice(out.indexOf("Events:")), /Normal\s+Scaled\s+.*widget-operator\s+scaled widget to 5/);
  });

  it("delete --wait returns once a finalizer-free object is gone", async () => {
    await applyText("gone.yaml", configMap("gone"));
    const out = await kubectl(["delete", "configmap", "gone", "--wait", "--timeout=20s"]);
    assert.match(out, /configmap "gone" deleted/);
    assert.equal(peek("", "configmaps", "gone"), undefined);
    await assert.rejects(kubectl(["get", "configmap", "gone"]), /NotFound.*configmaps "gone" not found/s);
  });

  it("delete --wait=false of an object with a finalizer returns at once and leaves it Terminating", async () => {
    await applyText("held.yaml", configMap("held", "  finalizers: [example.com/hold]\n"));
    // kubectl would wait forever for a held object; the short timeout makes that a failure.
    const out = await kubectl(["delete", "configmap", "held", "--wait=false"], 15_000);
    assert.match(out, /configmap "held" deleted/);
    const live = await core.readNamespacedConfigMap({ name: "held", namespace: "default" });
    assert.ok(live.metadata?.deletionTimestamp, "deletionTimestamp is set");
    assert.deepEqual(live.metadata?.finalizers, ["example.com/hold"]);
    const ts = await kubectl(["get", "configmap", "held", "-o", "jsonpath={.metadata.deletionTimestamp}"]);
    assert.match(ts, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

    // Now a waiting delete: it returns once the finalizer is removed and the object disappears.
    const deletes = () => cluster.requests.count({ verb: "delete", resource: "configmaps", name: "held" });
    const before = deletes();
    const waiting = kubectlSpawn(["delete", "configmap", "held", "--wait", "--timeout=30s"]);
    const exited = new Promise<number | null>((resolve) => waiting.child.on("exit", (code) => resolve(code)));
    await waitFor(() => deletes() > before, `kubectl's DELETE (stderr: ${waiting.err()})`, 20_000);
    assert.equal(waiting.child.exitCode, null, "still waiting while the finalizer is there");
    await core.patchNamespacedConfigMap({ name: "held", namespace: "default", body: [{ op: "remove", path: "/metadata/finalizers" }] });
    assert.equal(await within(exited, "kubectl delete --wait to exit once the finalizer is gone", 30_000), 0, `delete --wait exits 0 (stderr: ${waiting.err()})`);
    assert.match(waiting.out(), /configmap "held" deleted/);
    assert.equal(peek("", "configmaps", "held"), undefined);
  });

  it("patch --type merge changes the object; label adds a label that -l selects", async () => {
    await applyText("patched.yaml", configMap("patched"));
    await applyText("unlabelled.yaml", configMap("unlabelled"));
    const out = await kubectl(["patch", "configmap", "patched", "--type", "merge", "-p", '{"data":{"b":"2"},"metadata":{"annotations":{"note":"x"}}}']);
    assert.match(out, /configmap\/patched patched/);
    const cm = await core.readNamespacedConfigMap({ name: "patched", namespace: "default" });
    assert.deepEqual(cm.data, { a: "1", b: "2" });
    assert.equal(cm.metadata?.annotations?.note, "x");

    assert.match(await kubectl(["label", "configmap", "patched", "team=a"]), /configmap\/patched labeled/);
    assert.equal((await core.readNamespacedConfigMap({ name: "patched", namespace: "default" })).metadata?.labels?.team, "a");
    assert.equal((await kubectl(["get", "cm", "-l", "team=a", "-o", "name"])).trim(), "configmap/patched");
    const listed = rowsOf(await kubectl(["get", "configmaps", "-l", "team=a"]));
    assert.deepEqual(listed.map((r) => r[0]), ["NAME", "patched"]);
    // Changing a label needs --overwrite; `key-` removes it.
    await assert.rejects(kubectl(["label", "configmap", "patched", "team=b"]), /already has a value \(a\)/);
    await kubectl(["label", "configmap", "patched", "team=b", "--overwrite"]);
    assert.equal((await kubectl(["get", "cm", "-l", "team=b", "-o", "name"])).trim(), "configmap/patched");
    await kubectl(["label", "configmap", "patched", "team-"]);
    assert.equal((await kubectl(["get", "cm", "-l", "team", "-o", "name"])).trim(), "");
  });

  it("patch: merge on a custom resource bumps generation; strategic (the default) on a Deployment merges containers by name", async () => {
    await ensureWidgetCrd();
    await applyText("w-patch.yaml", widget("w-patch", 1));
    await kubectl(["patch", "widget", "w-patch", "--type", "merge", "-p", '{"spec":{"size":9}}']);
    const w = peek("example.com", "widgets", "w-patch");
    assert.equal(w?.spec?.size, 9);
    assert.equal(w?.metadata?.generation, 2);
    await assert.rejects(kubectl(["patch", "widget", "w-patch", "-p", '{"spec":{"size":2}}']), /application\/strategic-merge-patch\+json is not supported by example.com\/v1, Kind=Widget/);
    await assert.rejects(kubectl(["patch", "widget", "w-patch", "--type", "merge", "-p", '{"spec":{"size":0}}']), /spec\.size: Invalid value: 0/);

    await applyText("deploy.yaml", DEPLOYMENT);
    await kubectl(["patch", "deployment", "web", "-p", '{"spec":{"template":{"spec":{"containers":[{"name":"sidecar","image":"busybox"}]}}}}']);
    const d = peek("apps", "deployments", "web");
    assert.deepEqual(d?.spec?.template?.spec?.containers?.map((c: { name: string }) => c.name).sort(), ["sidecar", "web"]);
  });

  it("get --sort-by sorts on a field of the full object (Table includeObject=Object)", async () => {
    await ensureWidgetCrd();
    await applyText("sort.yaml", [widget("sort-b", 8), widget("sort-a", 6), widget("sort-c", 10)].join("---\n"));
    const rows = rowsOf(await kubectl(["get", "widgets", "--sort-by=.spec.size"]));
    assert.deepEqual(rows.map((r) => r[0]).filter((n) => n!.startsWith("sort-")), ["sort-a", "sort-b", "sort-c"]);
  });

  // Behaviours kubectl exposed as server bugs, now fixed.
  it("replace with an unchanged manifest keeps server defaults and does not bump generation; describe shows port protocols", async () => {
    const manifest = DEPLOYMENT.replaceAll("web", "defaults");
    // Created, not applied: a replace drops apply's last-applied annotation, and a Deployment's
    // generation counts annotation changes too.
    await kubectl(["create", "-f", await writeTemp("defaults.yaml", manifest)]);
    assert.equal(peek("apps", "deployments", "defaults")?.metadata?.generation, 1);
    await kubectl(["replace", "-f", await writeTemp("defaults-replace.yaml", manifest)]);
    const after = peek("apps", "deployments", "defaults");
    assert.equal(after?.spec?.strategy?.type, "RollingUpdate");
    assert.equal(after?.metadata?.generation, 1);
    assert.match(await kubectl(["describe", "deployment", "defaults"]), /Port:\s+80\/TCP/);
  });

  it("apply of a Secret with stringData stores it base64-encoded in data", async () => {
    await applyText("secret.yaml", "apiVersion: v1\nkind: Secret\nmetadata: {name: sd, namespace: default}\nstringData: {password: s3cr3t}\n");
    assert.equal(await kubectl(["get", "secret", "sd", "-o", "jsonpath={.data.password}"]), Buffer.from("s3cr3t").toString("base64"));
    assert.deepEqual(rowsOf(await kubectl(["get", "secret", "sd"]))[1]!.slice(0, 3), ["sd", "Opaque", "1"]);
  });

  it("apply --server-side twice keeps one Service port; moving a Deployment from client-side apply keeps its generation", async () => {
    const svc = "apiVersion: v1\nkind: Service\nmetadata: {name: ssa-svc, namespace: default}\nspec:\n  selector: {app: web}\n  ports: [{name: http, port: 80, targetPort: 8080}]\n";
    const file = await writeTemp("ssa-svc.yaml", svc);
    await kubectl(["apply", "--server-side", "-f", file]);
    await kubectl(["apply", "--server-side", "-f", file]);
    assert.deepEqual(JSON.parse(await kubectl(["get", "svc", "ssa-svc", "-o", "jsonpath={.spec.ports}"])),
      [{ name: "http", port: 80, protocol: "TCP", targetPort: 8080 }]);

    const manifest = await writeTemp("ssa-deploy.yaml", DEPLOYMENT.replaceAll("web", "csa-to-ssa"));
    await kubectl(["apply", "-f", manifest]);
    await kubectl(["apply", "--server-side", "-f", manifest]);
    const d = peek("apps", "deployments", "csa-to-ssa");
    assert.equal(d?.metadata?.generation, 1);
    assert.equal(d?.spec?.template?.spec?.containers?.[0]?.ports?.length, 1);
  });

  it("apply --dry-run=server answers at the live resourceVersion and stores nothing", async () => {
    await applyText("dry.yaml", configMap("dry"));
    const live = await core.readNamespacedConfigMap({ name: "dry", namespace: "default" });
    const out = JSON.parse(await kubectl(["apply", "--dry-run=server", "-o", "json", "-f",
      await writeTemp("dry2.yaml", configMap("dry").replace('a: "1"', 'a: "2"'))]));
    assert.equal(out.data.a, "2");
    assert.equal(out.metadata.resourceVersion, live.metadata?.resourceVersion);
    assert.equal((await core.readNamespacedConfigMap({ name: "dry", namespace: "default" })).data?.a, "1");
  });
});
