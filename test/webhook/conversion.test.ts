/**
 * Conversion webhooks: `/convert` over real HTTPS, hub-and-spoke, and the round-trip helper's
 * failure message.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { WebhookServer } from "../../src/webhook/server.ts";
import { conversionRegistration } from "../../src/webhook/registration.ts";
import { checkRoundTrip, convertObject } from "../../src/webhook/conversion.ts";
import type { ConversionOptions } from "../../src/webhook/types.ts";
import type { KubeObject } from "../../src/kinds/kube-object.ts";
import { post } from "./support.ts";
import { within } from "../support/wait.ts";

type Obj = KubeObject & { spec?: Record<string, unknown> };

/** v1 (hub): spec.name; v1beta1: spec.fullName; v1alpha1: spec.who (and lossy unless annotated). */
const greetingConversion: ConversionOptions = {
  hub: "v1",
  spokes: {
    v1alpha1: {
      toHub: (o: Obj) => ({ ...o, spec: { name: o.spec?.who } }),
      fromHub: (o: Obj) => ({ ...o, spec: { who: o.spec?.name } }),
    },
    v1beta1: {
      toHub: (o: Obj) => {
        const { fullName, ...rest } = o.spec ?? {};
        return { ...o, spec: { ...rest, name: fullName } };
      },
      fromHub: (o: Obj) => {
        const { name, ...rest } = o.spec ?? {};
        return { ...o, spec: { ...rest, fullName: name } };
      },
    },
  },
};

const v1alpha1 = (spec: Record<string, unknown>): KubeObject => ({
  apiVersion: "example.com/v1alpha1", kind: "Greeting",
  metadata: { name: "hello", namespace: "default", uid: "1234", resourceVersion: "7", labels: { a: "b" } }, spec,
});

describe("conversion webhook", () => {
  const server = new WebhookServer({ port: 0, host: "127.0.0.1" });
  let url: string;
  let ca: string;
  before(async () => {
    server.registerConversion(conversionRegistration("test", { apiVersion: "example.com/v1", kind: "Greeting" }, greetingConversion));
    server.registerConversion(conversionRegistration("test", { apiVersion: "example.com/v1", kind: "Meddler" }, {
      hub: "v1", spokes: { v1alpha1: { toHub: (o) => ({ ...o, metadata: { ...o.metadata, name: "renamed" } }), fromHub: (o) => o } },
    }));
    await server.start(AbortSignal.timeout(10_000));
    url = `${server.url}/convert`;
    ca = server.caBundle!;
  });
  after(() => within(server.stop(), "server.stop()"));

  const convertReview = (desiredAPIVersion: string, objects: KubeObject[], apiVersion = "apiextensions.k8s.io/v1") =>
    ({ apiVersion, kind: "ConversionReview", request: { uid: "c0ffee", desiredAPIVersion, objects } });

  it("converts spoke → hub → spoke and keeps metadata, answering Success", async () => {
    const res = await post(url, ca, convertReview("example.com/v1beta1", [v1alpha1({ who: "Ada" }), v1alpha1({ who: "Grace" })]));
    assert.equal(res.status, 200);
    assert.equal(res.body.apiVersion, "apiextensions.k8s.io/v1");
    assert.equal(res.body.kind, "ConversionReview");
    assert.deepEqual(res.body.response, {
      uid: "c0ffee", result: { status: "Success" },
      convertedObjects: [
        { ...v1alpha1({}), apiVersion: "example.com/v1beta1", spec: { fullName: "Ada" } },
        { ...v1alpha1({}), apiVersion: "example.com/v1beta1", spec: { fullName: "Grace" } },
      ],
    });
    const hub = await post(url, ca, convertReview("example.com/v1", [v1alpha1({ who: "Ada" })], "apiextensions.k8s.io/v1beta1"));
    assert.equal(hub.body.apiVersion, "apiextensions.k8s.io/v1beta1");
    assert.deepEqual(hub.body.response.convertedObjects[0].spec, { name: "Ada" });
    assert.equal(hub.body.response.convertedObjects[0].apiVersion, "example.com/v1");
  });

  it("answers Failure with a clear message for an unknown version, an unregistered kind, or a converter changing metadata", async () => {
    const unknown = await post(url, ca, convertReview("example.com/v2", [v1alpha1({ who: "Ada" })]));
    assert.deepEqual(unknown.body.response.convertedObjects, []);
    assert.equal(unknown.body.response.result.status, "Failure");
    assert.match(unknown.body.response.result.message, /cannot convert Greeting default\/hello from v1alpha1 to v2: v2 is neither the hub \(v1\) nor a spoke \(v1alpha1, v1beta1\)/);
    const other = await post(url, ca, convertReview("example.com/v1", [{ ...v1alpha1({}), kind: "Farewell" }]));
    assert.match(other.body.response.result.message, /no conversion is registered for kind Farewell of group example.com/);
    const meddler = await post(url, ca, convertReview("example.com/v1", [{ ...v1alpha1({}), kind: "Meddler" }]));
    assert.match(meddler.body.response.result.message, /the converter changed metadata.name; a conversion may change only metadata.labels and metadata.annotations/);
  });

  it("refuses a malformed ConversionReview with 400", async () => {
    const res = await post(url, ca, { apiVersion: "apiextensions.k8s.io/v1", kind: "ConversionReview", request: { uid: "u", objects: "nope" } });
    assert.equal(res.status, 400);
    assert.match(res.body.message, /request.desiredAPIVersion \(a string\) and request.objects \(an array\) are required/);
    const wrong = await post(url, ca, { apiVersion: "admission.k8s.io/v1", kind: "AdmissionReview", request: { uid: "u" } });
    assert.equal(wrong.status, 400);
    assert.match(wrong.body.message, /expected a ConversionReview of apiVersion apiextensions.k8s.io\/v1/);
  });

  it("checkRoundTrip passes a lossless conversion and names the version and field a lossy one loses", () => {
    checkRoundTrip(greetingConversion, { ...v1alpha1({ who: "Ada" }) });
    checkRoundTrip(greetingConversion, { ...v1alpha1({}), apiVersion: "example.com/v1beta1", spec: { fullName: "Ada" } });
    // v1 has spec.greeting, which v1alpha1 cannot hold.
    const hub = { ...v1alpha1({}), apiVersion: "example.com/v1", spec: { name: "Ada", greeting: "Hello" } };
    assert.throws(() => checkRoundTrip(greetingConversion, hub), (err: Error) => {
      assert.equal(err.message, 'round trip v1 → v1alpha1 → v1 changed spec.greeting: "Hello" came back as (absent). Fix: make spokes convert it both ways (keep what a version cannot hold in an annotation).');
      return true;
    });
    checkRoundTrip(greetingConversion, hub, { versions: ["v1beta1"] });
    assert.throws(() => checkRoundTrip({ hub: "v1", spokes: { v1: greetingConversion.spokes.v1alpha1! } }, hub), /v1 is the hub and also a spoke/);
  });

  it("convertObject gives the object as it is for its own version and sets apiVersion on the way", () => {
    const obj = v1alpha1({ who: "Ada" });
    assert.deepEqual(convertObject(greetingConversion, obj, "v1alpha1"), obj);
    assert.equal(convertObject(greetingConversion, obj, "v1").apiVersion, "example.com/v1");
  });
});
