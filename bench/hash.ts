/**
 * `npm run bench -- hash`: canonical JSON + node:crypto SHA-256 against object-hash (SHA-256).
 *
 * Hashes, in one process and one run: (a) a 1 KiB ConfigMap, (b) a Deployment with a realistic
 * pod template, (c) a 64 KiB ConfigMap; reports operations per second per method side by side,
 * and checks (reports, never asserts) whether each method gives the same hash for the same JSON
 * content: keys reordered at every depth, one object referenced twice instead of two copies,
 * an `undefined` member instead of none.
 * `BENCH_MS` sets the measuring time per cell (default 1000 ms).
 */
import objectHash from "object-hash";
import { hash } from "node:crypto";
import { canonicalJson } from "../src/util/canonical-json.ts";

type Hasher = (value: object) => string;
interface Stability { reorderedKeys: boolean; sharedReferences: boolean; undefinedMember: boolean }

const methods: Record<string, Hasher> = {
  "canonical JSON + sha256": (value) => hash("sha256", canonicalJson(value), "hex"),
  "object-hash sha256": (value) => objectHash(value, {
    algorithm: "sha256", encoding: "hex",
    unorderedObjects: true, unorderedArrays: false, unorderedSets: false, respectType: false,
  }),
};

function text(bytes: number, seed: string): string {
  const line = `${seed}.setting = value-${seed}-0123456789abcdef\n`;
  return line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes);
}

/** A ConfigMap of `keys` properties files whose JSON is `jsonBytes` long (±1 per key). */
function configMap(name: string, jsonBytes: number, keys: number): object {
  const build = (perKey: number) => {
    const data: Record<string, string> = {};
    for (let i = 0; i < keys; i++) data[`file-${i}.properties`] = text(perKey, `k${i}`);
    return {
      apiVersion: "v1", kind: "ConfigMap",
      metadata: { name, namespace: "pinot", labels: { "app.kubernetes.io/name": "pinot", "app.kubernetes.io/component": "controller" } },
      data,
    };
  };
  let perKey = Math.floor(jsonBytes / keys);
  for (let i = 0; i < 3; i++) perKey += Math.floor((jsonBytes - JSON.stringify(build(perKey)).length) / keys / 1.03);
  return build(perKey);
}

function container(name: string, image: string, port: number): object {
  return {
    name, image, imagePullPolicy: "IfNotPresent",
    args: ["StartController", "-configFileName", "/var/pinot/controller/config/pinot-controller.conf"],
    env: [
      { name: "JAVA_OPTS", value: "-XX:ActiveProcessorCount=2 -Xms256M -Xmx1G -XX:+UseG1GC -XX:MaxGCPauseMillis=200" },
      { name: "LOG4J_CONSOLE_LEVEL", value: "info" },
      { name: "POD_NAME", valueFrom: { fieldRef: { fieldPath: "metadata.name" } } },
      { name: "ZK_PASSWORD", valueFrom: { secretKeyRef: { name: "zookeeper-auth", key: "password" } } },
    ],
    envFrom: [{ configMapRef: { name: "pinot-common-env" } }],
    ports: [{ name: "http", containerPort: port, protocol: "TCP" }],
    resources: { requests: { cpu: "500m", memory: "1Gi" }, limits: { cpu: "2", memory: "2Gi" } },
    livenessProbe: { httpGet: { path: "/health", port }, initialDelaySeconds: 60, periodSeconds: 10, failureThreshold: 10 },
    readinessProbe: { httpGet: { path: "/health", port }, initialDelaySeconds: 30, periodSeconds: 10 },
    volumeMounts: [
      { name: "config", mountPath: "/var/pinot/controller/config" },
      { name: "data", mountPath: "/var/pinot/controller/data" },
    ],
    securityContext: { runAsNonRoot: true, allowPrivilegeEscalation: false, capabilities: { drop: ["ALL"] } },
  };
}

function deployment(): object {
  const labels = { "app.kubernetes.io/name": "pinot", "app.kubernetes.io/instance": "pinot-prod", "app.kubernetes.io/component": "controller" };
  return {
    apiVersion: "apps/v1", kind: "Deployment",
    metadata: { name: "pinot-controller", namespace: "pinot", labels, annotations: { "operator-runtime.io/desired-hash": "0".repeat(64) } },
    spec: {
      replicas: 3, revisionHistoryLimit: 5,
      selector: { matchLabels: labels },
      strategy: { type: "RollingUpdate", rollingUpdate: { maxSurge: "25%", maxUnavailable: 0 } },
      template: {
        metadata: { labels, annotations: { "prometheus.io/scrape": "true", "prometheus.io/port": "8008" } },
        spec: {
          serviceAccountName: "pinot", terminationGracePeriodSeconds: 30,
          securityContext: { fsGroup: 1000, runAsUser: 1000 },
          initContainers: [{ name: "wait-for-zk", image: "busybox:1.36", command: ["sh", "-c", "until nc -z zookeeper 2181; do sleep 2; done"] }],
          containers: [container("controller", "apachepinot/pinot:1.2.0", 9000), container("exporter", "prom/jmx-exporter:0.20", 8008)],
          volumes: [
            { name: "config", configMap: { name: "pinot-controller-config" } },
            { name: "data", emptyDir: {} },
            { name: "certs", projected: { sources: [{ secret: { name: "pinot-tls" } }, { configMap: { name: "pinot-ca", optional: true } }] } },
          ],
          affinity: { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [
            { weight: 100, podAffinityTerm: { topologyKey: "kubernetes.io/hostname", labelSelector: { matchLabels: labels } } },
          ] } },
          tolerations: [{ key: "dedicated", operator: "Equal", value: "pinot", effect: "NoSchedule" }],
          nodeSelector: { "kubernetes.io/os": "linux" },
        },
      },
    },
  };
}

/** The same value with the keys of every object in reverse insertion order. */
function reorderKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reorderKeys);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reorderKeys(v)]));
}

let sink = 0;

function opsPerSecond(fn: Hasher, input: object, durationMs: number): number {
  const warmUntil = performance.now() + Math.min(250, durationMs / 4);
  while (performance.now() < warmUntil) sink ^= fn(input).charCodeAt(0);
  let ops = 0;
  const start = performance.now();
  let now = start;
  while (now - start < durationMs) {
    for (let i = 0; i < 64; i++) sink ^= fn(input).charCodeAt(i & 31);
    ops += 64;
    now = performance.now();
  }
  return ops / ((now - start) / 1000);
}

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

/** Runs the benchmark and prints the table (and a JSON line). */
export async function run(): Promise<void> {
  const durationMs = Number(process.env.BENCH_MS ?? 1000);
  const inputs: Record<string, object> = {
    "1 KiB ConfigMap": configMap("small", 1024, 4),
    "Deployment (pod template)": deployment(),
    "64 KiB ConfigMap": configMap("large", 64 * 1024, 16),
  };
  const names = Object.keys(methods);
  const header = ["input", "JSON bytes", ...names.map((n) => `${n} ops/s`), "ratio"];
  const rows: string[][] = [];
  const results: Record<string, Record<string, number>> = {};
  for (const [label, input] of Object.entries(inputs)) {
    const perSecond = names.map((n) => opsPerSecond(methods[n]!, input, durationMs));
    results[label] = Object.fromEntries(names.map((n, i) => [n, perSecond[i]!]));
    rows.push([label, fmt(JSON.stringify(input).length), ...perSecond.map(fmt), `${(perSecond[0]! / perSecond[1]!).toFixed(1)} ×`]);
  }

  // Reordering is checked on JSON copies so that it is not confused with shared references
  // (the fixtures reuse one labels object, as hand-written manifests do), checked separately.
  const stability: Record<string, Stability> = {};
  for (const name of names) {
    const fn = methods[name]!;
    const copies = Object.values(inputs).map((input) => JSON.parse(JSON.stringify(input)) as object);
    stability[name] = {
      reorderedKeys: copies.every((copy) => fn(copy) === fn(reorderKeys(copy) as object)),
      sharedReferences: Object.values(inputs).every((input, i) => fn(input) === fn(copies[i]!)),
      undefinedMember: fn({ a: 1, b: undefined }) === fn({ a: 1 }),
    };
  }

  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(" | ")} |`;
  console.log(`\nObject hashing: ${names.join(" vs ")} (Node ${process.version}, ${durationMs} ms per cell; ratio = first / second)\n`);
  console.log(line(header));
  console.log(line(widths.map((w) => "-".repeat(w))));
  for (const r of rows) console.log(line(r));
  console.log("");
  const yes = (b: boolean) => (b ? "yes" : "NO");
  console.log("Same hash for the same JSON content:");
  for (const name of names) {
    const s = stability[name]!;
    console.log(`  ${name}: keys reordered at every depth: ${yes(s.reorderedKeys)}; ` +
      `one object referenced twice vs two copies: ${yes(s.sharedReferences)}; { b: undefined } vs {}: ${yes(s.undefinedMember)}`);
  }
  console.log(`\n${JSON.stringify({ bench: "hash", node: process.version, opsPerSecond: results, stability, sink: sink & 1 })}`);
}
