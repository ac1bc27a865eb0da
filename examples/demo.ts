/**
 * `npm run demo`: every example operator in one Manager, on a LocalCluster with workload
 * simulation. It installs the CRDs, applies each example's samples, waits until each has
 * converged, and prints what was created, the events and the statuses; then it walks through
 * changes (a Pinot node's config → only that workload rolls; a Person deleted → the family
 * greeting updated; a processing element's pod killed → relaunched; a PodSet scaled; a bad
 * Greeting refused by the CRD's CEL rule; a PodSet written as v1alpha1 converted by the
 * operator's conversion webhook) and prints
 * the kubectl command to look around. It keeps running until Ctrl-C.
 *
 * `--once` exits after the walkthrough (the tests run it so).
 */
import { mkdir } from "node:fs/promises";
import { createServer } from "node:net";
import { resolve } from "node:path";
import type { EventsV1Event } from "@kubernetes/client-node";
import { ApiError } from "../src/index.ts";
import { kindFromModel } from "../src/entries/client.ts";
import type { Kind, KubeObject } from "../src/index.ts";
import { ProcessingElement, Job } from "./streams/operator.ts";
import { Pinot, nodeConfigPatch } from "./pinot/operator.ts";
import { PodSet } from "./replicaset/operator.ts";
import { Greeting, Person } from "./greeting/kinds.ts";
import { DEMO_CONVERGED, DEMO_EXAMPLES as EXAMPLES, DEMO_NAMESPACE as NS, applyDemoSamples, startDemoManager } from "./demo-manager.ts";

const once = process.argv.includes("--once");

/** `--dashboard-port N`; else 8089 when free, else a free port (0). */
async function pickDashboardPort(): Promise<number> {
  const i = process.argv.indexOf("--dashboard-port");
  if (i >= 0) {
    const port = Number(process.argv[i + 1]);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--dashboard-port: give a port from 0 to 65535 (0 picks a free one), not ${JSON.stringify(process.argv[i + 1])}`);
    return port;
  }
  if (once) return 0;
  const server = createServer();
  const free = await new Promise<boolean>((resolve) => {
    server.once("error", () => resolve(false));
    server.listen(8089, "127.0.0.1", () => resolve(true));
  });
  if (free) await new Promise((resolve) => server.close(resolve));
  return free ? 8089 : 0;
}
const Event = kindFromModel<EventsV1Event>({ apiVersion: "events.k8s.io/v1", kind: "Event" });
const kind = (apiVersion: string, k: string): Kind<KubeObject> => ({ apiVersion, kind: k });
const CHILD_KINDS = [
  kind("v1", "ConfigMap"), kind("v1", "Service"), kind("apps/v1", "StatefulSet"), kind("apps/v1", "Deployment"),
  kind("v1", "PersistentVolumeClaim"), kind("v1", "Pod"),
];

await mkdir(".tmp", { recursive: true });
// The dev dashboard (read-only, on this machine only): what each operator owns, what it is
// doing and why each reconcile happened. Port 8089 unless taken (or --dashboard-port N).
const { cluster, client, mgr, stop } = await startDemoManager({ dashboardPort: await pickDashboardPort(), kubeconfigPath: resolve(".tmp/demo-kubeconfig") });

try {
  console.log(`LocalCluster is up at ${cluster.url} (workload simulation on)`);
  console.log(`One Manager runs ${EXAMPLES.length} example operators:`);
  for (const e of EXAMPLES) console.log(`  ${e.name.padEnd(10)} ${e.description}`);
  console.log(`Webhooks served at ${mgr.webhookServer?.url}: the Greeting validating webhook, the PodSet conversion (v1alpha1 ⇄ v1)`);
  console.log(`Dashboard: ${mgr.dashboardUrl} (open it in a browser: owners, reconcile timeline with triggers, queues, events, plans)`);

  section("Applying the samples");
  await applyDemoSamples(client, (e, obj) => console.log(`  ${e.name.padEnd(10)} applied ${obj.kind}/${obj.metadata?.namespace}/${obj.metadata?.name}`));

  section("Waiting for every operator to converge");
  for (const { what, check } of DEMO_CONVERGED) await until(what, async () => check(client));
  console.log("  all converged");

  section("What the operators created (namespace default)");
  for (const k of CHILD_KINDS) {
    const items = (await client.listAll(k, { namespace: NS })).items;
    if (items.length === 0) continue;
    console.log(`  ${k.kind} (${items.length})`);
    for (const o of items) {
      const owner = o.metadata?.ownerReferences?.find((r) => r.controller)?.name;
      console.log(`    ${o.metadata!.name!.padEnd(44)} ${owner ? `owned by ${owner}` : ""}`);
    }
  }

  section("Statuses");
  for (const g of (await client.list(Greeting, { namespace: NS })).items) {
    const ready = g.status?.conditions?.find((c) => c.type === "Ready");
    console.log(`  Greeting/${g.metadata!.name}: ${JSON.stringify(g.status?.message ?? "")}${ready ? ` Ready=${ready.status}${ready.status === "True" ? "" : ` (${ready.reason})`}` : ""}`);
  }
  for (const j of (await client.list(Job, { namespace: NS })).items) {
    console.log(`  Job/${j.metadata!.name}: ${j.status?.phase}, ${j.status?.processingElements?.length ?? 0} processing elements`);
  }
  for (const pe of (await client.list(ProcessingElement, { namespace: NS })).items) {
    console.log(`    ProcessingElement/${pe.metadata!.name}: ${pe.status?.phase}, launches ${pe.status?.launchCount ?? 0}`);
  }
  for (const p of (await client.list(Pinot, { namespace: NS })).items) console.log(`  Pinot/${p.metadata!.name}: ${p.status?.phase}`);
  for (const s of (await client.list(PodSet, { namespace: NS })).items) console.log(`  PodSet/${s.metadata!.name}: ${s.status?.message}`);

  section("Events so far");
  await printEvents(new Set());

  section("Walkthrough");
  const seen = new Set((await client.listAll(Event, { namespace: NS })).items.map((e) => e.metadata!.uid!));

  // 1. A config change rolls only the workload that uses it.
  const simple = (await client.list(Pinot, { namespace: NS })).items[0]!;
  const before = await workloadGenerations();
  console.log(`\n1. Pinot ${simple.metadata!.name}: change the broker's config (pinot.broker.timeoutMs=30000)`);
  await client.patch({ ...Pinot, name: simple.metadata!.name!, namespace: NS },
    nodeConfigPatch(simple, "broker", "pinot.broker.client.queryPort=8099\npinot.broker.timeoutMs=30000"), "json");
  const rolled = await until("the broker workload to roll", async () => {
    const after = await workloadGenerations();
    const changed = [...after].filter(([name, gen]) => before.get(name) !== gen).map(([name]) => name);
    return changed.length > 0 && changed;
  });
  await until("the Pinot cluster to be Ready again", async () => (await client.get({ ...Pinot, name: simple.metadata!.name!, namespace: NS })).status?.phase === "Ready");
  console.log(`   rolled: ${rolled.join(", ")}; ${before.size - rolled.length} other workload(s) untouched`);

  // 2. A Person deleted: the family greeting drops them, then the finalizer lets them go.
  const family = (await client.list(Greeting, { namespace: NS })).items.find((g) => g.spec.surname);
  const people = (await client.list(Person, { namespace: NS })).items.filter((p) => p.spec.surname === family?.spec.surname);
  if (family && people.length > 1) {
    const leaving = people.sort((a, b) => a.spec.firstName.localeCompare(b.spec.firstName)).at(-1)!;
    console.log(`\n2. Delete Person/${leaving.metadata!.name} (${leaving.spec.firstName} ${leaving.spec.surname})`);
    console.log(`   before: ${JSON.stringify(family.status?.message)}`);
    await client.delete({ ...Person, name: leaving.metadata!.name!, namespace: NS });
    const updated = await until("the greeting to drop them", async () => {
      const g = await client.get({ ...Greeting, name: family.metadata!.name!, namespace: NS });
      return !g.status?.people?.includes(leaving.metadata!.name!) && g;
    });
    await until("the Person to be gone", async () => !(await client.list(Person, { namespace: NS })).items.some((p) => p.metadata!.uid === leaving.metadata!.uid));
    console.log(`   after:  ${JSON.stringify(updated.status?.message)}; the Person is gone once no greeting refers to it`);
  }

  // 3. A processing element's pod killed: the PE relaunches it and counts the launch.
  const pe = (await client.list(ProcessingElement, { namespace: NS })).items.find((p) => p.metadata!.name!.includes("work"))!;
  console.log(`\n3. Kill the pod of ProcessingElement/${pe.metadata!.name} (launches: ${pe.status?.launchCount})`);
  await client.delete({ ...kind("v1", "Pod"), name: pe.metadata!.name!, namespace: NS });
  const relaunched = await until("the PE to relaunch its pod", async () => {
    const now = await client.get({ ...ProcessingElement, name: pe.metadata!.name!, namespace: NS });
    return (now.status?.launchCount ?? 0) > (pe.status?.launchCount ?? 0) && now.status?.phase === "Running" && now;
  });
  console.log(`   relaunched: launches ${relaunched.status?.launchCount}, phase ${relaunched.status?.phase}`);

  // 4. A PodSet scaled out.
  const web = (await client.list(PodSet, { namespace: NS })).items[0]!;
  console.log(`\n4. Scale PodSet/${web.metadata!.name} from ${web.spec.replicas} to 5`);
  await client.patch({ ...PodSet, name: web.metadata!.name!, namespace: NS }, { spec: { replicas: 5 } }, "merge");
  const scaled = await until("the PodSet to have 5 ready pods", async () => {
    const s = await client.get({ ...PodSet, name: web.metadata!.name!, namespace: NS });
    return s.status?.readyReplicas === 5 && s;
  });
  console.log(`   ${scaled.status?.message}`);

  // 5. A bad Greeting refused by the API server: the CRD's CEL rule (the webhook would say the same).
  console.log(`\n5. Create a Greeting with both spec.name and spec.surname`);
  try {
    await client.create({ ...Greeting, metadata: { name: "both", namespace: NS }, spec: { name: "Ada", surname: "Doe" } });
    throw new Error("the API server accepted a Greeting with both name and surname");
  } catch (err) {
    if (!(err instanceof ApiError) || err.code !== 422) throw err;
    console.log(`   refused (${err.code}): ${err.status.message}`);
  }

  // 6. A PodSet written in the old version: the conversion webhook renames spec.size to spec.replicas.
  const PodSetV1alpha1 = kind("replicaset.example.com/v1alpha1", "PodSet");
  console.log(`\n6. Create PodSet/legacy as replicaset.example.com/v1alpha1 with spec.size: 2`);
  await client.create({ ...PodSetV1alpha1, metadata: { name: "legacy", namespace: NS }, spec: { size: 2, template: web.spec.template } });
  const legacy = await until("the legacy PodSet to have 2 ready pods", async () => {
    const s = await client.get({ ...PodSet, name: "legacy", namespace: NS });
    return s.status?.readyReplicas === 2 && s;
  });
  const asOld = await client.get({ ...PodSetV1alpha1, name: "legacy", namespace: NS });
  console.log(`   read as v1: spec.replicas ${legacy.spec.replicas}; as v1alpha1: spec.size ${(asOld["spec"] as { size?: number }).size}; ${legacy.status?.message}`);

  section("Events of the walkthrough");
  await printEvents(seen);

  console.log(`\nWatch them live: ${mgr.dashboardUrl}`);
  console.log(`\nLook around (the operators keep running):\n  kubectl --kubeconfig ${cluster.kubeconfigPath} get greetings,people,jobs.streams.example.com,pe,pinots,podsets,pods`);
} catch (err) {
  console.error(`\nThe demo failed: ${(err as Error).message}`);
  await stop();
  process.exit(1);
}

if (once) {
  await stop();
} else {
  console.log("\nCtrl-C stops the operators and the cluster.");
  const onSignal = () => void stop().then(() => process.exit(0));
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
}

function section(title: string): void {
  console.log(`\n== ${title}`);
}

/** Polls `check` (every 50 ms) until it returns a truthy value; fails after 30 s naming `what`. */
async function until<T>(what: string, check: () => Promise<T | false | undefined>): Promise<NonNullable<T>> {
  const deadline = performance.now() + 30_000;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (performance.now() > deadline) throw new Error(`timed out after 30 s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Generation of every StatefulSet and Deployment, by kind/name. */
async function workloadGenerations(): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const k of [kind("apps/v1", "StatefulSet"), kind("apps/v1", "Deployment")]) {
    for (const o of (await client.listAll(k, { namespace: NS })).items) out.set(`${k.kind}/${o.metadata!.name}`, o.metadata!.generation ?? 0);
  }
  return out;
}

/** Prints the events not in `seen` (oldest first), one line each, and adds them to it. */
async function printEvents(seen: Set<string>): Promise<void> {
  const events = (await client.listAll(Event, { namespace: NS })).items
    .filter((e) => !seen.has(e.metadata!.uid!))
    .sort((a, b) => String(a.eventTime ?? a.deprecatedLastTimestamp ?? "").localeCompare(String(b.eventTime ?? b.deprecatedLastTimestamp ?? "")));
  for (const e of events) {
    seen.add(e.metadata!.uid!);
    const regarding = `${e.regarding?.kind}/${e.regarding?.name}`;
    console.log(`  ${(e.type ?? "").padEnd(7)} ${(e.reason ?? "").padEnd(12)} ${regarding.padEnd(36)} ${e.note ?? ""}`);
  }
}
