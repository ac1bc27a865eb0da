/**
 * Immutable fields of built-in kinds: every update path (PUT, strategic/merge/JSON patch,
 * server-side apply, kubectl's client-side apply) answers 422 Invalid with kube-apiserver's field
 * path and message when it changes one, and leaves the stored object as it was; the changes a
 * real cluster allows keep working. Runs with workload simulation on, so Pods get bound to the
 * simulated node and claims become Bound, as on a real cluster.
 */
import { after, afterEach, before, beforeEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { ApiException, AppsV1Api, CoreV1Api, KubernetesObjectApi, PatchStrategy, setHeaderOptions } from "@kubernetes/client-node";
import type { KubernetesObject, V1Pod } from "@kubernetes/client-node";
import { LocalCluster } from "../../src/testing/index.ts";
import { raw, waitFor, within } from "../support/wait.ts";
import { KUBECTL } from "../support/kubectl.ts";
import { rejection } from "../support/kube-objects.ts";

const execFileP = promisify(execFile);
const NS = "default";



/** Asserts a 422 Invalid naming exactly `fields` (in order) in `details.causes`. */
function assertInvalid(r: { code: number; body: any }, kind: string, name: string, fields: string[]): void {
  assert.equal(r.code, 422, JSON.stringify(r.body));
  assert.equal(r.body.reason, "Invalid");
  assert.equal(r.body.details.kind, kind);
  assert.equal(r.body.details.name, name);
  assert.deepEqual(r.body.details.causes.map((c: any) => c.field), fields);
}

const POD_FORBIDDEN =
  "spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`," +
  "`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations)," +
  "`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)";

const pod = (name: string): V1Pod => ({
  metadata: { name, labels: { app: name } },
  spec: {
    containers: [{ name: "main", image: "nginx:1.27", command: ["nginx", "-g", "daemon off;"], ports: [{ containerPort: 80 }] }],
    tolerations: [{ key: "dedicated", operator: "Equal", value: "web", effect: "NoSchedule" }],
    activeDeadlineSeconds: 600,
  },
});

/** client-node returns class instances; compare their JSON. */
const plain = (v: unknown): any => JSON.parse(JSON.stringify(v ?? null));

describe("immutable fields of built-in kinds", { timeout: 120_000 }, () => {
  let cluster: LocalCluster;
  let core: CoreV1Api;
  let apps: AppsV1Api;
  let objects: KubernetesObjectApi;
  before(async () => {
    cluster = await LocalCluster.start({ simulate: { readyDelayMs: 10 } });
    core = cluster.kubeConfig.makeApiClient(CoreV1Api);
    apps = cluster.kubeConfig.makeApiClient(AppsV1Api);
    objects = KubernetesObjectApi.makeApiClient(cluster.kubeConfig);
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  /** A Pod created and bound to the simulated node (the binding itself is a permitted spec change). */
  async function runningPod(name: string): Promise<V1Pod> {
    await core.createNamespacedPod({ namespace: NS, body: pod(name) });
    return waitFor(async () => {
      const p = await core.readNamespacedPod({ name, namespace: NS });
      return p.spec?.nodeName && p.status?.phase === "Running" ? p : undefined;
    }, `pod ${name} bound and Running`);
  }

  describe("Pod", () => {
    it("a PUT changing a container's command is 422 on `spec`, with a diff hint, and stores nothing", async () => {
      const before = await runningPod("cmd");
      const changed = plain(before);
      changed.spec.containers[0].command = ["sleep", "3600"];
      const r = await rejection(core.replaceNamespacedPod({ name: "cmd", namespace: NS, body: changed }));
      assertInvalid(r, "Pod", "cmd", ["spec"]);
      assert.ok(r.body.message.startsWith(`Pod "cmd" is invalid: ${POD_FORBIDDEN}\n`), r.body.message);
      assert.ok(r.body.message.endsWith('\n  spec.containers[0].command:\n-   ["nginx","-g","daemon off;"]\n+   ["sleep","3600"]'), r.body.message);
      const after = await core.readNamespacedPod({ name: "cmd", namespace: NS });
      assert.equal(after.metadata?.resourceVersion, before.metadata?.resourceVersion);
      assert.deepEqual(after.spec?.containers[0]?.command, ["nginx", "-g", "daemon off;"]);
    });

    it("every PATCH type and server-side apply get the same answer", async () => {
      const before = await runningPod("patches");
      const path = `/api/v1/namespaces/${NS}/pods/patches`;
      const patches: [string, unknown][] = [
        ["application/strategic-merge-patch+json", { spec: { containers: [{ name: "main", ports: [{ containerPort: 8080 }] }] } }],
        ["application/merge-patch+json", { spec: { restartPolicy: "Never" } }],
        ["application/json-patch+json", [{ op: "replace", path: "/spec/containers/0/command", value: ["true"] }]],
      ];
      for (const [type, body] of patches) {
        const r = await raw(cluster.url, "PATCH", path, body, type);
        assertInvalid(r, "Pod", "patches", ["spec"]);
        assert.ok(r.body.details.causes[0].message.startsWith(POD_FORBIDDEN.slice("spec: ".length)), `${type}: ${r.body.message}`);
      }
      const applied = { apiVersion: "v1", kind: "Pod", metadata: { name: "patches", namespace: NS }, spec: { serviceAccountName: "builder" } };
      const ssa = await raw(cluster.url, "PATCH", `${path}?fieldManager=test&force=true`, applied, "application/apply-patch+yaml");
      assertInvalid(ssa, "Pod", "patches", ["spec"]);
      const after = await core.readNamespacedPod({ name: "patches", namespace: NS });
      assert.equal(after.metadata?.resourceVersion, before.metadata?.resourceVersion);
    });

    it("adding a container is `spec.containers: Forbidden: pod updates may not add or remove containers`", async () => {
      await runningPod("add-container");
      const r = await rejection(core.patchNamespacedPod(
        { name: "add-container", namespace: NS, body: [{ op: "add", path: "/spec/containers/-", value: { name: "side", image: "busybox" } }] },
        setHeaderOptions("Content-Type", PatchStrategy.JsonPatch),
      ));
      assertInvalid(r, "Pod", "add-container", ["spec.containers"]);
      assert.equal(r.body.message, 'Pod "add-container" is invalid: spec.containers: Forbidden: pod updates may not add or remove containers');
    });

    it("images, labels, annotations, finalizers, new tolerations and a lower activeDeadlineSeconds may change", async () => {
      const current = plain(await runningPod("mutable"));
      current.spec.containers[0].image = "nginx:1.28";
      current.spec.tolerations.push({ key: "spot", operator: "Exists", effect: "NoExecute", tolerationSeconds: 30 });
      current.spec.activeDeadlineSeconds = 300;
      current.metadata.labels.tier = "web";
      current.metadata.annotations = { note: "x" };
      current.metadata.finalizers = ["example.com/keep"];
      const updated = await core.replaceNamespacedPod({ name: "mutable", namespace: NS, body: current });
      assert.equal(updated.spec?.containers[0]?.image, "nginx:1.28");
      // The fixture's toleration, kube-apiserver's two 300 s defaults (not-ready, unreachable) and the new one.
      assert.equal(updated.spec?.tolerations?.length, 4);
      assert.equal(updated.spec?.activeDeadlineSeconds, 300);
      assert.equal(updated.metadata?.labels?.tier, "web");
      await core.patchNamespacedPod(
        { name: "mutable", namespace: NS, body: [{ op: "remove", path: "/metadata/finalizers" }] },
        setHeaderOptions("Content-Type", PatchStrategy.JsonPatch),
      );
    });

    it("tolerations may only be added, activeDeadlineSeconds only lowered, scheduling gates only removed", async () => {
      await runningPod("limits");
      const jsonPatch = (ops: unknown[]) => raw(cluster.url, "PATCH", `/api/v1/namespaces/${NS}/pods/limits`, ops, "application/json-patch+json");
      const removed = await jsonPatch([{ op: "remove", path: "/spec/tolerations/0" }]);
      assertInvalid(removed, "Pod", "limits", ["spec.tolerations"]);
      assert.equal(removed.body.details.causes[0].message, "Forbidden: existing toleration can not be modified except its tolerationSeconds");
      const raised = await jsonPatch([{ op: "replace", path: "/spec/activeDeadlineSeconds", value: 900 }]);
      assertInvalid(raised, "Pod", "limits", ["spec.activeDeadlineSeconds"]);
      assert.equal(raised.body.details.causes[0].message, "Invalid value: 900: must be less than or equal to previous value");
      const unset = await jsonPatch([{ op: "remove", path: "/spec/activeDeadlineSeconds" }]);
      assertInvalid(unset, "Pod", "limits", ["spec.activeDeadlineSeconds"]);
      assert.equal(unset.body.details.causes[0].message, 'Invalid value: "null": must not update from a positive integer to nil value');
      const gate = await jsonPatch([{ op: "add", path: "/spec/schedulingGates", value: [{ name: "example.com/wait" }] }]);
      assertInvalid(gate, "Pod", "limits", ["spec.schedulingGates[0].name"]);
      assert.equal(gate.body.details.causes[0].message, "Forbidden: only deletion is allowed, but found new scheduling gate 'example.com/wait'");
    });

    it("sending a default kube-apiserver would have stored (dnsPolicy, imagePullPolicy…) is no change", async () => {
      await runningPod("defaults");
      const current = plain(await core.readNamespacedPod({ name: "defaults", namespace: NS }));
      current.spec.dnsPolicy = "ClusterFirst";
      current.spec.terminationGracePeriodSeconds = 30;
      current.spec.hostNetwork = false;
      current.spec.containers[0].imagePullPolicy = "IfNotPresent";
      current.spec.containers[0].terminationMessagePath = "/dev/termination-log";
      await core.replaceNamespacedPod({ name: "defaults", namespace: NS, body: current });
      current.spec.containers[0].imagePullPolicy = "Always";
      delete current.metadata.resourceVersion;
      const r = await rejection(core.replaceNamespacedPod({ name: "defaults", namespace: NS, body: current }));
      assertInvalid(r, "Pod", "defaults", ["spec"]);
    });

    it("status writes through /status are not subject to the spec rules", async () => {
      const current = plain(await runningPod("status-only"));
      current.status.message = "checked";
      const updated = await core.replaceNamespacedPodStatus({ name: "status-only", namespace: NS, body: current });
      assert.equal(updated.status?.message, "checked");
    });
  });

  describe("Service", () => {
    const service = (name: string, port: number, clusterIP?: string) => ({
      apiVersion: "v1",
      kind: "Service",
      metadata: { name, namespace: NS },
      spec: { selector: { app: name }, ports: [{ port, targetPort: 8080 }], ...(clusterIP ? { clusterIP } : {}) },
    });

    it("a PUT or apply without clusterIP keeps the allocated one; a different clusterIP is 422", async () => {
      const created = await core.createNamespacedService({ namespace: NS, body: service("svc", 80) });
      const ip = created.spec?.clusterIP;
      assert.ok(ip);
      const put = await core.replaceNamespacedService({
        name: "svc",
        namespace: NS,
        body: { ...service("svc", 8080), metadata: { name: "svc", namespace: NS, resourceVersion: created.metadata?.resourceVersion } },
      });
      assert.equal(put.spec?.clusterIP, ip);
      assert.deepEqual(put.spec?.clusterIPs, [ip]);
      assert.equal(put.spec?.ports?.[0]?.port, 8080);

      // The same port: an apply adding a second unnamed port would be invalid (ports need names then).
      const applied = await objects.patch(service("svc", 8080) as KubernetesObject, undefined, undefined, "test", true, PatchStrategy.ServerSideApply);
      assert.equal(plain(applied).spec.clusterIP, ip);

      const moved = await rejection(core.replaceNamespacedService({ name: "svc", namespace: NS, body: service("svc", 9090, "10.96.200.200") }));
      assertInvalid(moved, "Service", "svc", ["spec.clusterIPs[0]"]);
      assert.equal(moved.body.message, 'Service "svc" is invalid: spec.clusterIPs[0]: Invalid value: "10.96.200.200": may not change once set');
      const stored = await core.readNamespacedService({ name: "svc", namespace: NS });
      assert.equal(stored.spec?.clusterIP, ip);
    });

    it("turning into an ExternalName releases the IPs; turning back allocates new ones", async () => {
      await core.createNamespacedService({ namespace: NS, body: service("ext", 80) });
      const path = `/api/v1/namespaces/${NS}/services/ext`;
      const external = await raw(cluster.url, "PATCH", path, { spec: { type: "ExternalName", externalName: "db.example.com" } }, "application/merge-patch+json");
      assert.equal(external.code, 200, external.text);
      assert.equal(external.body.spec.clusterIP, undefined);
      assert.equal(external.body.spec.clusterIPs, undefined);
      const back = await raw(cluster.url, "PATCH", path, { spec: { type: "ClusterIP", externalName: null } }, "application/merge-patch+json");
      assert.equal(back.code, 200, back.text);
      assert.match(back.body.spec.clusterIP, /^10\.96\./);
      assert.deepEqual(back.body.spec.clusterIPs, [back.body.spec.clusterIP]);
    });

    it("a headless Service stays headless when a PUT leaves clusterIP out", async () => {
      await core.createNamespacedService({ namespace: NS, body: service("headless", 80, "None") });
      const put = await core.replaceNamespacedService({ name: "headless", namespace: NS, body: service("headless", 81) });
      assert.equal(put.spec?.clusterIP, "None");
      const r = await rejection(core.replaceNamespacedService({ name: "headless", namespace: NS, body: service("headless", 81, "10.96.250.1") }));
      assertInvalid(r, "Service", "headless", ["spec.clusterIPs[0]"]);
    });
  });

  describe("apps/v1 workloads", () => {
    const labels = { app: "web" };
    const template = (image: string) => ({ metadata: { labels }, spec: { containers: [{ name: "web", image }] } });

    it("a Deployment's selector is immutable; its template is not", async () => {
      await apps.createNamespacedDeployment({ namespace: NS, body: { metadata: { name: "web" }, spec: { selector: { matchLabels: labels }, template: template("nginx:1") } } });
      const patched = await apps.patchNamespacedDeployment(
        { name: "web", namespace: NS, body: { spec: { template: { spec: { containers: [{ name: "web", image: "nginx:2" }] } } } } },
        setHeaderOptions("Content-Type", PatchStrategy.StrategicMergePatch),
      );
      assert.equal(patched.spec?.template.spec?.containers[0]?.image, "nginx:2");
      const r = await rejection(apps.patchNamespacedDeployment(
        { name: "web", namespace: NS, body: { spec: { selector: { matchLabels: { app: "web", tier: "x" } }, template: { metadata: { labels: { tier: "x" } } } } } },
        setHeaderOptions("Content-Type", PatchStrategy.StrategicMergePatch),
      ));
      assertInvalid(r, "Deployment", "web", ["spec.selector"]);
      assert.equal(
        r.body.message,
        'Deployment.apps "web" is invalid: spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"web", "tier":"x"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
      );
      const stored = await apps.readNamespacedDeployment({ name: "web", namespace: NS });
      assert.deepEqual(plain(stored.spec?.selector), { matchLabels: labels });
    });

    it("a ReplicaSet's selector is immutable", async () => {
      await apps.createNamespacedReplicaSet({ namespace: NS, body: { metadata: { name: "rs" }, spec: { replicas: 0, selector: { matchLabels: labels }, template: template("nginx:1") } } });
      const r = await raw(cluster.url, "PATCH", `/apis/apps/v1/namespaces/${NS}/replicasets/rs`, { spec: { selector: { matchLabels: null, matchExpressions: [{ key: "app", operator: "In", values: ["web"] }] } } }, "application/merge-patch+json");
      assertInvalid(r, "ReplicaSet", "rs", ["spec.selector"]);
      assert.match(r.body.message, /MatchExpressions:\[\]v1.LabelSelectorRequirement\{v1.LabelSelectorRequirement\{Key:"app", Operator:"In", Values:\[\]string\{"web"\}\}\}\}: field is immutable$/);
    });

    it("a StatefulSet allows replicas, template, updateStrategy…; anything else is Forbidden on `spec`", async () => {
      await apps.createNamespacedStatefulSet({
        namespace: NS,
        body: { metadata: { name: "db" }, spec: { serviceName: "db", replicas: 0, selector: { matchLabels: labels }, template: template("postgres:16") } },
      });
      const ok = await apps.patchNamespacedStatefulSet(
        { name: "db", namespace: NS, body: { spec: { replicas: 0, minReadySeconds: 5, template: { spec: { containers: [{ name: "web", image: "postgres:17" }] } } } } },
        setHeaderOptions("Content-Type", PatchStrategy.StrategicMergePatch),
      );
      assert.equal(ok.spec?.minReadySeconds, 5);
      const r = await rejection(apps.patchNamespacedStatefulSet(
        { name: "db", namespace: NS, body: { spec: { serviceName: "other" } } },
        setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
      ));
      assertInvalid(r, "StatefulSet", "db", ["spec"]);
      assert.equal(
        r.body.message,
        "StatefulSet.apps \"db\" is invalid: spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
      );
      assert.equal((await apps.readNamespacedStatefulSet({ name: "db", namespace: NS })).spec?.serviceName, "db");
      const merge = (body: unknown) => raw(cluster.url, "PATCH", `/apis/apps/v1/namespaces/${NS}/statefulsets/db`, body, "application/merge-patch+json");
      const history = await merge({ spec: { revisionHistoryLimit: 3 } });
      assert.equal(history.code, 200, "revisionHistoryLimit may change (v1.36)");
      assertInvalid(await merge({ spec: { podManagementPolicy: "Parallel" } }), "StatefulSet", "db", ["spec"]);
    });
  });

  describe("PersistentVolumeClaim", () => {
    it("a bound claim may grow, not shrink; other spec fields are immutable", async () => {
      await core.createNamespacedPersistentVolumeClaim({
        namespace: NS,
        body: { metadata: { name: "data" }, spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } } },
      });
      const bound = await waitFor(async () => {
        const c = await core.readNamespacedPersistentVolumeClaim({ name: "data", namespace: NS });
        return c.status?.phase === "Bound" ? c : undefined;
      }, "claim data Bound");
      assert.ok(bound.spec?.volumeName, "binding set spec.volumeName once");
      const path = `/api/v1/namespaces/${NS}/persistentvolumeclaims/data`;
      const merge = (body: unknown) => raw(cluster.url, "PATCH", path, body, "application/merge-patch+json");

      const grown = await merge({ spec: { resources: { requests: { storage: "2Gi" } } } });
      assert.equal(grown.code, 200, grown.text);
      assert.equal(grown.body.spec.resources.requests.storage, "2Gi");

      const shrunk = await merge({ spec: { resources: { requests: { storage: "512Mi" } } } });
      assertInvalid(shrunk, "PersistentVolumeClaim", "data", ["spec.resources.requests.storage"]);
      assert.equal(shrunk.body.details.causes[0].message, "Forbidden: field can not be less than status.capacity");

      const modes = await merge({ spec: { accessModes: ["ReadWriteMany"] } });
      assertInvalid(modes, "PersistentVolumeClaim", "data", ["spec"]);
      assert.ok(
        modes.body.message.startsWith('PersistentVolumeClaim "data" is invalid: spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n'),
        modes.body.message,
      );
      const rebind = await merge({ spec: { volumeName: "another" } });
      assertInvalid(rebind, "PersistentVolumeClaim", "data", ["spec"]);

      const stored = await core.readNamespacedPersistentVolumeClaim({ name: "data", namespace: NS });
      assert.equal(stored.spec?.resources?.requests?.storage, "2Gi");
      assert.deepEqual(stored.spec?.accessModes, ["ReadWriteOnce"]);
      assert.equal(stored.spec?.volumeName, bound.spec?.volumeName);
    });

    it("an equal amount in other units is no change", async () => {
      await core.createNamespacedPersistentVolumeClaim({
        namespace: NS,
        body: { metadata: { name: "units" }, spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } } },
      });
      const r = await raw(cluster.url, "PATCH", `/api/v1/namespaces/${NS}/persistentvolumeclaims/units`, { spec: { resources: { requests: { storage: "1024Mi" } } } }, "application/merge-patch+json");
      assert.equal(r.code, 200, r.text);
    });

    it("a claim without a storage class may be given one, once", async () => {
      const path = `/api/v1/namespaces/${NS}/persistentvolumeclaims/units`;
      const classed = await raw(cluster.url, "PATCH", path, { spec: { storageClassName: "standard" } }, "application/merge-patch+json");
      assert.equal(classed.code, 200, classed.text);
      const reclassed = await raw(cluster.url, "PATCH", path, { spec: { storageClassName: "fast" } }, "application/merge-patch+json");
      assertInvalid(reclassed, "PersistentVolumeClaim", "units", ["spec"]);
    });
  });

  describe("ConfigMap and Secret marked immutable", () => {
    it("data and the flag are frozen, metadata is not", async () => {
      await core.createNamespacedConfigMap({ namespace: NS, body: { metadata: { name: "frozen" }, data: { a: "1" }, immutable: true } });
      const path = `/api/v1/namespaces/${NS}/configmaps/frozen`;
      const merge = (body: unknown) => raw(cluster.url, "PATCH", path, body, "application/merge-patch+json");
      const data = await merge({ data: { a: "2" }, binaryData: { b: "AA==" } });
      assertInvalid(data, "ConfigMap", "frozen", ["data", "binaryData"]);
      assert.equal(data.body.details.causes[0].message, "Forbidden: field is immutable when `immutable` is set");
      const flag = await merge({ immutable: false });
      assertInvalid(flag, "ConfigMap", "frozen", ["immutable"]);
      const labelled = await merge({ metadata: { labels: { team: "a" } } });
      assert.equal(labelled.code, 200, labelled.text);
      assert.deepEqual((await core.readNamespacedConfigMap({ name: "frozen", namespace: NS })).data, { a: "1" });
    });

    it("a Secret's stringData counts as data, and its type never changes", async () => {
      await core.createNamespacedSecret({ namespace: NS, body: { metadata: { name: "sealed" }, stringData: { k: "v" }, immutable: true } });
      const path = `/api/v1/namespaces/${NS}/secrets/sealed`;
      const r = await raw(cluster.url, "PATCH", path, { stringData: { k: "w" } }, "application/merge-patch+json");
      assertInvalid(r, "Secret", "sealed", ["data"]);
      const same = await raw(cluster.url, "PATCH", path, { stringData: { k: "v" } }, "application/merge-patch+json");
      assert.equal(same.code, 200, same.text);
      await core.createNamespacedSecret({ namespace: NS, body: { metadata: { name: "typed" }, type: "Opaque", data: {} } });
      const typed = await raw(cluster.url, "PATCH", `/api/v1/namespaces/${NS}/secrets/typed`, { type: "kubernetes.io/tls" }, "application/merge-patch+json");
      // kube-apiserver checks immutability first, then validates the new Secret (a TLS Secret needs its keys).
      assertInvalid(typed, "Secret", "typed", ["type", "data[tls.crt]", "data[tls.key]"]);
      assert.equal(typed.body.details.causes[0].message, 'Invalid value: "kubernetes.io/tls": field is immutable');
    });
  });

  describe("through kubectl", {
    skip: KUBECTL ? false : "no kubectl binary on PATH; install kubectl (or set KUBECTL) to run these tests",
  }, () => {
    let files: string;
    let cacheDir: string;
    beforeEach(async () => {
      files = await mkdtemp(path.join(tmpdir(), "immutable-files-"));
      cacheDir = await mkdtemp(path.join(tmpdir(), "immutable-cache-"));
    });
    afterEach(async () => {
      await rm(files, { recursive: true, force: true });
      await rm(cacheDir, { recursive: true, force: true });
    });

    /** Runs kubectl: `{ ok, stdout, stderr }`, never throws for a non-zero exit. */
    async function kubectl(...args: string[]): Promise<{ ok: boolean; stdout: string; stderr: string }> {
      try {
        const { stdout, stderr } = await execFileP(KUBECTL!, ["--kubeconfig", cluster.kubeconfigPath, "--cache-dir", cacheDir, ...args], {
          timeout: 30_000,
          killSignal: "SIGKILL",
        });
        return { ok: true, stdout, stderr };
      } catch (e) {
        const err = e as { stdout?: string; stderr?: string; killed?: boolean };
        if (err.killed) throw new Error(`kubectl ${args.join(" ")} was killed after 30 s`);
        return { ok: false, stdout: err.stdout ?? "", stderr: err.stderr ?? "" };
      }
    }

    async function applyFile(name: string, yaml: string, ...flags: string[]) {
      const file = path.join(files, name);
      await writeFile(file, yaml);
      return kubectl("apply", "-f", file, ...flags);
    }

    const podYaml = (command: string) => `apiVersion: v1
kind: Pod
metadata:
  name: kc-pod
  namespace: ${NS}
spec:
  containers:
  - name: main
    image: nginx:1.27
    command: ["${command}"]
`;

    it("`set image` and `label` succeed; `patch` and `apply` changing the command fail with the Pod message", async () => {
      const created = await applyFile("pod.yaml", podYaml("nginx"));
      assert.ok(created.ok, created.stderr);
      await waitFor(async () => (await core.readNamespacedPod({ name: "kc-pod", namespace: NS })).spec?.nodeName, "kc-pod bound");

      const setImage = await kubectl("set", "image", "pod/kc-pod", "main=nginx:1.28", "-n", NS);
      assert.ok(setImage.ok, setImage.stderr);
      const label = await kubectl("label", "pod", "kc-pod", "tier=web", "-n", NS);
      assert.ok(label.ok, label.stderr);
      const before = await core.readNamespacedPod({ name: "kc-pod", namespace: NS });
      assert.equal(before.spec?.containers[0]?.image, "nginx:1.28");
      assert.equal(before.metadata?.labels?.tier, "web");

      const patch = await kubectl("patch", "pod", "kc-pod", "-n", NS, "-p", '{"spec":{"containers":[{"name":"main","command":["sleep"]}]}}');
      assert.equal(patch.ok, false);
      assert.match(patch.stderr, /The Pod "kc-pod" is invalid: spec: Forbidden: pod updates may not change fields other than `spec.containers\[\*\].image`/);

      const clientSide = await applyFile("pod2.yaml", podYaml("sleep"));
      assert.equal(clientSide.ok, false);
      assert.match(clientSide.stderr, /The Pod "kc-pod" is invalid: spec: Forbidden: pod updates may not change fields other than/);
      const serverSide = await applyFile("pod3.yaml", podYaml("sleep"), "--server-side", "--force-conflicts");
      assert.equal(serverSide.ok, false);
      assert.match(serverSide.stderr, /spec: Forbidden: pod updates may not change fields other than/);

      const after = await core.readNamespacedPod({ name: "kc-pod", namespace: NS });
      assert.equal(after.metadata?.resourceVersion, before.metadata?.resourceVersion);
    });

    it("`apply` of a Service manifest without clusterIP can change its ports", async () => {
      const svc = (port: number) => `apiVersion: v1
kind: Service
metadata:
  name: kc-svc
  namespace: ${NS}
spec:
  selector: {app: kc}
  ports:
  - port: ${port}
`;
      assert.ok((await applyFile("svc.yaml", svc(80))).ok);
      const ip = (await core.readNamespacedService({ name: "kc-svc", namespace: NS })).spec?.clusterIP;
      const changed = await applyFile("svc2.yaml", svc(81));
      assert.ok(changed.ok, changed.stderr);
      const replaced = await kubectl("replace", "-f", path.join(files, "svc.yaml"));
      assert.ok(replaced.ok, replaced.stderr);
      const stored = await core.readNamespacedService({ name: "kc-svc", namespace: NS });
      assert.equal(stored.spec?.clusterIP, ip);
      assert.equal(stored.spec?.ports?.[0]?.port, 80);
    });
  });
});
