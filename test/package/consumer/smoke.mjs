// A consumer's first program, in plain JavaScript: import the installed package (its built
// dist/), start LocalCluster, reconcile one ConfigMap and one Deployment with the Builder, and
// print what happened as one JSON line for the test to check. It also POSTs the protobuf body
// kubectl 1.32 sends for `kubectl create namespace foo`, read with the .proto files the package ships.
import { Builder, ResourceClient } from "operator-runtime";
import { LocalCluster } from "operator-runtime/testing";
import * as root from "operator-runtime";

// Every subpath entry loads, and a 0.1 root name still works as its deprecated alias.
const entries = {};
for (const sub of ["builder", "client", "cache", "controller", "sharding", "rbac", "webhook"]) entries[sub] = Object.keys(await import(`operator-runtime/${sub}`)).length;
const deprecatedAlias = root.Result === root.Action && typeof root.Result.done === "function";

const cluster = await LocalCluster.start();
try {
  const client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "consumer-smoke" });
  const owner = await client.create({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "owner", namespace: "default" }, data: {} });
  const labels = { app: "web" };
  const reconcile = () => new Builder({ client, owner })
    .configMap({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "web-config" }, data: { greeting: "hello" } })
    .deployment({
      apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "web" },
      spec: {
        replicas: 1, selector: { matchLabels: labels },
        template: { metadata: { labels }, spec: { containers: [{ name: "web", image: "nginx:1.27", envFrom: [{ configMapRef: { name: "web-config" } }] }] } },
      },
    })
    .reconcile();
  const first = await reconcile();
  const second = await reconcile();
  const deployment = await client.get({ apiVersion: "apps/v1", kind: "Deployment", name: "web", namespace: "default" });
  const kubectlNamespaceFoo = Buffer.from(
    "6b3873000a0f0a02763112094e616d657370616365121b0a130a03666f6f12001a0022002a0032003800420012001a020a001a002200", "hex");
  const created = await fetch(`${cluster.url}/api/v1/namespaces`, {
    method: "POST", headers: { "Content-Type": "application/vnd.kubernetes.protobuf", Accept: "application/vnd.kubernetes.protobuf,application/json" },
    body: kubectlNamespaceFoo,
  });
  const namespace = await created.json();
  console.log(JSON.stringify({
    node: process.version,
    entries,
    deprecatedAlias,
    first: first.objects.map((o) => `${o.kind}/${o.name}:${o.action}`),
    second: second.objects.map((o) => `${o.kind}/${o.name}:${o.action}`),
    ok: first.ok && second.ok,
    owner: deployment.metadata.ownerReferences?.[0]?.uid === owner.metadata.uid,
    protobuf: `${created.status} ${namespace.kind}/${namespace.metadata?.name}`,
    hashEnv: deployment.spec.template.spec.containers[0].env?.some((e) => e.name === "CONFIGMAP_WEB_CONFIG_HASH") ?? false,
  }));
} finally {
  await cluster.stop();
}
