/**
 * Part of `npm run bench -- cluster`: the cost of one large custom resource (110,000 spec keys,
 * 2.8 MB, under `x-kubernetes-preserve-unknown-fields`): a create, a merge patch of one key, and
 * how long a GET of another object waits behind them. Compared with the floor of any server that
 * stores JSON: parsing the body and serializing it twice (to store, to answer). LocalCluster
 * serves on one thread, so a large write delays every other request by its own time.
 */
import { LocalCluster } from "../src/testing/index.ts";

const KEYS = 110_000;
const RUNS = 3;

const crd = {
  apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition", metadata: { name: "bags.big.example.com" },
  spec: {
    group: "big.example.com", scope: "Namespaced", names: { plural: "bags", singular: "bag", kind: "Bag", listKind: "BagList" },
    versions: [{ name: "v1", served: true, storage: true,
      schema: { openAPIV3Schema: { type: "object", properties: { spec: { type: "object", "x-kubernetes-preserve-unknown-fields": true } } } } }],
  },
};

async function send(url: string, method: string, body: string, contentType = "application/json"): Promise<number> {
  const start = performance.now();
  const res = await fetch(url, { method, headers: { "content-type": contentType }, body });
  await res.arrayBuffer();
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status}`);
  return performance.now() - start;
}

/** Runs the large-object rows and prints them. */
export async function runLarge(): Promise<void> {
  const cluster = await LocalCluster.start();
  await send(`${cluster.url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, "POST", JSON.stringify(crd));
  while ((await fetch(`${cluster.url}/apis/big.example.com/v1/bags`)).status !== 200) await new Promise((r) => setTimeout(r, 20));
  await send(`${cluster.url}/api/v1/namespaces/default/configmaps`, "POST", JSON.stringify({ metadata: { name: "bystander" }, data: { a: "1" } }));
  const spec: Record<string, string> = {};
  for (let i = 0; i < KEYS; i++) spec[`k${i}`] = `v${i}`;
  const bags = `${cluster.url}/apis/big.example.com/v1/namespaces/default/bags`;
  const create: number[] = [];
  const patch: number[] = [];
  const floor: number[] = [];
  const waited: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const body = JSON.stringify({ apiVersion: "big.example.com/v1", kind: "Bag", metadata: { name: `b${run}` }, spec });
    const t0 = performance.now();
    JSON.stringify(JSON.parse(body));
    JSON.stringify(JSON.parse(body));
    floor.push(performance.now() - t0);
    const creating = send(bags, "POST", body);
    // A GET sent right behind the create waits for it.
    const getStart = performance.now();
    await fetch(`${cluster.url}/api/v1/namespaces/default/configmaps/bystander`).then((r) => r.arrayBuffer());
    waited.push(performance.now() - getStart);
    create.push(await creating);
    patch.push(await send(`${bags}/b${run}`, "PATCH", JSON.stringify({ spec: { k1: "changed" } }), "application/merge-patch+json"));
  }
  await cluster.stop();
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const ms = (x: number) => `${Math.round(x).toLocaleString("en-US")} ms`;
  const bytes = JSON.stringify({ spec }).length;
  const rows: [string, string, string][] = [
    [`create a ${(bytes / 1e6).toFixed(1)} MB custom resource (${KEYS.toLocaleString("en-US")} keys)`, ms(median(create)), ms(median(floor))],
    ["merge patch of one key of it", ms(median(patch)), ms(median(floor))],
    ["a GET sent right behind the create", ms(median(waited)), "0 ms (a server with threads)"],
  ];
  const head = ["measure (median of 3)", "LocalCluster", "floor: parse + 2 × serialize"];
  const widths = [0, 1, 2].map((c) => Math.max(...rows.map((r) => r[c]!.length), head[c]!.length));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  console.log("\nOne large custom resource (preserve-unknown-fields spec)\n");
  console.log(line(head));
  console.log(line(widths.map((w) => "-".repeat(w))));
  for (const r of rows) console.log(line(r));
  console.log(`\n${JSON.stringify({ bench: "cluster-large", keys: KEYS, createMs: median(create), patchMs: median(patch), floorMs: median(floor), bystanderMs: median(waited) })}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await runLarge();
