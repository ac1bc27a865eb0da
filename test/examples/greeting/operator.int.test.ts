import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { ResourceClient, findCondition, isNotFound } from "../../../src/index.ts";
import type { KubeObject } from "../../../src/index.ts";
import { operator } from "../../../examples/greeting/operator.ts";
import { Greeting, PERSON_FINALIZER, Person } from "../../../examples/greeting/kinds.ts";
import { startLocalOperator } from "../../../examples/greeting/local.ts";
import type { LocalOperator } from "../../../examples/greeting/local.ts";
import { raw, waitFor, within } from "../../support/wait.ts";
import { eventsOn, greeting, idle, person, reconcileAgain } from "./fixtures.ts";

describe("greeting example: the advanced operator", () => {
  let local: LocalOperator;
  let client: ResourceClient;
  /** Lists of People the API server served after the first start (the request log is cleared by some tests; a listener sees all). */
  let peopleLists = 0;
  before(async () => {
    local = await within(startLocalOperator(operator), "the operator to start", 15_000);
    client = new ResourceClient({ kubeConfig: local.cluster.kubeConfig, fieldManager: "greeting-test" });
    local.cluster.requests.onRequest((r) => {
      if (r.verb === "list" && r.resource === "people") peopleLists++;
    });
  });
  after(() => within(local.stop(), "stopping the operator and the cluster", 15_000));

  const greetingOf = (ns: string, name: string) => client.get({ ...Greeting, name, namespace: ns });
  const personOf = (ns: string, name: string) => client.get({ ...Person, name, namespace: ns });
  const gone = (ns: string, name: string) => personOf(ns, name).then(() => false, (err: unknown) => {
    if (isNotFound(err)) return true;
    throw err;
  });
  const until = async (ns: string, name: string, message: string) =>
    waitFor(async () => {
      const g = await greetingOf(ns, name);
      return g.status?.message === message ? g : undefined;
    }, `greeting ${name} to say "${message}"`);
  const namespace = async (name: string) => {
    await client.create({ apiVersion: "v1", kind: "Namespace", metadata: { name } });
    return name;
  };

  it("greets the Doe family sorted by first name, Ready with observedGeneration, and follows changes to People", async () => {
    const ns = await namespace("doe");
    await client.create(person(ns, "johnd", "John", "Doe"));
    await client.create(person(ns, "janed", "Jane", "Doe"));
    await client.create(person(ns, "ricks", "Rick", "Smith"));
    await client.create(greeting(ns, "doe-family", { surname: "Doe" }));
    await client.create(greeting(ns, "hello", { name: "World" }));

    const doe = await until(ns, "doe-family", "Hello to the Doe family: Jane, John");
    assert.deepEqual(doe.status?.people, ["janed", "johnd"]);
    const ready = findCondition(doe.status?.conditions, "Ready");
    assert.equal(ready?.status, "True");
    assert.equal(ready?.observedGeneration, doe.metadata?.generation);
    assert.equal(doe.status?.observedGeneration, doe.metadata?.generation);
    const hello = await until(ns, "hello", "Hello, World");
    assert.equal(hello.status?.people, undefined);
    assert.equal(findCondition(hello.status?.conditions, "Ready")?.status, "True");
    for (const name of ["johnd", "janed"]) assert.deepEqual((await personOf(ns, name)).metadata?.finalizers, [PERSON_FINALIZER], `${name} is greeted`);
    assert.equal((await personOf(ns, "ricks")).metadata?.finalizers, undefined, "nobody greets the Smiths");

    // A new Doe joins; one leaves the family by changing surname.
    await client.create(person(ns, "jimd", "Jim", "Doe"));
    await until(ns, "doe-family", "Hello to the Doe family: Jane, Jim, John");
    await client.patch({ ...Person, name: "johnd", namespace: ns }, { spec: { surname: "Smith" } }, "merge");
    const after = await until(ns, "doe-family", "Hello to the Doe family: Jane, Jim");
    assert.deepEqual(after.status?.people, ["janed", "jimd"]);
    await waitFor(async () => (await personOf(ns, "johnd")).metadata?.finalizers === undefined, "johnd's finalizer to go once nobody greets him");

    // kubectl get greetings: the printer columns.
    const table = await raw(local.cluster.url, "GET", `/apis/greeting.example.com/v1/namespaces/${ns}/greetings/doe-family`, undefined, undefined,
      { Accept: "application/json;as=Table;v=v1;g=meta.k8s.io" });
    const columns = (table.body.columnDefinitions as { name: string }[]).map((c) => c.name);
    assert.deepEqual(columns.slice(0, 3), ["Name", "Message", "Ready"]);
    assert.deepEqual(table.body.rows[0].cells.slice(0, 3), ["doe-family", "Hello to the Doe family: Jane, Jim", "True"]);
    const events = await eventsOn(client, ns, "doe-family");
    assert.ok(events.some((e) => e.type === "Normal" && e.reason === "Greeted" && e.note === "Hello to the Doe family: Jane, Jim"), "a Greeted event per new message");
  });

  it("a greeting with both or neither of name and surname (created before the CRD had its CEL rule) is Ready=False with one Warning event, and is not retried", async () => {
    const ns = await namespace("invalid");
    await client.create(person(ns, "anna", "Anna", "Roe"));
    // The CRD refuses such greetings (test/examples/greeting/webhook.int.test.ts): take its rule
    // away while creating them, as if they predated it, then put it back.
    const crdRef = { apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition", name: "greetings.greeting.example.com" };
    const crd = await client.get(crdRef);
    const specSchema = (c: KubeObject) => (c["spec"] as { versions: { schema: { openAPIV3Schema: { properties: { spec: Record<string, unknown> } } } }[] })
      .versions[0]!.schema.openAPIV3Schema.properties.spec;
    const rules = specSchema(crd)["x-kubernetes-validations"];
    assert.ok(rules, "the installed CRD has the rule");
    delete specSchema(crd)["x-kubernetes-validations"];
    const relaxed = await client.replace(crd);
    await client.create(greeting(ns, "both", { name: "Ada", surname: "Roe" }));
    await client.create(greeting(ns, "neither", {}));
    specSchema(relaxed)["x-kubernetes-validations"] = rules;
    await client.replace(relaxed);
    for (const [name, reason] of [["both", "BothNameAndSurname"], ["neither", "NoNameOrSurname"]] as const) {
      const g = await waitFor(async () => {
        const live = await greetingOf(ns, name);
        return findCondition(live.status?.conditions, "Ready")?.reason === reason ? live : undefined;
      }, `${name} to be Ready=False`);
      const ready = findCondition(g.status?.conditions, "Ready")!;
      assert.equal(ready.status, "False");
      assert.match(ready.message ?? "", /exactly one of spec\.name and spec\.surname/);
      assert.equal(ready.observedGeneration, g.metadata?.generation);
      assert.equal(g.status?.message, undefined);
    }
    await idle(local.mgr);
    local.cluster.requests.clear();
    // Another pass (and a Person of that surname changing) neither writes nor warns again.
    await reconcileAgain(local.mgr, "greeting-greetings", ns, "both");
    await reconcileAgain(local.mgr, "greeting-greetings", ns, "neither");
    await client.patch({ ...Person, name: "anna", namespace: ns }, { spec: { firstName: "Ann" } }, "merge");
    await waitFor(() => local.mgr.cache.informer(Person).get("anna", ns)?.spec.firstName === "Ann", "the cache to see Ann");
    await idle(local.mgr);
    assert.equal(local.cluster.requests.writes({ resource: "greetings/status" }), 0, "no status write while nothing changed");
    assert.equal((await personOf(ns, "anna")).metadata?.finalizers, undefined, "an invalid greeting greets nobody");
    for (const name of ["both", "neither"]) {
      const warnings = (await eventsOn(client, ns, name)).filter((e) => e.type === "Warning");
      assert.equal(warnings.length, 1, `one Warning event on ${name}`);
      assert.equal(warnings[0]!.series, undefined, `and no repeats of it on ${name}`);
    }
    assert.equal((await eventsOn(client, ns, "both"))[0]!.reason, "BothNameAndSurname");

    // Fixing the spec makes it Ready.
    await client.patch({ ...Greeting, name: "both", namespace: ns }, { spec: { name: null } }, "merge");
    const fixed = await until(ns, "both", "Hello to the Roe family: Ann");
    assert.equal(findCondition(fixed.status?.conditions, "Ready")?.status, "True");
  });

  it("a greeted Person cannot be deleted; once deleting it is no longer greeted and its finalizer goes", async () => {
    const ns = await namespace("finalizers");
    await client.create(person(ns, "janed", "Jane", "Doe"));
    await client.create(person(ns, "johnd", "John", "Doe"));
    await client.create(greeting(ns, "doe-family", { surname: "Doe" }));
    await until(ns, "doe-family", "Hello to the Doe family: Jane, John");

    // With the operator stopped, the finalizer alone keeps John while the greeting names him.
    await within(local.restart(async () => {
      await client.delete({ ...Person, name: "johnd", namespace: ns });
      const deleting = await personOf(ns, "johnd");
      assert.ok(deleting.metadata?.deletionTimestamp, "johnd is being deleted");
      assert.deepEqual(deleting.metadata?.finalizers, [PERSON_FINALIZER], "and kept by the finalizer");
      assert.deepEqual((await greetingOf(ns, "doe-family")).status?.people, ["janed", "johnd"]);
    }), "the operator to restart", 15_000);
    const dropped = await until(ns, "doe-family", "Hello to the Doe family: Jane");
    assert.deepEqual(dropped.status?.people, ["janed"]);
    await waitFor(() => gone(ns, "johnd"), "johnd to be gone");

    // Deleting the greeting releases Jane, who stays.
    await client.delete({ ...Greeting, name: "doe-family", namespace: ns });
    await waitFor(async () => (await personOf(ns, "janed")).metadata?.finalizers === undefined, "janed's finalizer to go");
    await client.delete({ ...Person, name: "janed", namespace: ns });
    await waitFor(() => gone(ns, "janed"), "janed to be deleted at once");
  });

  it("a Person kept for a Greeting that never got to greet it is released when that Greeting goes", async () => {
    const ns = await namespace("never-greeted");
    // The operator puts the finalizer on Ann, then cannot write the Greeting's status.
    local.cluster.inject({ verb: "patch", resource: "greetings/status", code: 500, times: 1_000_000 });
    try {
      await client.create(greeting(ns, "roe", { surname: "Roe" }));
      await client.create(person(ns, "ann", "Ann", "Roe"));
      await waitFor(async () => (await personOf(ns, "ann")).metadata?.finalizers?.includes(PERSON_FINALIZER), "the finalizer on ann");
      assert.equal((await greetingOf(ns, "roe")).status, undefined, "the greeting never listed her");
      await client.delete({ ...Greeting, name: "roe", namespace: ns });
    } finally {
      local.cluster.clearFaults();
    }
    await waitFor(async () => (await personOf(ns, "ann")).metadata?.finalizers === undefined, "ann's finalizer to go with the greeting");
  });

  it("reads families from the cache's surname index: no List of People after the caches synced", () => {
    // Every scenario above (dozens of greeting reconciles) ran after the first start; the only
    // list since is the one of the restarted operator's informer.
    assert.equal(peopleLists, 1);
  });
});
