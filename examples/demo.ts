/**
 * `npm run demo`: starts LocalCluster (with workload simulation), installs the DataApp CRD,
 * creates a DataApp and reconciles it with the Builder three times — first (creates), again
 * (nothing to do: zero writes), after a config change (the ConfigMap and the StatefulSet that
 * mounts it, so its pods roll) — printing each result, the events, and a kubectl line to try.
 *
 * Keeps the cluster up until Ctrl-C; `--once` exits after printing (used by the tests).
 */
import { mkdir } from "node:fs/promises";
import { resolve } from "node:path";
import { LocalCluster } from "../src/testing/index.ts";
import type { EventsV1Event } from "@kubernetes/client-node";
import { EventRecorder, ResourceClient, clientEventSink, kindFromModel } from "../src/index.ts";
import type { ReconcileResult } from "../src/index.ts";
import { DataApp, dataAppCrd, reconcileDataApp } from "./dataapp/dataapp.ts";

const Event = kindFromModel<EventsV1Event>({ apiVersion: "events.k8s.io/v1", kind: "Event" });

const once = process.argv.includes("--once");
await mkdir(".tmp", { recursive: true });
const cluster = await LocalCluster.start({ simulate: { readyDelayMs: 100 }, kubeconfigPath: resolve(".tmp/demo-kubeconfig") });
const client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "dataapp-operator" });
const recorder = new EventRecorder({ sink: clientEventSink(client), controller: "example.com/dataapp-operator" });
console.log(`LocalCluster is up at ${cluster.url}\n`);

await client.create(dataAppCrd);
await client.create({ apiVersion: "v1", kind: "Namespace", metadata: { name: "demo" } });
const spec = { image: "example/dataapp:1.0", replicas: 2, config: { "app.properties": "threads=4" }, scratch: "1Gi" };
let app = await client.create<DataApp>({ apiVersion: "example.com/v1", kind: "DataApp", metadata: { name: "orders", namespace: "demo" }, spec });

const show = (title: string, r: ReconcileResult, writes: number) => {
  console.log(`${title}: ${r.ok ? "ok" : "FAILED"}, ${writes} write request(s)`);
  for (const o of r.objects) console.log(`  ${o.action.padEnd(9)} ${o.kind}/${o.name}${o.reason ? ` (${o.reason})` : ""}`);
  for (const e of r.errors) console.log(`  error: ${e.message}`);
};
const pass = async (title: string) => {
  const before = client.requests.writes({ resource: ["configmaps", "secrets", "statefulsets", "services", "persistentvolumeclaims", "deployments"] });
  const result = await reconcileDataApp(client, app, recorder);
  show(title, result, client.requests.writes({ resource: ["configmaps", "secrets", "statefulsets", "services", "persistentvolumeclaims", "deployments"] }) - before);
  app = await client.get({ ...DataApp, name: "orders", namespace: "demo" });
  console.log("");
};

await pass("1st reconcile (create)");
await pass("2nd reconcile (nothing changed)");
app = await client.patch({ ...DataApp, name: "orders", namespace: "demo" },
  { spec: { config: { "app.properties": "threads=8" } } }, "merge");
await pass("3rd reconcile (config changed: threads=8)");

const events = (await client.listAll(Event, { namespace: "demo" })).items;
console.log("Events on DataApp/orders:");
for (const e of events) console.log(`  ${(e.type ?? "").padEnd(7)} ${(e.reason ?? "").padEnd(8)} ${e.note}`);
console.log(`\nStatus: ${JSON.stringify(app.status)}`);
console.log(`\nTry it yourself:\n  kubectl --kubeconfig ${cluster.kubeconfigPath} -n demo get dataapps,statefulsets,pods,configmaps,services,pvc`);

if (once) {
  await cluster.stop();
} else {
  console.log("\nCtrl-C stops the cluster.");
  const stop = async () => {
    await cluster.stop();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());
}
