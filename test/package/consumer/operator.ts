// A consumer's TypeScript operator, type-checked against the installed package's .d.ts
// (module nodenext, strict, skipLibCheck false) and then run: a typed Greeting custom resource,
// a Manager with one controller reading from the shared cache, the Builder making a ConfigMap
// and a Deployment, and the status written back. LocalCluster stands in for the cluster.
import { Builder, ConfigMap, Deployment, Manager, ResourceClient, Action, defineKind, writeStatus } from "operator-runtime";
import type { ObjectOf, BuilderResult } from "operator-runtime";
import { LocalCluster } from "operator-runtime/testing";

/** The Greeting custom resource (example.com/v1), typed. */
const Greeting = defineKind<{ name: string; replicas?: number }, { message?: string; ready?: boolean }>({
  apiVersion: "example.com/v1", kind: "Greeting",
});
type Greeting = ObjectOf<typeof Greeting>;

const cluster = await LocalCluster.start();
const client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "greeting-operator" });
await client.create({
  apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition",
  metadata: { name: "greetings.example.com" },
  spec: {
    group: "example.com", scope: "Namespaced",
    names: { plural: "greetings", singular: "greeting", kind: "Greeting" },
    versions: [{
      name: "v1", served: true, storage: true, subresources: { status: {} },
      schema: { openAPIV3Schema: { type: "object", properties: {
        spec: { type: "object", required: ["name"], properties: { name: { type: "string" }, replicas: { type: "integer" } } },
        status: { type: "object", properties: { message: { type: "string" }, ready: { type: "boolean" } } },
      } } },
    }],
  },
});

const mgr = new Manager({ kubeConfig: cluster.kubeConfig, fieldManager: "greeting-operator", healthPort: false });
let last: BuilderResult | undefined;
mgr.controller("greeting")
  .for(Greeting)
  .owns(ConfigMap)
  .owns(Deployment)
  .reconcile(async (req) => {
    const greeting: Greeting | undefined = mgr.cache.informer(Greeting).get(req.name, req.namespace);
    if (!greeting) return Action.done();
    const message = `Hello, ${greeting.spec.name}`;
    const labels = { app: req.name };
    last = await new Builder({ client: mgr.client, owner: greeting, reader: mgr.cache })
      .configMap({ metadata: { name: `${req.name}-message` }, data: { message } })
      .deployment({
        metadata: { name: req.name },
        spec: {
          replicas: greeting.spec.replicas ?? 1, selector: { matchLabels: labels },
          template: { metadata: { labels }, spec: { containers: [{ name: "greeter", image: "busybox:1.36",
            env: [{ name: "MESSAGE", valueFrom: { configMapKeyRef: { name: `${req.name}-message`, key: "message" } } }] }] } },
        },
      })
      .reconcile();
    await writeStatus(mgr.client, greeting, { message, ready: last.ok });
    return last.ok ? Action.done() : Action.requeue();
  });
await mgr.start();

await client.create<Greeting>({ apiVersion: "example.com/v1", kind: "Greeting", metadata: { name: "world", namespace: "default" }, spec: { name: "World" } });
const deadline = performance.now() + 20_000;
let greeting = await client.get({ ...Greeting, name: "world", namespace: "default" });
while (greeting.status?.message !== "Hello, World") {
  if (performance.now() > deadline) throw new Error(`no status after 20 s: ${JSON.stringify(greeting.status)}`);
  await new Promise((resolve) => setTimeout(resolve, 50));
  greeting = await client.get({ ...Greeting, name: "world", namespace: "default" });
}
const deployment = await client.get({ ...Deployment, name: "world", namespace: "default" });
console.log(JSON.stringify({
  message: greeting.status.message,
  objects: last?.objects.map((o) => `${o.kind}/${o.name}`) ?? [],
  owned: deployment.metadata?.ownerReferences?.[0]?.uid === greeting.metadata?.uid,
}));
await mgr.stop();
await cluster.stop();
