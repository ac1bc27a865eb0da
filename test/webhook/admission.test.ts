/**
 * Admission webhooks over real HTTPS: the server generates a CA and a serving certificate, the
 * test trusts that CA only (as kube-apiserver trusts a configuration's caBundle) and posts
 * AdmissionReviews as the API server does.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { X509Certificate } from "node:crypto";
import { WebhookServer, defaultWebhookHost } from "../../src/webhook/server.ts";
import { admissionRegistrations } from "../../src/webhook/registration.ts";
import { allow, deny } from "../../src/webhook/admission.ts";
import { Metrics } from "../../src/manager/metrics.ts";
import { ManualClock } from "../../src/util/clock.ts";
import { createLogger } from "../../src/log/logger.ts";
import type { LogRecord } from "../../src/log/logger.ts";
import type { AdmissionContext } from "../../src/webhook/types.ts";
import type { KubeObject } from "../../src/kinds/kube-object.ts";
import { applyPatch, greeting, post, review } from "./support.ts";
import { within } from "../support/wait.ts";
import { KUBECTL } from "../support/kubectl.ts";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const Greeting = { apiVersion: "example.com/v1", kind: "Greeting" };
const Widget = { apiVersion: "example.com/v1", kind: "Widget" };
const Gadget = { apiVersion: "example.com/v1", kind: "Gadget" };
type Spec = { name?: string; surname?: string; replicas?: number; tags?: string[] };

describe("webhook server: admission", () => {
  const metrics = new Metrics();
  const clock = new ManualClock();
  const logs: LogRecord[] = [];
  const server = new WebhookServer({ port: 0, host: "127.0.0.1", metrics, clock, logger: createLogger({ level: "info", sink: (r) => logs.push(r) }) });
  let url: string;
  let ca: string;
  let slowSignal: AbortSignal | undefined;
  let slowStarted!: () => void;
  const slowRunning = new Promise<void>((resolve) => (slowStarted = resolve));
  const seen: { ctx: AdmissionContext; obj: KubeObject; old: KubeObject | undefined }[] = [];

  before(async () => {
    for (const reg of admissionRegistrations("test", Greeting, {
      default: (g: KubeObject & { spec?: Spec }) => {
        g.spec = { replicas: 1, ...g.spec, tags: [...(g.spec?.tags ?? []), "defaulted"] };
        g.metadata = { ...g.metadata, annotations: { ...g.metadata?.annotations, "example.com/owner~team": "hello" } };
        delete (g.spec as Spec).surname;
      },
      validate: (g: KubeObject & { spec?: Spec }, old, ctx) => {
        seen.push({ ctx, obj: g, old });
        if (ctx.operation === "DELETE") return g.metadata?.labels?.["protected"] ? deny("protected greetings cannot be deleted") : undefined;
        if (g.spec?.name && g.spec.surname) {
          return deny("set exactly one of spec.name and spec.surname", [
            { field: "spec.name", message: "must be unset when spec.surname is set", reason: "FieldValueForbidden" },
            { field: "spec.surname", message: "must be unset when spec.name is set" },
          ], 422);
        }
        if (g.spec?.name === "boom") throw new Error("database unreachable: cannot check the name");
        return g.spec?.name === "Bob" ? allow(["Bob is deprecated: use Robert"]) : undefined;
      },
      validateOperations: ["CREATE", "UPDATE", "DELETE"],
    })) server.register(reg);
    for (const reg of admissionRegistrations("test", Widget, {
      validate: async (_w, _old, ctx) => {
        slowSignal = ctx.signal;
        slowStarted();
        await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve, { once: true }));
        return allow(); // too late: dropped
      },
      timeoutSeconds: 2,
    })) server.register(reg);
    for (const reg of admissionRegistrations("test", Gadget, { default: () => 42 as unknown as KubeObject })) server.register(reg);
    await server.start(AbortSignal.timeout(10_000));
    url = server.url;
    ca = server.caBundle!;
  });
  after(() => within(server.stop(), "server.stop()"));

  it("listens on loopback outside a pod, all interfaces in one, and presents a certificate its CA bundle signs", async () => {
    assert.equal(defaultWebhookHost({}), "127.0.0.1");
    assert.equal(defaultWebhookHost({ KUBERNETES_SERVICE_HOST: "10.96.0.1" }), "0.0.0.0");
    assert.match(url, /^https:\/\/127\.0\.0\.1:\d+$/);
    const res = await post(`${url}/validate-example-com-v1-greeting`, ca, review({ object: greeting({ name: "Ada" }) }));
    assert.equal(res.status, 200);
    const caCert = new X509Certificate(Buffer.from(ca, "base64"));
    assert.equal(caCert.ca, true);
    assert.match(res.peer.subjectaltname ?? "", /DNS:localhost/);
    assert.match(res.peer.subjectaltname ?? "", /IP Address:127\.0\.0\.1/);
  });

  it("Go's TLS stack (kubectl, as kube-apiserver's client) trusts the generated certificate through the CA bundle", { skip: !KUBECTL && "no kubectl" }, async () => {
    const dir = mkdtempSync(join(tmpdir(), "webhook-kubectl-"));
    try {
      for (const server of [url, url.replace("127.0.0.1", "localhost")]) {
        writeFileSync(join(dir, "config"), `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "${server}", certificate-authority-data: ${ca}}}]
users: [{name: u, user: {token: not-needed}}]
contexts: [{name: c, context: {cluster: c, user: u}}]
current-context: c
`);
        writeFileSync(join(dir, "review.json"), JSON.stringify(review({ object: greeting({ name: "Ada", surname: "Lovelace" }) })));
        const { stdout } = await promisify(execFile)(KUBECTL!, ["--kubeconfig", join(dir, "config"), "create", "--raw", "/validate-example-com-v1-greeting", "-f", join(dir, "review.json")]);
        const answer = JSON.parse(stdout);
        assert.equal(answer.response.allowed, false, server);
        assert.equal(answer.response.status.code, 422);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("defaulting answers the RFC 6902 patch from the received object to the returned one", async () => {
    const obj = greeting({ name: "Ada", surname: "Lovelace", tags: ["a"] }, { annotations: { keep: "yes" } });
    const res = await post(`${url}/mutate-example-com-v1-greeting?timeout=10s`, ca, review({ object: obj }));
    assert.equal(res.status, 200);
    assert.equal(res.body.apiVersion, "admission.k8s.io/v1");
    assert.equal(res.body.kind, "AdmissionReview");
    const r = res.body.response;
    assert.equal(r.allowed, true);
    assert.equal(r.patchType, "JSONPatch");
    const ops = JSON.parse(Buffer.from(r.patch, "base64").toString("utf8"));
    assert.ok(ops.some((o: { path: string }) => o.path === "/metadata/annotations/example.com~1owner~0team"), JSON.stringify(ops));
    assert.deepEqual(applyPatch(obj, ops), {
      ...obj, metadata: { ...obj.metadata, annotations: { keep: "yes", "example.com/owner~team": "hello" } },
      spec: { name: "Ada", replicas: 1, tags: ["a", "defaulted"] },
    });
  });

  it("a handler returning something that is not an object denies, naming what it returned", async () => {
    const res = await post(`${url}/mutate-example-com-v1-gadget`, ca, review({ object: { apiVersion: "example.com/v1", kind: "Gadget", metadata: { name: "g" } } }));
    assert.equal(res.body.response.allowed, false);
    assert.equal(res.body.response.status.code, 500);
    assert.match(res.body.response.status.message, /default must return the object .*got number/);
  });

  it("validation allows, allows with warnings, and denies with Status causes", async () => {
    const ok = await post(`${url}/validate-example-com-v1-greeting`, ca, review({ object: greeting({ name: "Ada" }) }));
    assert.deepEqual(ok.body.response, { uid: ok.body.response.uid, allowed: true });
    const warned = await post(`${url}/validate-example-com-v1-greeting`, ca, review({ object: greeting({ name: "Bob" }) }));
    assert.deepEqual(warned.body.response.warnings, ["Bob is deprecated: use Robert"]);
    assert.equal(warned.body.response.allowed, true);
    const sent = review({ object: greeting({ name: "Ada", surname: "Lovelace" }) });
    const denied = await post(`${url}/validate-example-com-v1-greeting`, ca, sent);
    assert.deepEqual(denied.body.response, {
      uid: sent.request.uid, allowed: false,
      status: {
        status: "Failure", code: 422, reason: "Invalid", message: "set exactly one of spec.name and spec.surname",
        details: { causes: [
          { reason: "FieldValueForbidden", field: "spec.name", message: "must be unset when spec.surname is set" },
          { reason: "FieldValueInvalid", field: "spec.surname", message: "must be unset when spec.name is set" },
        ] },
      },
    });
    assert.ok(logs.some((l) => l.level === "info" && l.msg === "admission webhook denied the request" && l.uid === sent.request.uid));
  });

  it("passes the operation, dry run, user, namespace and the old object; DELETE validates the object being deleted", async () => {
    seen.length = 0;
    const old = greeting({ name: "Ada" }, { labels: { protected: "true" } });
    const upd = await post(`${url}/validate-example-com-v1-greeting`, ca, review({ operation: "UPDATE", dryRun: true, object: greeting({ name: "Grace" }), oldObject: old }));
    assert.equal(upd.body.response.allowed, true);
    assert.equal(seen[0]!.ctx.operation, "UPDATE");
    assert.equal(seen[0]!.ctx.dryRun, true);
    assert.equal(seen[0]!.ctx.userInfo.username, "alice");
    assert.equal(seen[0]!.ctx.namespace, "default");
    assert.deepEqual(seen[0]!.old, old);
    const del = await post(`${url}/validate-example-com-v1-greeting`, ca, review({ operation: "DELETE", object: null, oldObject: old }));
    assert.equal(del.body.response.allowed, false);
    assert.equal(del.body.response.status.code, 403);
    assert.equal(del.body.response.status.reason, "Forbidden");
    assert.deepEqual(seen[1]!.obj, old, "on DELETE the handler's object is the one being deleted");
  });

  it("a handler that throws denies with code 500 and its message, and logs an error", async () => {
    const res = await post(`${url}/validate-example-com-v1-greeting`, ca, review({ object: greeting({ name: "boom" }) }));
    assert.equal(res.status, 200);
    assert.equal(res.body.response.allowed, false);
    assert.deepEqual(res.body.response.status, { status: "Failure", code: 500, reason: "InternalError", message: "database unreachable: cannot check the name" });
    assert.ok(logs.some((l) => l.level === "error" && l.msg.includes("handler failed")));
  });

  it("a handler past its deadline (timeoutSeconds less a tenth) is denied with 504 and sees its signal aborted", async () => {
    const answer = post(`${url}/validate-example-com-v1-widget`, ca, review({ object: { apiVersion: "example.com/v1", kind: "Widget", metadata: { name: "w" } } }));
    await within(slowRunning, "the slow handler to start");
    assert.equal(slowSignal!.aborted, false);
    clock.advance(1799);
    assert.equal(slowSignal!.aborted, false);
    clock.advance(1);
    const res = await within(answer, "the timed-out answer");
    assert.equal(slowSignal!.aborted, true);
    assert.equal(res.body.response.allowed, false);
    assert.equal(res.body.response.status.code, 504);
    assert.equal(res.body.response.status.reason, "Timeout");
    assert.match(res.body.response.status.message, /did not answer within 1\.8 s \(timeoutSeconds 2 s, less a margin/);
  });

  it("answers an admission.k8s.io/v1beta1 review in v1beta1", async () => {
    const res = await post(`${url}/validate-example-com-v1-greeting`, ca, review({ object: greeting({ name: "Ada" }) }, "admission.k8s.io/v1beta1"));
    assert.equal(res.body.apiVersion, "admission.k8s.io/v1beta1");
    assert.equal(res.body.response.allowed, true);
  });

  it("answers a malformed review with 400 and a Status naming the problem, and keeps serving", async () => {
    const path = `${url}/validate-example-com-v1-greeting`;
    const cases: [unknown, RegExp, { method?: string; headers?: Record<string, string> }?][] = [
      ["{not json", /the request body is not JSON/],
      ["[1,2]", /must be an AdmissionReview object/],
      [{ apiVersion: "admission.k8s.io/v2", kind: "AdmissionReview", request: { uid: "u" } }, /expected an AdmissionReview of apiVersion admission.k8s.io\/v1 or admission.k8s.io\/v1beta1, got apiVersion "admission.k8s.io\/v2"/],
      [{ apiVersion: "admission.k8s.io/v1", kind: "ConversionReview", request: { uid: "u" } }, /kind "ConversionReview"/],
      [{ apiVersion: "admission.k8s.io/v1", kind: "AdmissionReview" }, /has no request$/],
      [{ apiVersion: "admission.k8s.io/v1", kind: "AdmissionReview", request: { operation: "CREATE" } }, /has no request\.uid/],
      [{ apiVersion: "admission.k8s.io/v1", kind: "AdmissionReview", request: { uid: "u", operation: "PATCH" } }, /request\.operation must be CREATE, UPDATE, DELETE or CONNECT/],
      [review({}), /POST/, { method: "PUT" }],
      [review({}), /contentType=text\/plain, expected application\/json/, { headers: { "content-type": "text/plain" } }],
    ];
    for (const [body, message, opts] of cases) {
      const res = await post(path, ca, body, opts);
      assert.equal(res.status, 400, `${JSON.stringify(body)} → ${res.text}`);
      assert.equal(res.body.kind, "Status");
      assert.equal(res.body.reason, "BadRequest");
      assert.match(res.body.message, message);
    }
    const unknown = await post(`${url}/validate-nothing`, ca, review({}));
    assert.equal(unknown.status, 404);
    assert.match(unknown.body.message, /no webhook is served on \/validate-nothing/);
    const ok = await post(path, ca, review({ object: greeting({ name: "Ada" }) }));
    assert.equal(ok.body.response.allowed, true);
  });

  it("answers a body over 7 MiB with 413", async () => {
    const big = review({ object: greeting({ name: "x".repeat(7 * 1024 * 1024) }) });
    const res = await post(`${url}/validate-example-com-v1-greeting`, ca, big);
    assert.equal(res.status, 413);
    assert.match(res.body.message, /larger than 7340032 bytes/);
    // Without a Content-Length, the server counts as the body streams in.
    const chunked = await post(`${url}/validate-example-com-v1-greeting`, ca, big, { headers: { "transfer-encoding": "chunked" } });
    assert.equal(chunked.status, 413);
    assert.equal(chunked.headers["content-length"], String(Buffer.byteLength(chunked.text)));
    const ok = await post(`${url}/validate-example-com-v1-greeting`, ca, review({ object: greeting({ name: "Ada" }) }));
    assert.equal(ok.body.response.allowed, true);
  });

  it("counts requests by code and outcomes by webhook, with a latency histogram", async () => {
    const text = await metrics.text();
    assert.match(text, /controller_runtime_webhook_requests_total\{webhook="\/validate-example-com-v1-greeting",code="200"\} [1-9]/);
    assert.match(text, /controller_runtime_webhook_requests_total\{webhook="\/validate-example-com-v1-greeting",code="400"\} 9/);
    assert.match(text, /controller_runtime_webhook_requests_total\{webhook="\/validate-example-com-v1-greeting",code="413"\} 2/);
    assert.match(text, /operator_runtime_webhook_outcomes_total\{webhook="\/validate-example-com-v1-greeting",type="validating",outcome="denied"\} [1-9]/);
    assert.match(text, /operator_runtime_webhook_outcomes_total\{webhook="\/validate-example-com-v1-widget",type="validating",outcome="errored"\} 1/);
    assert.match(text, /operator_runtime_webhook_outcomes_total\{webhook="\/mutate-example-com-v1-greeting",type="mutating",outcome="allowed"\} 1/);
    assert.match(text, /controller_runtime_webhook_latency_seconds_count\{webhook="\/mutate-example-com-v1-greeting"\} 1/);
    assert.match(text, /controller_runtime_webhook_requests_in_flight\{webhook="\/validate-example-com-v1-greeting"\} 0/);
  });
});
