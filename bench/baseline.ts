/**
 * `npm run bench -- baseline`: what importing costs before anything is cached. Each row is a
 * fresh `node --expose-gc` process that imports one thing, collects garbage and reports RSS and
 * heap: bare node, client-node's `KubeConfig` alone (`dist/config.js`, which every operator
 * needs), all of client-node, operator-runtime's main and testing entries (from `dist/` when
 * `npm run build` made it: what users load; from `src/` otherwise, where Node's type stripping
 * adds its own cost, shown by the empty `.ts` row), and an idle Manager (started, one
 * ConfigMap informer on an empty namespace, health server on) against a LocalCluster in this
 * process.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { LocalCluster } from "../src/testing/index.ts";

const root = fileURLToPath(new URL("../", import.meta.url));
const MB = 1024 * 1024;

/** A script that imports `specs`, optionally runs `then`, collects garbage and prints RSS and heap. */
function script(specs: string[], then = ""): string {
  return `${specs.map((s) => `await import(${JSON.stringify(s)});`).join("\n")}
${then}
for (let i = 0; i < 4; i++) globalThis.gc();
await new Promise((r) => setTimeout(r, 100));
globalThis.gc();
const m = process.memoryUsage();
process.stdout.write(JSON.stringify({ rss: m.rss, heap: m.heapUsed }));
process.exit(0);`;
}

async function measure(code: string, dir: string, env: Record<string, string> = {}): Promise<{ rss: number; heap: number }> {
  const file = path.join(dir, `m-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(file, code);
  const child = spawn(process.execPath, ["--expose-gc", file], { cwd: root, stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, ...env } });
  let out = "";
  for await (const chunk of child.stdout) out += String(chunk);
  const exit = await new Promise<number | null>((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once("exit", resolve)));
  if (exit !== 0) throw new Error(`baseline: ${file} exited with ${exit}`);
  return JSON.parse(out) as { rss: number; heap: number };
}

export async function run(): Promise<void> {
  // The scripts live in the repository so that bare specifiers resolve from its node_modules.
  const dir = mkdtempSync(path.join(root, ".bench-baseline-"));
  const url = (p: string) => pathToFileURL(path.join(root, p)).href;
  const built = existsSync(path.join(root, "dist/src/index.js"));
  const entry = built ? "dist/src" : "src";
  const ext = built ? "js" : "ts";
  writeFileSync(path.join(dir, "empty.ts"), "export const typed: number = 1;\n");
  const cluster = await LocalCluster.start();
  const kubeconfig = path.join(dir, "kubeconfig");
  writeFileSync(kubeconfig, cluster.kubeConfig.exportConfig());
  const idle = `
const { KubeConfig, Manager, ConfigMap, silentLogger } = await import(${JSON.stringify(url(`${entry}/index.${ext}`))});
const kubeConfig = new KubeConfig(); kubeConfig.loadFromFile(process.env.KUBECONFIG_FILE);
const mgr = new Manager({ kubeConfig, healthPort: 0, logger: silentLogger, recorder: false });
mgr.cache.informer(ConfigMap, { namespace: "default" });
await mgr.start();
await new Promise((r) => setTimeout(r, 500));`;
  const rows: [string, string][] = [
    ["bare node", script([])],
    ["client-node KubeConfig (dist/config.js)", script(["@kubernetes/client-node/dist/config.js"])],
    ["client-node (whole package)", script(["@kubernetes/client-node"])],
    ...(built ? [] : [["an empty .ts file (type stripping)", script([url(path.relative(root, path.join(dir, "empty.ts")))])] as [string, string]]),
    [`operator-runtime (${entry}/index.${ext})`, script([url(`${entry}/index.${ext}`)])],
    [`operator-runtime/testing (${entry}/testing/index.${ext})`, script([url(`${entry}/testing/index.${ext}`)])],
    ["idle Manager: started, one informer, health server", script([], idle)],
  ];
  try {
    console.log(`baseline memory after import and a full collection (fresh process each; ${built ? "dist/ as users load it" : "src/ with type stripping: run npm run build first for what users load"}):`);
    console.log("  what                                                  RSS MiB   heap MiB");
    for (const [name, code] of rows) {
      const m = await measure(code, dir, { KUBECONFIG_FILE: kubeconfig });
      console.log(`  ${name.padEnd(52)} ${(m.rss / MB).toFixed(1).padStart(7)}   ${(m.heap / MB).toFixed(1).padStart(8)}`);
    }
  } finally {
    await cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
