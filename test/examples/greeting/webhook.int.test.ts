/**
 * The Greeting rule, "exactly one of name and surname", enforced by the API server two ways:
 * the CRD's CEL rule (crds/greeting.yaml) and the validating webhook (examples/greeting/webhook.ts)
 * served by the operator's Manager. Each is tested alone: the webhook against a copy of the CRD
 * without the rule.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { ApiError, Manager, ResourceClient } from "../../../src/index.ts";
import { silentLogger } from "../../../src/entries/client.ts";
import type { KubeObject } from "../../../src/index.ts";
import { LocalCluster } from "../../../src/testing/index.ts";
import { installCrds } from "../../../examples/example.ts";
import { crds } from "../../../examples/greeting/kinds.ts";
import { operator } from "../../../examples/greeting/operator.ts";
import { registerGreetingWebhook } from "../../../examples/greeting/webhook.ts";
import { raw, waitFor, within } from "../../support/wait.ts";
import { greeting, person } from "./fixtures.ts";

/** The 422 of a refused create: its Status. */
async function refusal(p: Promise<unknown>): Promise<{ code: number; message: string; causes: { reason?: string; field?: string; message?: string }[] }> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof ApiError, `an ApiError, got ${String(err)}`);
    return { code: err.code, message: err.status.message ?? "", causes: err.status.details?.causes ?? [] };
  }
  assert.fail("the create was accepted");
}

/** The Greeting CRD without its CEL rule (as installed before the rule existed). */
function withoutRule(crd: KubeObject): KubeObject {
  const copy = structuredClone(crd);
  const spec = (copy["spec"] as { versions: { schema: { openAPIV3Schema: { properties: { spec: Record<string, unknown> } } } }[] }).versions[0]!
    .schema.openAPIV3Schema.properties.spec;
  delete spec["x-kubernetes-validations"];
  return copy;
}

describe("greeting example: the CEL rule", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  before(async () => {
    cluster = await LocalCluster.start();
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "greeting-test" });
    await installCrds(client, crds);
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("refuses both and neither of name and surname with the rule's message on spec; accepts one", async () => {
    for (const spec of [{ name: "Ada", surname: "Roe" }, {}]) {
      const r = await refusal(client.create(greeting("default", "bad", spec)));
      assert.equal(r.code, 422);
      assert.deepEqual(r.causes, [{ reason: "FieldValueInvalid", field: "spec", message: "Invalid value: set exactly one of spec.name and spec.surname" }]);
    }
    await client.create(greeting("default", "good", { name: "Ada" }));
    const r = await refusal(client.patch({ apiVersion: "greeting.example.com/v1", kind: "Greeting", namespace: "default", name: "good" }, { spec: { surname: "Roe" } }, "merge"));
    assert.equal(r.code, 422, "an update that sets both is refused too");
  });
});

describe("greeting example: the validating webhook", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  let mgr: Manager;
  before(async () => {
    cluster = await LocalCluster.start();
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "greeting-test" });
    await installCrds(client, crds.map((c) => (c.metadata?.name === "greetings.greeting.example.com" ? withoutRule(c) : c)));
    mgr = new Manager({ kubeConfig: cluster.kubeConfig, healthPort: false, logger: silentLogger, webhook: { port: 0 } });
    operator.register(mgr);
    registerGreetingWebhook(mgr);
    await within(mgr.start(), "the manager to start");
    await cluster.registerWebhooks(mgr);
  });
  after(async () => {
    await within(mgr.stop(), "mgr.stop()");
    await within(cluster.stop(), "cluster.stop()");
  });

  it("denies both and neither with kube-apiserver's message and the field cause", async () => {
    const both = await refusal(client.create(greeting("default", "both", { name: "Ada", surname: "Roe" })));
    assert.equal(both.code, 422);
    assert.equal(both.message, "admission webhook \"vgreeting.greeting.example.com\" denied the request: set exactly one of spec.name and spec.surname, not both");
    assert.deepEqual(both.causes.map((c) => c.field), ["spec"]);
    const neither = await refusal(client.create(greeting("default", "neither", {})));
    assert.match(neither.message, /neither is set/);
  });

  it("allows a family greeting, warning when nobody has that surname yet", async () => {
    const body = greeting("default", "roes", { surname: "Roe" });
    const created = await raw(cluster.url, "POST", "/apis/greeting.example.com/v1/namespaces/default/greetings", body);
    assert.equal(created.code, 201);
    assert.match(created.headers.get("warning") ?? "", /no Person of surname Roe in namespace default yet/);
    await client.create(person("default", "anna", "Anna", "Poe"));
    await waitFor(() => mgr.cache.informer({ apiVersion: "greeting.example.com/v1", kind: "Person" }).get("anna", "default") !== undefined, "the cache to see Anna");
    const second = await raw(cluster.url, "POST", "/apis/greeting.example.com/v1/namespaces/default/greetings", greeting("default", "poes", { surname: "Poe" }));
    assert.equal(second.code, 201);
    assert.equal(second.headers.get("warning"), null, "no warning once a Person has the surname");
  });
});
