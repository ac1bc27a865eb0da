/**
 * `npm run bench -- admission [--seconds N]`: what admission costs.
 *
 * 1. The webhook server alone: AdmissionReviews POSTed over HTTPS (keep-alive, trusting the
 *    server's generated CA) to a validating handler, a defaulting handler (the answer carries a
 *    JSON Patch) and `/convert`, one at a time (latency p50/p99) and 16 at a time (requests per
 *    second) — next to a bare `node:https` server answering a fixed AdmissionReview, the
 *    ceiling for any HTTPS server on this machine and Node.
 * 2. LocalCluster creating custom resources through client-node-shaped HTTP requests: without
 *    webhooks, with the validating webhook in the chain, and with both (mutating, then
 *    validating): latency p50/p99 one at a time and creates per second 16 at a time.
 *
 * Benchmarks measure; they never assert.
 */
import https from "node:https";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { WebhookServer, allow } from "../src/entries/webhook.ts";
import { admissionRegistrations, conversionRegistration } from "../src/entries/webhook.ts";
import { generateCertificateAuthority, generateServingCertificate } from "../src/entries/webhook.ts";
import { webhookConfigurations } from "../src/entries/webhook.ts";
import { silentLogger } from "../src/entries/client.ts";
import type { KubeObject } from "../src/index.ts";
import { LocalCluster } from "../src/testing/index.ts";

const KIND = { apiVersion: "bench.example.com/v1", kind: "Widget" };
const CRD: KubeObject = {
  apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition",
  metadata: { name: "widgets.bench.example.com" },
  spec: {
    group: "bench.example.com", scope: "Namespaced",
    names: { plural: "widgets", singular: "widget", kind: "Widget" },
    versions: [
      { name: "v1", served: true, storage: true, schema: { openAPIV3Schema: { type: "object", properties: { spec: { type: "object", properties: { size: { type: "integer" }, tier: { type: "string" } } } } } } },
      { name: "v1beta1", served: true, storage: false, schema: { openAPIV3Schema: { type: "object", properties: { spec: { type: "object", properties: { count: { type: "integer" }, tier: { type: "string" } } } } } } },
    ],
  },
};

function widget(name: string): KubeObject {
  return { ...KIND, metadata: { name, namespace: "default", labels: { bench: "1" } }, spec: { size: 3 } };
}

function review(operation: "CREATE", obj: KubeObject): string {
  return JSON.stringify({
    apiVersion: "admission.k8s.io/v1", kind: "AdmissionReview",
    request: {
      uid: randomUUID(), kind: { group: "bench.example.com", version: "v1", kind: "Widget" },
      resource: { group: "bench.example.com", version: "v1", resource: "widgets" },
      name: obj.metadata?.name, namespace: "default", operation, userInfo: { username: "bench" }, object: obj, dryRun: false,
    },
  });
}

function conversionReview(obj: KubeObject): string {
  return JSON.stringify({ apiVersion: "apiextensions.k8s.io/v1", kind: "ConversionReview", request: { uid: randomUUID(), desiredAPIVersion: "bench.example.com/v1beta1", objects: [obj] } });
}

/** Latencies of `n` sequential requests and the rate of `concurrency` concurrent ones for `ms`. */
interface Measured {
  p50: number;
  p99: number;
  perSecond: number;
  errors: number;
}

type Send = (i: number) => Promise<number>;

async function measure(send: Send, n: number, concurrency: number, ms: number): Promise<Measured> {
  let errors = 0;
  const check = (code: number) => {
    if (code < 200 || code >= 300) errors++;
  };
  for (let i = 0; i < 50; i++) check(await send(-1 - i)); // warm-up
  const latencies: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    check(await send(i));
    latencies.push(performance.now() - t);
  }
  latencies.sort((a, b) => a - b);
  let done = 0;
  const deadline = performance.now() + ms;
  const start = performance.now();
  let next = n;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (performance.now() < deadline) {
      check(await send(next++));
      done++;
    }
  }));
  const seconds = (performance.now() - start) / 1000;
  return { p50: latencies[Math.floor(n * 0.5)]!, p99: latencies[Math.floor(n * 0.99)]!, perSecond: done / seconds, errors };
}

function poster(url: string, agent: https.Agent | http.Agent, body: (i: number) => string, headers: Record<string, string> = {}): Send {
  const target = new URL(url);
  const mod = target.protocol === "https:" ? https : http;
  return (i) => new Promise<number>((resolve) => {
    const payload = body(i);
    const req = mod.request(target, {
      agent, method: "POST",
      headers: { "content-type": "application/json", "content-length": Buffer.byteLength(payload), ...headers },
    }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", () => resolve(0));
    req.end(payload);
  });
}

function table(title: string, header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  console.log(`\n${title}\n${line(header)}\n| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`);
  for (const r of rows) console.log(line(r));
}

const ms = (v: number) => `${v.toFixed(2)} ms`;
const rate = (v: number) => `${Math.round(v).toLocaleString("en-US")}/s`;

/** A bare HTTPS server answering a fixed allowed AdmissionReview: the ceiling. */
async function bareHttps(): Promise<{ url: string; ca: string; close: () => Promise<void> }> {
  const ca = generateCertificateAuthority({ commonName: "bench-ca" });
  const serving = generateServingCertificate(ca, { dnsNames: ["localhost"], ipAddresses: ["127.0.0.1"] });
  const answer = JSON.stringify({ apiVersion: "admission.k8s.io/v1", kind: "AdmissionReview", response: { uid: "x", allowed: true } });
  const server = https.createServer({ cert: serving.cert, key: serving.key, keepAlive: true }, (req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(answer) });
      res.end(answer);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    ca: ca.cert,
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}

export async function run(argv: string[] = []): Promise<void> {
  const at = argv.indexOf("--seconds");
  const seconds = at >= 0 ? Number(argv[at + 1]) : 3;
  const n = 2000;
  console.log(`admission: ${n} sequential requests per row (p50/p99), then 16 concurrent for ${seconds} s (rate)`);

  // 1. The webhook server.
  const server = new WebhookServer({ port: 0, host: "127.0.0.1", logger: silentLogger });
  for (const reg of admissionRegistrations("bench", KIND, {
    validate: (w) => ((w["spec"] as { size?: number }).size ?? 0) > 100 ? { allowed: false, message: "too big" } : allow(),
    default: (w) => {
      (w["spec"] as Record<string, unknown>)["tier"] ??= "standard";
      return w;
    },
  })) server.register(reg);
  server.registerConversion(conversionRegistration("bench", KIND, {
    hub: "v1", resource: "widgets",
    spokes: { v1beta1: {
      toHub: (o) => ({ ...o, spec: { size: (o["spec"] as { count?: number }).count } }),
      fromHub: (o) => ({ ...o, spec: { count: (o["spec"] as { size?: number }).size } }),
    } },
  }));
  const stop = new AbortController();
  await server.start(stop.signal);
  const ca = Buffer.from(server.caBundle!, "base64").toString("utf8");
  const agent = new https.Agent({ keepAlive: true, maxSockets: 16, ca });
  const bare = await bareHttps();
  const bareAgent = new https.Agent({ keepAlive: true, maxSockets: 16, ca: bare.ca });
  const paths = admissionRegistrations("bench", KIND, { validate: () => allow(), default: () => undefined });
  const validatePath = paths.find((r) => r.type === "validating")!.path;
  const mutatePath = paths.find((r) => r.type === "mutating")!.path;
  const rows: [string, Measured][] = [
    ["bare node:https, fixed answer (ceiling)", await measure(poster(bare.url, bareAgent, () => review("CREATE", widget("w"))), n, 16, seconds * 1000)],
    ["validating webhook (allowed)", await measure(poster(server.url + validatePath, agent, (i) => review("CREATE", widget(`w${i}`))), n, 16, seconds * 1000)],
    ["defaulting webhook (JSON Patch answer)", await measure(poster(server.url + mutatePath, agent, (i) => review("CREATE", widget(`w${i}`))), n, 16, seconds * 1000)],
    ["conversion webhook (1 object)", await measure(poster(`${server.url}/convert`, agent, (i) => conversionReview(widget(`w${i}`))), n, 16, seconds * 1000)],
  ];
  table("Webhook server round trip (HTTPS, keep-alive)", ["", "p50", "p99", "rate (16 concurrent)", "errors"],
    rows.map(([name, m]) => [name, ms(m.p50), ms(m.p99), rate(m.perSecond), String(m.errors)]));
  await bare.close();
  agent.destroy();
  bareAgent.destroy();

  // 2. LocalCluster creates with and without webhooks in the chain.
  const cluster = await LocalCluster.start();
  const base = cluster.url;
  const plain = new http.Agent({ keepAlive: true, maxSockets: 16 });
  await new Promise<number>((resolve) => {
    void poster(`${base}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, plain, () => JSON.stringify(CRD))(0).then(resolve);
  });
  const regs = { admission: paths.map((r) => ({ ...r })), conversion: [] };
  const validatingOnly = webhookConfigurations({ admission: regs.admission.filter((r) => r.type === "validating"), conversion: [] }, { url: server.url }, { caBundle: server.caBundle!, name: "bench" });
  const both = webhookConfigurations(regs, { url: server.url }, { caBundle: server.caBundle!, name: "bench" });
  const createsPath = `${base}/apis/bench.example.com/v1/namespaces/default/widgets`;
  let round = 0;
  const creates = () => {
    const r = round++;
    return poster(createsPath, plain, (i) => JSON.stringify(widget(`c${r}-${i}`)));
  };
  const clusterRows: [string, Measured][] = [];
  clusterRows.push(["no webhooks", await measure(creates(), n, 16, seconds * 1000)]);
  await cluster.registerWebhooks({ webhookManifests: () => validatingOnly });
  clusterRows.push(["validating webhook", await measure(creates(), n, 16, seconds * 1000)]);
  await cluster.registerWebhooks({ webhookManifests: () => both });
  clusterRows.push(["mutating + validating webhooks", await measure(creates(), n, 16, seconds * 1000)]);
  table("LocalCluster: create a custom resource (HTTP, keep-alive)", ["chain", "p50", "p99", "creates/s (16 concurrent)", "errors"],
    clusterRows.map(([name, m]) => [name, ms(m.p50), ms(m.p99), rate(m.perSecond), String(m.errors)]));
  plain.destroy();
  await cluster.stop();
  stop.abort();
  await server.stop();
}
