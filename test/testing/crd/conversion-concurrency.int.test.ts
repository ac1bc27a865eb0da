/**
 * Writes at a version converted by a slow conversion webhook do not lose a write stored while
 * the webhook was answering: a patch is applied again to the current object, a PUT with the
 * resourceVersion it read answers 409 Conflict, as kube-apiserver's GuaranteedUpdate does.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:https";
import type { Server } from "node:https";
import type { AddressInfo } from "node:net";
import { ApiException, ApiextensionsV1Api, CustomObjectsApi, PatchStrategy, setHeaderOptions } from "@kubernetes/client-node";
import type { V1CustomResourceDefinition } from "@kubernetes/client-node";
import { LocalCluster } from "../../../src/testing/index.ts";
import { selfSignedCertificate } from "../../../src/testing/auth/self-signed.ts";
import { waitFor, within } from "../../support/wait.ts";
import { convertRenamed } from "../conversion/rename-field.ts";

const GROUP = "race.example.com";
const MERGE = setHeaderOptions("Content-Type", PatchStrategy.MergePatch);

/** A conversion webhook (v1alpha1 `spec.name` ⇄ v1 `spec.firstName`) whose next call the test can hold. */
async function startWebhook(cert: string, key: string) {
  const state = {
    calls: 0,
    /** Set by the test: the next call waits for it, then it is cleared. */
    hold: undefined as Promise<void> | undefined,
    /** Resolved when a held call arrives. */
    arrived: undefined as (() => void) | undefined,
  };
  const server: Server = createServer({ cert, key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      state.calls++;
      const hold = state.hold;
      state.hold = undefined;
      if (hold) {
        state.arrived?.();
        await hold;
      }
      const { uid, desiredAPIVersion, objects } = JSON.parse(Buffer.concat(chunks).toString("utf8")).request;
      const convertedObjects = objects.map((o: any) => convertRenamed(o, desiredAPIVersion));
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ apiVersion: "apiextensions.k8s.io/v1", kind: "ConversionReview", response: { uid, convertedObjects, result: { status: "Success" } } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, state, url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/convert` };
}

describe("LocalCluster updates through a slow conversion webhook", () => {
  let cluster: LocalCluster;
  let objects: CustomObjectsApi;
  let hook: Awaited<ReturnType<typeof startWebhook>>;

  before(async () => {
    const { cert, key } = selfSignedCertificate();
    hook = await startWebhook(cert, key);
    cluster = await LocalCluster.start();
    objects = cluster.kubeConfig.makeApiClient(CustomObjectsApi);
    const schema = (field: string) => ({
      openAPIV3Schema: {
        type: "object",
        properties: {
          spec: { type: "object", properties: { [field]: { type: "string" }, replicas: { type: "integer" } } },
          status: { type: "object", properties: { replicas: { type: "integer" } } },
        },
      },
    });
    const subresources = { status: {}, scale: { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas" } };
    const crd: V1CustomResourceDefinition = {
      metadata: { name: `people.${GROUP}` },
      spec: {
        group: GROUP,
        scope: "Namespaced",
        names: { plural: "people", kind: "Person" },
        versions: [
          { name: "v1alpha1", served: true, storage: false, schema: schema("name"), subresources },
          { name: "v1", served: true, storage: true, schema: schema("firstName"), subresources },
        ],
        conversion: {
          strategy: "Webhook",
          webhook: { clientConfig: { url: hook.url, caBundle: Buffer.from(cert).toString("base64") }, conversionReviewVersions: ["v1"] },
        },
      },
    };
    await cluster.kubeConfig.makeApiClient(ApiextensionsV1Api).createCustomResourceDefinition({ body: crd });
  });
  after(async () => {
    await within(cluster.stop(), "cluster.stop()");
    hook.server.closeAllConnections();
    await new Promise<void>((resolve) => hook.server.close(() => resolve()));
  });

  const at = (version: string) => ({ group: GROUP, version, namespace: "default", plural: "people" });

  /** Holds the webhook's next call; resolves `arrived` when it comes, `release()` lets it answer. */
  function holdNextCall() {
    let release!: () => void;
    hook.state.hold = new Promise<void>((resolve) => (release = resolve));
    const arrived = new Promise<void>((resolve) => (hook.state.arrived = resolve));
    return { arrived, release };
  }

  async function createPerson(name: string): Promise<void> {
    await objects.createNamespacedCustomObject({ ...at("v1"), body: { apiVersion: `${GROUP}/v1`, kind: "Person", metadata: { name }, spec: { firstName: "Ada" } } });
  }

  it("applies a patch again when another write was stored while the webhook converted it", async () => {
    await createPerson("ada");
    const { arrived, release } = holdNextCall();
    const slow = objects.patchNamespacedCustomObject({ ...at("v1alpha1"), name: "ada", body: { metadata: { labels: { slow: "yes" } }, spec: { name: "Ada L." } } }, MERGE);
    await within(arrived, "the slow patch to reach the webhook");
    // A write at the storage version needs no conversion: it is stored while the webhook holds the patch.
    await objects.patchNamespacedCustomObject({ ...at("v1"), name: "ada", body: { metadata: { labels: { fast: "yes" } } } }, MERGE);
    release();
    const answered = (await slow) as any;
    assert.deepEqual(answered.metadata.labels, { fast: "yes", slow: "yes" });
    assert.equal(answered.spec.name, "Ada L.");
    const stored = cluster.peek({ group: GROUP, plural: "people" }, "default", "ada") as any;
    assert.deepEqual(stored.metadata.labels, { fast: "yes", slow: "yes" }, "the fast write is not lost");
    assert.equal(stored.spec.firstName, "Ada L.");
  });

  it("prepares a scale patch again when another write was stored while the webhook converted the object", async () => {
    await createPerson("alan");
    const { arrived, release } = holdNextCall();
    const slow = objects.patchNamespacedCustomObjectScale({ ...at("v1alpha1"), name: "alan", body: { spec: { replicas: 3 } } }, MERGE);
    await within(arrived, "the slow scale patch to reach the webhook");
    await objects.patchNamespacedCustomObject({ ...at("v1"), name: "alan", body: { metadata: { labels: { fast: "yes" } } } }, MERGE);
    release();
    assert.equal(((await slow) as any).spec.replicas, 3);
    const stored = cluster.peek({ group: GROUP, plural: "people" }, "default", "alan") as any;
    assert.deepEqual(stored.metadata.labels, { fast: "yes" }, "the fast write is not lost");
    assert.equal(stored.spec.replicas, 3);
  });

  it("answers 409 to a PUT whose resourceVersion was overtaken while the webhook converted it", async () => {
    await createPerson("grace");
    const read = (await objects.getNamespacedCustomObject({ ...at("v1alpha1"), name: "grace" })) as any;
    read.spec.name = "Grace H.";
    const { arrived, release } = holdNextCall();
    const slow = objects.replaceNamespacedCustomObject({ ...at("v1alpha1"), name: "grace", body: read });
    await within(arrived, "the slow PUT to reach the webhook");
    await objects.patchNamespacedCustomObject({ ...at("v1"), name: "grace", body: { metadata: { labels: { fast: "yes" } } } }, MERGE);
    release();
    const err = await slow.then(() => undefined, (e) => e);
    assert.ok(err instanceof ApiException, `expected a 409, got ${String(err)}`);
    assert.equal(err.code, 409);
    assert.equal(
      JSON.parse(err.body as string).message,
      `Operation cannot be fulfilled on people.${GROUP} "grace": the object has been modified; please apply your changes to the latest version and try again`,
    );
    const stored = await waitFor(() => cluster.peek({ group: GROUP, plural: "people" }, "default", "grace") as any, "grace");
    assert.deepEqual(stored.metadata.labels, { fast: "yes" });
    assert.equal(stored.spec.firstName, "Ada");
  });
});
