import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CoreV1Api, KubeConfig } from "@kubernetes/client-node";
import { waitFor, within } from "../support/wait.ts";
import { LocalCluster } from "../../src/testing/index.ts";
import { ResourceClient } from "../../src/index.ts";

const repo = fileURLToPath(new URL("../../", import.meta.url));

function run(args: string[]) {
  const child = spawn(process.execPath, args, { cwd: repo, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => out, exit };
}

describe("command-line entry points", () => {
  it("npm run cluster: prints port and kubeconfig, serves client-node, stops cleanly on SIGINT", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cluster-script-"));
    const kc = join(dir, "kubeconfig");
    const p = run(["scripts/cluster.ts", "--kubeconfig", kc]);
    try {
      await waitFor(() => p.output().includes("kubeconfig:"), "startup banner", 15_000);
      assert.match(p.output(), /listening on http:\/\/127\.0\.0\.1:\d+ \(port \d+\)/);
      const config = new KubeConfig();
      config.loadFromFile(kc);
      const namespaces = await config.makeApiClient(CoreV1Api).listNamespace();
      assert.ok(namespaces.items.some((n) => n.metadata?.name === "kube-system"));
      p.child.kill("SIGINT");
      assert.equal(await within(p.exit, "the cluster script to exit after SIGINT", 15_000), 0, p.output());
    } finally {
      p.child.kill("SIGKILL");
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("npm run demo -- --once: runs every example operator, converges, walks through the changes and prints them", async () => {
    const p = run(["examples/demo.ts", "--once"]);
    let code: number | null;
    try {
      code = await within(p.exit, "the demo to finish", 90_000);
    } finally {
      p.child.kill("SIGKILL");
    }
    const out = p.output();
    assert.equal(code, 0, out);
    for (const name of ["greeting", "streams", "pinot", "replicaset"]) assert.match(out, new RegExp(`^  ${name}\\s`, "m"), `${name} is listed`);
    assert.match(out, /all converged/);
    assert.match(out, /Greeting\/doe-family: "Hello to the Doe family: Jane, John" Ready=True/);
    assert.match(out, /Job\/parallel: Running, 5 processing elements/);
    assert.match(out, /Pinot\/pinot-simple: Ready/);
    assert.match(out, /PodSet\/web: 3\/3 ready/);
    assert.match(out, /Normal\s+Created\s+Pinot\/pinot-simple\s+Created StatefulSet\/default\/pinot-simple-pinot-broker/);
    // The walkthrough: one workload rolls, the greeting follows the People, the pod is relaunched, the set scales.
    assert.match(out, /rolled: StatefulSet\/pinot-simple-pinot-broker; 3 other workload\(s\) untouched/);
    assert.match(out, /after: {2}"Hello to the Doe family: Jane"/);
    assert.match(out, /relaunched: launches 2, phase Running/);
    assert.match(out, /5\/5 ready/);
    assert.match(out, /Relaunching\s+ProcessingElement\/parallel-work-0/);
    assert.match(out, /kubectl --kubeconfig \S+ get greetings,people/);
  });

  it("npm run demo: keeps the operators running until Ctrl-C, then stops cleanly", async () => {
    const p = run(["examples/demo.ts"]);
    try {
      await waitFor(() => p.output().includes("Ctrl-C stops"), "the demo to finish its walkthrough", 90_000);
      const kubeconfig = /kubectl --kubeconfig (\S+) get/.exec(p.output())?.[1];
      assert.ok(kubeconfig, p.output());
      const config = new KubeConfig();
      config.loadFromFile(kubeconfig);
      const pods = await config.makeApiClient(CoreV1Api).listNamespacedPod({ namespace: "default" });
      assert.ok(pods.items.length >= 12, "the cluster is still serving the demo's pods");
      p.child.kill("SIGINT");
      assert.equal(await within(p.exit, "the demo to exit after SIGINT", 15_000), 0, p.output());
    } finally {
      p.child.kill("SIGKILL");
    }
  });

  it("npm run example -- greeting: installs its CRDs into a cluster, reconciles, and stops on SIGINT; bad arguments exit 2", async () => {
    const bad = run(["examples/run.ts", "nosuch"]);
    assert.equal(await within(bad.exit, "the runner to refuse an unknown example", 15_000), 2);
    assert.match(bad.output(), /unknown example "nosuch"\nusage: npm run example -- <greeting\|pinot\|replicaset\|streams>/);

    const cluster = await LocalCluster.start();
    const p = run(["examples/run.ts", "greeting", "--kubeconfig", cluster.kubeconfigPath]);
    try {
      const client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "test" });
      const Greeting = { apiVersion: "greeting.example.com/v1", kind: "Greeting" };
      await waitFor(() => client.list(Greeting).then(() => true, () => false), "the runner to install the Greeting CRD", 20_000);
      await client.create({ ...Greeting, metadata: { name: "world", namespace: "default" }, spec: { name: "World" } });
      await waitFor(async () => ((await client.get<any>({ ...Greeting, name: "world", namespace: "default" })).status?.message === "Hello, World"),
        "the greeting operator to greet", 20_000);
      p.child.kill("SIGINT");
      assert.equal(await within(p.exit, "the runner to exit after SIGINT", 15_000), 0, p.output());
    } finally {
      p.child.kill("SIGKILL");
      await cluster.stop();
    }
  });
});
