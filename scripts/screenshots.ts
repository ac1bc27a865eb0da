/**
 * `npm run screenshots`: retakes the dashboard screenshots of README.md and docs/dashboard.md
 * (docs/images/dashboard-<view>.png) from the demo's Manager in headless Chromium (Debian's
 * `chromium`, or `CHROMIUM_PATH`), so they show the page as it is now:
 *
 * 1. starts the demo's Manager on LocalCluster, applies the samples and waits until they converged;
 * 2. deletes the Pinot broker's StatefulSet (the timeline then shows the DELETED trigger and the
 *    re-create), and makes the next reconcile's StatefulSet writes fail while the broker is
 *    scaled to 2 (the plan then shows that pending change as a diff);
 * 3. opens each view and saves it.
 */
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { applyDemoSamples, demoConverged, startDemoManager } from "../examples/demo-manager.ts";
import { Pinot } from "../examples/pinot/operator.ts";
import { launchBrowser } from "../test/support/browser.ts";

const root = fileURLToPath(new URL("../", import.meta.url));
const out = path.join(root, "docs", "images");
const NS = "default";
const PINOT = "pinot-simple";
const BROKER = `${PINOT}-pinot-broker`;

await mkdir(out, { recursive: true });
const demo = await startDemoManager({ dashboardPort: 0 });
const browser = await launchBrowser();
try {
  await applyDemoSamples(demo.client);
  await demoConverged(demo.client);
  await demo.client.delete({ apiVersion: "apps/v1", kind: "StatefulSet", namespace: NS, name: BROKER });
  await demoConverged(demo.client);

  const page = await browser.newPage({ viewport: { width: 1440, height: 860 } });
  await page.goto(demo.mgr.dashboardUrl!);
  await page.waitForSelector('[data-testid="live"][data-state="connected"]', { timeout: 30_000 });
  const shot = async (view: string) => {
    const file = path.join(out, `dashboard-${view}.png`);
    await page.screenshot({ path: file });
    console.log(`wrote ${path.relative(root, file)}`);
  };
  const open = async (view: string) => {
    await page.click(`a[data-view="${view}"]`);
    await page.waitForSelector(`section[data-view-root="${view}"]`, { state: "visible" });
  };

  await open("owners");
  await page.selectOption('select[data-testid="owners-controller"]', "pinot");
  await page.waitForSelector(`[data-testid="tree-row"][data-depth="1"][data-name="${BROKER}"]`, { timeout: 10_000 });
  await shot("owners");

  await open("timeline");
  const deleted = page.locator('[data-testid="timeline-row"]', { has: page.locator('[data-testid="trigger"]', { hasText: `${BROKER} DELETED` }) }).first();
  await deleted.waitFor({ timeout: 10_000 });
  await deleted.click();
  await page.waitForSelector('[data-testid="timeline-detail"] [data-testid="write"]', { timeout: 10_000 });
  await shot("timeline");

  await open("queue");
  await page.waitForSelector('[data-testid="informer-row"]', { timeout: 10_000 });
  await shot("queue");

  await open("events");
  await page.waitForSelector('[data-testid="event-row"]', { timeout: 10_000 });
  await shot("events");

  // A pending change: the broker scaled to 2 while the operator's real StatefulSet writes fail.
  demo.cluster.inject({ verb: "patch", resource: "statefulsets", dryRun: false, code: 500, times: Infinity });
  const pinot = await demo.client.get({ ...Pinot, namespace: NS, name: PINOT });
  const broker = pinot.spec.nodes.findIndex((n: { name: string }) => n.name === "pinot-broker");
  await demo.client.patch({ ...Pinot, namespace: NS, name: PINOT }, [{ op: "replace", path: `/spec/nodes/${broker}/replicas`, value: 2 }], "json");
  await open("plan");
  await page.selectOption('select[data-testid="plan-controller"]', "pinot");
  await page.fill('input[data-testid="plan-key"]', `${NS}/${PINOT}`);
  await page.click('button[data-testid="plan-run"]');
  await page.locator('[data-testid="plan-write"]', { hasText: BROKER }).first().waitFor({ timeout: 15_000 });
  await shot("plan");
  demo.cluster.clearFaults();

  await open("ownership");
  await page.waitForSelector('[data-testid="ownership-role"]', { timeout: 10_000 });
  await shot("ownership");
} finally {
  await browser.close();
  await demo.stop();
}
