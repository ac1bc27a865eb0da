import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { LocalCluster } from "../../src/testing/index.ts";
import { within } from "../support/wait.ts";
import { KNOWN_DIFFERENCES } from "./known-differences.ts";

const here = path.dirname(fileURLToPath(import.meta.url));

interface CaseResult {
  area: string;
  case: string;
  verdict: "SAME" | "MF" | "DIFF";
}

function runDiff(url: string, out: string): Promise<string> {
  const args = [path.join(here, "diff.py"), "--recorded", path.join(here, "kube-apiserver-1.36.2.json"), "--no-bookmarks", "--json", out, url];
  return new Promise((resolve, reject) => {
    execFile("python3", args, { maxBuffer: 16 * 1024 * 1024, timeout: 240_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`diff.py failed: ${err.message}\n${stderr}\n${stdout}`));
      else resolve(stdout);
    });
  });
}

describe("LocalCluster answers the recorded kube-apiserver v1.36.2 sequences", { timeout: 300_000 }, () => {
  let cluster: LocalCluster;
  let dir: string;
  before(async () => {
    cluster = await LocalCluster.start();
    dir = mkdtempSync(path.join(tmpdir(), "conformance-"));
  });
  after(async () => {
    await within(cluster.stop(), "cluster.stop()");
    rmSync(dir, { recursive: true, force: true });
  });

  it("differs only in the known, documented cases", { timeout: 300_000 }, async () => {
    const out = path.join(dir, "results.json");
    const stdout = await runDiff(cluster.url, out);
    const results = JSON.parse(readFileSync(out, "utf8")) as CaseResult[];
    assert.ok(results.length >= 62, `expected every recorded case to run, got ${results.length}`);
    const differing = results.filter((r) => r.verdict !== "SAME").map((r) => `${r.area}/${r.case}`).sort();
    const known = Object.keys(KNOWN_DIFFERENCES).sort();
    const report = stdout.split("\n").filter((l) => !l.startsWith("SAME")).join("\n");
    assert.deepEqual(differing, known, `cases differing from kube-apiserver v1.36.2 (SAME lines left out):\n${report}`);
    assert.ok(known.length <= 5, `at most 5 known differences, ${known.length} listed`);
  });
});
