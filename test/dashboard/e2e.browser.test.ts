/**
 * The dashboard as a person uses it: headless Chromium on the demo's Manager (every example
 * operator, on LocalCluster with workload simulation). The page loads, the owners tree shows the
 * Pinot cluster's children, deleting a child shows the trigger and the re-create in the
 * timeline within 2 s, the plan shows a pending change as a diff, and the console stays clean.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { applyDemoSamples, demoConverged, startDemoManager } from "../../examples/demo-manager.ts";
import type { DemoManager } from "../../examples/demo-manager.ts";
import { Pinot } from "../../examples/pinot/operator.ts";
import { collectConsoleProblems, launchBrowser } from "../support/browser.ts";

/** The page's DOM, as far as these tests read it (the project's TypeScript has no DOM library). */
interface Element {
  querySelector(selector: string): { textContent: string | null } | null;
  getAttribute(name: string): string | null;
}
declare const document: { querySelectorAll(selector: string): ArrayLike<Element> & Iterable<Element> };

const NS = "default";
const PINOT = "pinot-simple";
const BROKER = `${PINOT}-pinot-broker`;

let demo: DemoManager;
let browser: Browser;
let page: Page;
let problems: string[];

before(async () => {
  demo = await startDemoManager({ dashboardPort: 0 });
  await applyDemoSamples(demo.client);
  await demoConverged(demo.client);
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  problems = collectConsoleProblems(page);
  await page.goto(demo.mgr.dashboardUrl!);
});

after(async () => {
  await browser?.close();
  await demo?.stop();
});

/** Opens a view by its nav link. */
async function open(view: string): Promise<void> {
  await page.click(`a[data-view="${view}"]`);
  await page.waitForSelector(`section[data-view-root="${view}"]`, { state: "visible" });
}

test("the page loads on the demo's Manager and follows it live", async () => {
  assert.equal(await page.title(), "operator-runtime dashboard");
  await page.waitForSelector('[data-testid="live"][data-state="connected"]', { timeout: 10_000 });
  for (const view of ["owners", "timeline", "queue", "events", "plan", "ownership"]) {
    assert.equal(await page.locator(`a[data-view="${view}"]`).count(), 1, `a nav link to ${view}`);
  }
});

test("the owners tree shows the Pinot cluster and its children", async () => {
  await open("owners");
  await page.selectOption('select[data-testid="owners-controller"]', "pinot");
  const primary = page.locator(`[data-testid="tree-row"][data-depth="0"][data-kind="Pinot"][data-name="${PINOT}"]`);
  await primary.waitFor({ timeout: 10_000 });
  const children = page.locator('[data-testid="tree-row"][data-depth="1"]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="tree-row"][data-depth="1"]').length >= 12, undefined, { timeout: 10_000 });
  const shown = await children.evaluateAll((rows) => rows.map((r) => `${r.getAttribute("data-kind")}/${r.getAttribute("data-name")} ${r.getAttribute("data-action")}`));
  const live = await Promise.all(["ConfigMap", "Service", "StatefulSet"].map(async (kind) =>
    (await demo.client.list({ apiVersion: kind === "StatefulSet" ? "apps/v1" : "v1", kind }, { namespace: NS })).items
      .filter((o) => o.metadata?.ownerReferences?.some((r) => r.kind === "Pinot" && r.name === PINOT))
      .map((o) => `${kind}/${o.metadata!.name}`)));
  for (const name of live.flat()) {
    assert.ok(shown.some((s) => s.startsWith(`${name} `)), `the tree shows ${name} (it shows ${shown.join(", ")})`);
  }
  assert.ok(shown.some((s) => s === `StatefulSet/${BROKER} keep`), `the broker StatefulSet is kept: ${shown.join(", ")}`);
});

test("deleting a child shows its DELETED trigger and the re-create in the timeline within 2 s", async () => {
  await open("timeline");
  await page.selectOption('select[data-testid="timeline-controller-filter"]', "pinot");
  const old = await demo.client.get({ apiVersion: "apps/v1", kind: "StatefulSet", namespace: NS, name: BROKER });
  const t0 = performance.now();
  await demo.client.delete({ apiVersion: "apps/v1", kind: "StatefulSet", namespace: NS, name: BROKER });
  const row = page.locator('[data-testid="timeline-row"][data-controller="pinot"]', {
    has: page.locator('[data-testid="trigger"]', { hasText: `StatefulSet ${NS}/${BROKER} DELETED` }),
  }).first();
  await row.waitFor({ timeout: 2000 });
  // Ended (not running any more), with the StatefulSet written again.
  await page.waitForFunction((broker) => [...document.querySelectorAll('[data-testid="timeline-row"]')].some((r) =>
    r.querySelector('[data-testid="trigger"]')?.textContent?.includes(`${broker} DELETED`) && !["running", "error"].includes(r.getAttribute("data-outcome") ?? "")),
  BROKER, { timeout: Math.max(1, 2000 - (performance.now() - t0)) });
  const elapsed = performance.now() - t0;
  assert.ok(elapsed <= 2000, `shown after ${Math.round(elapsed)} ms`);
  // Its writes: the StatefulSet created again.
  await row.click();
  const detail = page.locator('[data-testid="timeline-detail"]');
  await detail.locator('[data-testid="write"]', { hasText: BROKER }).first().waitFor({ timeout: 2000 });
  const text = await detail.innerText();
  assert.match(text, /create/i);
  assert.match(text, new RegExp(`StatefulSet[^\\n]*${BROKER}|${BROKER}[^\\n]*StatefulSet`));
  const again = await demo.client.get({ apiVersion: "apps/v1", kind: "StatefulSet", namespace: NS, name: BROKER });
  assert.notEqual(again.metadata?.uid, old.metadata?.uid, "re-created (a new UID)");
});

test("the plan shows the pending change of a reconcile that keeps failing, as a diff", async () => {
  // The operator's real StatefulSet writes fail; the plan's dry runs go through.
  demo.cluster.inject({ verb: "patch", resource: "statefulsets", dryRun: false, code: 500, times: Infinity });
  try {
    const pinot = await demo.client.get({ ...Pinot, namespace: NS, name: PINOT });
    const brokerIndex = pinot.spec.nodes.findIndex((n: { name: string }) => n.name === "pinot-broker");
    await demo.client.patch({ ...Pinot, namespace: NS, name: PINOT }, [{ op: "replace", path: `/spec/nodes/${brokerIndex}/replicas`, value: 2 }], "json");
    await open("plan");
    await page.selectOption('select[data-testid="plan-controller"]', "pinot");
    await page.fill('input[data-testid="plan-key"]', `${NS}/${PINOT}`);
    await page.click('button[data-testid="plan-run"]');
    const write = page.locator('[data-testid="plan-write"]', { hasText: BROKER }).first();
    await write.waitFor({ timeout: 10_000 });
    const diff = await write.locator('[data-testid="diff"]').innerText();
    assert.match(diff, /\/spec\/replicas/);
    assert.match(diff, /1[\s\S]*2/);
    const object = page.locator(`[data-testid="plan-object"][data-kind="StatefulSet"][data-name="${BROKER}"]`);
    assert.equal(await object.getAttribute("data-action"), "updated");
    // Nothing was written: the live StatefulSet still has 1 replica.
    const live = await demo.client.get({ apiVersion: "apps/v1", kind: "StatefulSet", namespace: NS, name: BROKER });
    assert.equal((live as { spec?: { replicas?: number } }).spec?.replicas, 1);
  } finally {
    demo.cluster.clearFaults();
  }
});

test("no console errors or warnings", () => {
  assert.deepEqual(problems, []);
});
