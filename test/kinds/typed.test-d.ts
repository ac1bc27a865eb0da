/**
 * Compile-time checks of the typed kinds: type-checked by `tsc --noEmit` in `npm test`, never
 * run. Each `@ts-expect-error` must stay an error (tsc fails on an unused one), and each
 * `Expect<Equal<…>>` pins an exact type, so a typing regression fails the build.
 */
import type { V1Deployment, V1Job } from "@kubernetes/client-node";
import { Builder, ConfigMap, Deployment, Pod, Action, writeStatus } from "../../src/index.ts";
import { kindFromModel } from "../../src/entries/client.ts";
import type { Cache } from "../../src/entries/cache.ts";
import type { KubeObject, Manager, ResourceClient } from "../../src/index.ts";
import type { ObjectOf, Plain } from "../../src/entries/client.ts";
import { Card, Greeting } from "./fixtures.ts";

type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends (<X>() => X extends B ? 1 : 2) ? true : false;
type Expect<T extends true> = T;

declare const client: ResourceClient;
declare const cache: Cache;
declare const mgr: Manager;
declare const owner: Greeting;
declare const model: V1Deployment;

export async function reads(): Promise<void> {
  const greeting = await client.get({ ...Greeting, name: "hello", namespace: "default" });
  const cached = cache.informer(Greeting).get("hello", "default");
  const deployments = await client.list(Deployment, { namespace: "default" });
  const pods = await cache.list(Pod);
  const untyped = await client.get({ apiVersion: "v1", kind: "ConfigMap", name: "a", namespace: "default" });
  type _ = [
    Expect<Equal<typeof greeting, Greeting>>,
    Expect<Equal<typeof cached, Greeting | undefined>>,
    Expect<Equal<typeof greeting.spec.name, string>>,
    Expect<Equal<typeof greeting.status, { message?: string; observedGeneration?: number } | undefined>>,
    Expect<Equal<typeof deployments.items, Deployment[]>>,
    Expect<Equal<typeof pods, Pod[]>>,
    Expect<Equal<typeof untyped, KubeObject>>,
    // Timestamps are strings, as on the wire, not client-node's Dates.
    Expect<Equal<NonNullable<Deployment["metadata"]>["creationTimestamp"], string | undefined>>,
    Expect<Equal<ObjectOf<typeof Card>["spec"], { text: string }>>,
  ];
  // @ts-expect-error a misspelt field of a read object
  void greeting.spec.nmae;
}

export async function writes(): Promise<void> {
  const applied = await client.apply(model);
  type _ = Expect<Equal<typeof applied, Plain<V1Deployment>>>;
  await client.create<Greeting>({ apiVersion: "example.com/v1", kind: "Greeting", metadata: { name: "a" }, spec: { name: "Ada" } });
  // @ts-expect-error a wrong spec field type on a Greeting
  await client.create<Greeting>({ apiVersion: "example.com/v1", kind: "Greeting", metadata: { name: "a" }, spec: { name: 42 } });
  // @ts-expect-error a Greeting without its required spec field
  await client.create<Greeting>({ apiVersion: "example.com/v1", kind: "Greeting", metadata: { name: "a" }, spec: {} });
  const spread = await client.create({ ...Greeting, metadata: { name: "b", namespace: "default" }, spec: { name: "Bo" } });
  type _spread = Expect<Equal<typeof spread, Greeting>>;
  // @ts-expect-error a misspelt spec field through a spread kind handle
  await client.create({ ...Greeting, metadata: { name: "b" }, spec: { nam: "Bo" } });
  // @ts-expect-error a misspelt top-level field through a spread built-in handle
  await client.apply({ ...ConfigMap, metadata: { name: "c" }, daata: {} });
  // @ts-expect-error a misspelt metadata field, even untyped
  await client.apply({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a", lables: {} } });
}

export function builder(): void {
  const Job = kindFromModel<V1Job>({ apiVersion: "batch/v1", kind: "Job" });
  const b = new Builder({ client, owner, manages: [Card, Job] });
  b.deployment({ metadata: { name: "web" }, spec: { selector: {}, template: {} } });
  b.deployment(model);
  b.object<Card>({ apiVersion: "example.com/v1", kind: "Card", metadata: { name: "c" }, spec: { text: "hi" } });
  // @ts-expect-error a misspelt field on a Deployment literal
  b.deployment({ metadata: { name: "web" }, spec: { replcas: 2, selector: {}, template: {} } });
  // @ts-expect-error a wrong field type on a Deployment literal
  b.deployment({ metadata: { name: "web" }, spec: { replicas: "2", selector: {}, template: {} } });
  // @ts-expect-error a misspelt field in a container of a StatefulSet
  b.statefulSet({ metadata: { name: "db" }, spec: { selector: {}, serviceName: "db", template: { spec: { containers: [{ name: "db", imag: "db:1" }] } } } });
  b.object({ ...Card, metadata: { name: "c2" }, spec: { text: "spread" } });
  // @ts-expect-error a misspelt spec field on a Card given through its spread handle
  b.object({ ...Card, metadata: { name: "c3" }, spec: { txt: "spread" } });
  // @ts-expect-error a wrong spec field type on a Card
  b.object<Card>({ apiVersion: "example.com/v1", kind: "Card", metadata: { name: "c" }, spec: { text: 1 } });
}

export function controller(): void {
  mgr.controller("greeting")
    .for(Greeting, { predicates: [(e) => e.obj.spec.name !== e.oldObj?.spec.name] })
    .owns(Card)
    .watches(Deployment, (d) => [{ namespace: d.metadata?.namespace ?? "", name: d.spec?.template.metadata?.labels?.["greeting"] ?? "" }])
    .reconcile(async (req) => {
      const greeting = mgr.cache.informer(Greeting).get(req.name, req.namespace);
      type _ = Expect<Equal<typeof greeting, Greeting | undefined>>;
      return Action.done();
    });
  // @ts-expect-error a predicate reading a field Greetings do not have
  mgr.controller("bad").for(Greeting, { predicates: [(e) => e.obj.spec.surname === ""] });
}

export async function status(): Promise<void> {
  await writeStatus(client, owner, { message: "Hello, Ada" });
  await writeStatus(client, owner, { message: null }, { conditions: [{ type: "Ready", status: "True", reason: "Greeted" }] });
  // @ts-expect-error a misspelt field of a Greeting's status
  await writeStatus(client, owner, { mesage: "Hello" });
  // @ts-expect-error a wrong type in a Greeting's status
  await writeStatus(client, owner, { message: 42 });
  const untyped: KubeObject = { apiVersion: "v1", kind: "Thing", metadata: { name: "t" } };
  await writeStatus(client, untyped, { anything: { goes: true } });
}
