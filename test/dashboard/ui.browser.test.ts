/**
 * The dashboard page in headless Chromium against a fake server (test/dashboard/fake-server.ts):
 * every view's hooks, the virtualized timeline, live stream updates, filters, the plan view, the
 * owners tree refetch, and no console problems.
 */
import assert from "node:assert/strict";
import { after, afterEach, before, describe, test } from "node:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { describeTrigger } from "../../src/controller/triggers.ts";
import type { ReconcileRecord } from "../../src/dashboard/types.ts";
import { collectConsoleProblems, launchBrowser } from "../support/browser.ts";
import { cannedData, cannedOwners, replicasWrite, startFakeDashboard, type FakeDashboard } from "./fake-server.ts";

const RECORDS = 5000;
/** The history of tests about something else (a smaller hello loads faster). */
const LIGHT = 100;

// What the predicates run in the page see (this project's tsconfig has no DOM lib). Predicates
// are functions, never strings: the page's CSP (script-src 'self') forbids the eval a string needs.
interface PageElement {
  textContent: string | null;
  getAttribute(name: string): string | null;
}
declare const document: { querySelectorAll(s: string): { length: number }; querySelector(s: string): PageElement | null };
declare const window: { liveStates: string[] };
declare class MutationObserver {
  constructor(fn: () => void);
  observe(target: PageElement, options: { attributes: boolean }): void;
}

describe("dashboard page", () => {
  let browser: Browser;
  let fake: FakeDashboard;
  let context: BrowserContext | undefined;
  let problems: string[] = [];
  /** Console messages a test expects (a 5xx answer is logged by Chromium as a failed resource). */
  let allowed: RegExp[] = [];

  before(async () => {
    [browser, fake] = await Promise.all([launchBrowser(), startFakeDashboard(cannedData(RECORDS))]);
  });
  after(async () => {
    await browser?.close();
    await fake?.close();
  });
  afterEach(async () => {
    await context?.close();
    context = undefined;
    const unexpected = problems.filter((p) => !allowed.some((re) => re.test(p)));
    problems = [];
    allowed = [];
    fake.data = cannedData(RECORDS);
    assert.deepEqual(unexpected, [], "console errors or warnings");
  });

  /** A new page on `hash`, connected to the stream. */
  async function open(hash = ""): Promise<Page> {
    context = await browser.newContext({ viewport: { width: 1400, height: 800 } });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    problems = collectConsoleProblems(page);
    await page.goto(fake.url + hash);
    await page.waitForSelector('[data-testid="live"][data-state="connected"]');
    return page;
  }

  const count = (page: Page, selector: string) => page.locator(selector).count();
  /** Waits until `selector` matches exactly `n` elements. */
  const waitCount = (page: Page, selector: string, n: number) => page.waitForFunction(([s, n]) => document.querySelectorAll(s).length === n, [selector, n] as const);
  /** Waits until the text of `selector` is `text`. */
  const waitText = (page: Page, selector: string, text: string) => page.waitForFunction(([s, t]) => document.querySelector(s)?.textContent === t, [selector, text] as const);

  test("every view renders its hooks", async () => {
    const page = await open();
    assert.equal(await page.title(), "operator-runtime dashboard");
    // owners (the default view): the first controller, primaries expanded, children with actions
    assert.equal(await page.getAttribute('a[data-view="owners"]', "aria-current"), "page");
    assert.equal(await page.locator('select[data-testid="owners-controller"]').inputValue(), "pinot");
    await page.waitForSelector('[data-testid="tree-row"][data-depth="0"][data-name="pinot-b"]');
    const actions = await page.locator('[data-testid="tree-row"][data-depth="1"]').evaluateAll((els) => els.map((e) => e.getAttribute("data-action")));
    for (const a of ["keep", "update", "create", "foreign", "prune", "wait", "failed", "unknown"]) assert.ok(actions.includes(a), `a child with action ${a}: ${actions}`);
    assert.equal(await count(page, '[data-testid="tree-row"][data-depth="2"][data-kind="PersistentVolumeClaim"]'), 2);
    const broker = page.locator('[data-testid="tree-row"][data-depth="1"][data-kind="StatefulSet"][data-name="pinot-broker"]');
    assert.equal(await broker.getAttribute("data-state"), "ready");
    assert.match(await broker.innerText(), /CONFIG_HASH=01234567(?!8)/);
    assert.match(await page.locator('[data-testid="tree-row"][data-name="pinot-a"]').innerText(), /StatefulSet default\/pinot-broker DELETED/);
    // collapse pinot-a: its 7 descendants go
    const before = await count(page, '[data-testid="tree-row"]');
    await page.locator('[data-testid="tree-row"][data-name="pinot-a"] [data-testid="tree-toggle"]').click();
    await waitCount(page, '[data-testid="tree-row"]', before - 7);
    // clicking a primary offers its timeline and plan
    await page.locator('[data-testid="tree-row"][data-name="pinot-b"]').click();
    assert.equal(await page.getAttribute('[data-testid="owner-plan-link"]', "href"), "#plan?controller=pinot&key=default%2Fpinot-b");
    // the other controller
    await page.selectOption('select[data-testid="owners-controller"]', "greeting");
    await page.waitForSelector('[data-testid="tree-row"][data-kind="Greeting"][data-name="hello"]');

    // timeline
    await page.click('a[data-view="timeline"]');
    assert.equal(await page.getAttribute('a[data-view="timeline"]', "aria-current"), "page");
    assert.equal(await page.getAttribute('a[data-view="owners"]', "aria-current"), null);
    assert.ok(await page.isHidden('section[data-view-root="owners"]'));
    await page.waitForSelector(`[data-testid="timeline-row"][data-seq="${RECORDS}"]`);
    assert.equal(await page.locator('[data-testid="loop-count"]').innerText(), "1");
    const loop = page.locator(`[data-testid="timeline-row"][data-seq="${RECORDS - 5}"]`);
    assert.equal(await loop.getAttribute("data-loop"), "true");
    assert.equal(await loop.getAttribute("data-self"), "true");
    assert.equal(await loop.locator('[data-testid="trigger"]').innerText(), "StatefulSet default/pinot-broker MODIFIED (spec) [own write]");
    const self = page.locator(`[data-testid="timeline-row"][data-seq="${RECORDS - 10}"]`);
    assert.equal(await self.getAttribute("data-self"), "true");
    assert.equal(await self.getAttribute("data-loop"), "false");
    const requeue = page.locator(`[data-testid="timeline-row"][data-trigger-reason="requeue-after"]`).first();
    assert.equal(await requeue.locator('[data-testid="trigger"]').innerText(), "requeue-after 30000 ms");
    // a row's detail: writes with diffs
    await loop.click();
    const detail = page.locator('[data-testid="timeline-detail"]');
    await detail.waitFor();
    const diff = await detail.locator('[data-testid="write"] [data-testid="diff"]').innerText();
    assert.match(diff, /- \/spec\/replicas: 2\n\+ \/spec\/replicas: 3/);
    assert.match(diff, /\+ \/metadata\/labels\/tier: "broker"/);

    // queue & watches
    await page.click('a[data-view="queue"]');
    const card = page.locator('[data-testid="controller-card"][data-controller="pinot"]');
    assert.equal(await card.locator('[data-testid="queue-depth"]').innerText(), "4");
    assert.equal(await card.locator('[data-testid="queue-inflight"]').innerText(), "1");
    assert.equal(await count(page, '[data-testid="controller-card"]'), 2);
    assert.match(await page.locator('[data-testid="informer-row"][data-kind="StatefulSet"]').innerText(), /3\.0 MiB/);
    // stats messages update it in place
    const stats = fake.data.state;
    stats.controllers[0].queue.depth = 17;
    fake.send("stats", { now: Date.now(), controllers: stats.controllers, informers: stats.informers, ownership: stats.ownership });
    await waitText(page, '[data-controller="pinot"] [data-testid="queue-depth"]', "17");

    // events & log
    await page.click('a[data-view="events"]');
    await page.waitForSelector('[data-testid="event-row"][data-reason="ReconcileError"][data-kind="PinotCluster"]');
    assert.equal(await page.locator('[data-testid="log-count"]').innerText(), "(60)");
    assert.equal(await page.locator('[data-testid="event-count"]').innerText(), "(30)");
    const logRows = await count(page, '[data-testid="log-row"]');
    assert.ok(logRows > 5 && logRows < 60, `${logRows} log rows in the DOM: virtual`);
    await page.selectOption('select[data-testid="log-level-filter"]', "error");
    await waitText(page, '[data-testid="log-count"]', "(12)");
    assert.deepEqual(new Set(await page.locator('[data-testid="log-row"]').evaluateAll((els) => els.map((e) => e.getAttribute("data-level")))), new Set(["error"]));
    await page.fill('input[data-testid="events-key-filter"]', "pinot-b");
    await waitText(page, '[data-testid="event-count"]', "(15)");
    assert.deepEqual(new Set(await page.locator('[data-testid="event-row"]').evaluateAll((els) => els.map((e) => e.getAttribute("data-name")))), new Set(["pinot-b"]));

    // plan
    await page.click('a[data-view="plan"]');
    assert.equal(await page.locator('select[data-testid="plan-controller"]').inputValue(), "pinot");
    await waitCount(page, "#plan-keys option", 2);
    assert.ok(await page.isVisible('button[data-testid="plan-run"]'));
    assert.equal(await page.getAttribute('input[data-testid="plan-key"]', "list"), "plan-keys");

    // ownership
    await page.click('a[data-view="ownership"]');
    assert.equal(await page.locator('[data-testid="ownership-role"]').innerText(), "leader");
    assert.equal(await count(page, '[data-testid="bucket"]'), 64);
    assert.equal(await count(page, '[data-testid="bucket"][data-served="true"]'), 32);
    assert.equal(await page.getAttribute('[data-testid="bucket"][data-bucket="3"]', "data-owner"), "replica-b");
    assert.equal(await page.getAttribute('[data-testid="bucket"][data-bucket="4"]', "data-served"), "true");
  });

  test("the timeline renders only the visible rows of 5,000, and scrolling shows the oldest", async () => {
    const page = await open("#timeline");
    await page.waitForSelector(`[data-testid="timeline-row"][data-seq="${RECORDS}"]`);
    const rows = await count(page, '[data-testid="timeline-row"]');
    assert.ok(rows > 10 && rows < 100, `${rows} rows in the DOM`);
    assert.equal(await page.locator('[data-testid="timeline-row"]').first().getAttribute("data-seq"), String(RECORDS), "newest on top");
    assert.equal(await count(page, '[data-testid="timeline-row"][data-seq="1"]'), 0);
    // every row's trigger reads as describeTrigger writes it
    const shown = await page.locator('[data-testid="timeline-row"]').evaluateAll((els) => els.map((e) => [e.getAttribute("data-seq"), e.querySelector('[data-testid="trigger"]')?.textContent]));
    for (const [seq, text] of shown) assert.equal(text, describeTrigger(fake.data.history[Number(seq) - 1].trigger), `trigger of seq ${seq}`);
    await page.locator('[data-testid="timeline-list"]').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await page.waitForSelector('[data-testid="timeline-row"][data-seq="1"]');
    assert.ok((await count(page, '[data-testid="timeline-row"]')) < 100);
    assert.equal(await count(page, `[data-testid="timeline-row"][data-seq="${RECORDS}"]`), 0);
  });

  test("a reconcile message appears on top, and its end replaces it in place", async () => {
    const page = await open("#timeline");
    await page.waitForSelector(`[data-testid="timeline-row"][data-seq="${RECORDS}"]`);
    const running: ReconcileRecord = {
      seq: RECORDS + 1,
      controller: "pinot",
      key: "default/pinot-a",
      reconcileID: "live-1",
      trigger: { reason: "event", event: "DELETED", role: "owns", apiVersion: "apps/v1", kind: "StatefulSet", namespace: "default", name: "pinot-broker" },
      triggers: 1,
      queuedAt: Date.now() - 3,
      startedAt: Date.now(),
      waitMs: 3,
      outcome: "running",
      writes: [],
      selfTriggered: false,
      loop: false,
    };
    fake.send("reconcile", running);
    const row = page.locator(`[data-testid="timeline-row"][data-seq="${RECORDS + 1}"]`);
    await row.waitFor();
    assert.equal(await page.locator('[data-testid="timeline-row"]').first().getAttribute("data-seq"), String(RECORDS + 1));
    assert.equal(await row.getAttribute("data-outcome"), "running");
    assert.equal(await row.locator('[data-testid="trigger"]').innerText(), "StatefulSet default/pinot-broker DELETED");
    await row.click();
    await page.waitForSelector('[data-testid="timeline-detail"][data-outcome="running"]');

    fake.send("reconcile", { ...running, outcome: "done", endedAt: Date.now(), durationMs: 40, writes: [{ ...replicasWrite("pinot-broker"), verb: "create", diff: [{ op: "add", path: "/spec", value: { replicas: 3 } }] }] });
    await page.waitForSelector(`[data-testid="timeline-row"][data-seq="${RECORDS + 1}"][data-outcome="done"]`);
    assert.equal(await count(page, `[data-testid="timeline-row"][data-seq="${RECORDS + 1}"]`), 1);
    assert.equal(await page.locator('[data-testid="timeline-row"]').first().getAttribute("data-seq"), String(RECORDS + 1));
    // the open detail follows the record
    await page.waitForSelector('[data-testid="timeline-detail"][data-outcome="done"]');
    assert.match(await page.locator('[data-testid="timeline-detail"] [data-testid="diff"]').innerText(), /\+ \/spec: \{"replicas":3\}/);
  });

  test("the key and controller filters narrow the timeline, also from a deep link", async () => {
    const page = await open("#timeline");
    await page.waitForSelector(`[data-testid="timeline-row"][data-seq="${RECORDS}"]`);
    await page.fill('input[data-testid="timeline-key-filter"]', "special");
    await waitCount(page, '[data-testid="timeline-row"]', 3);
    assert.deepEqual(new Set(await page.locator('[data-testid="timeline-row"]').evaluateAll((els) => els.map((e) => e.getAttribute("data-key")))), new Set(["default/special"]));
    // a whole key matches only itself; a part of keys matches every key containing it
    await page.fill('input[data-testid="timeline-key-filter"]', "default/pinot-1");
    await waitText(page, '[data-testid="timeline-count"]', `100 of ${RECORDS} reconciles`);
    assert.deepEqual(new Set(await page.locator('[data-testid="timeline-row"]').evaluateAll((els) => els.map((e) => e.getAttribute("data-key")))), new Set(["default/pinot-1"]));
    await page.fill('input[data-testid="timeline-key-filter"]', "PINOT-1");
    await waitText(page, '[data-testid="timeline-count"]', `600 of ${RECORDS} reconciles`);
    await page.fill('input[data-testid="timeline-key-filter"]', "special");
    await waitCount(page, '[data-testid="timeline-row"]', 3);
    await page.selectOption('select[data-testid="timeline-controller-filter"]', "greeting");
    await waitCount(page, '[data-testid="timeline-row"]', 2);
    assert.deepEqual(await page.locator('[data-testid="timeline-row"]').evaluateAll((els) => els.map((e) => e.getAttribute("data-seq"))), [String(RECORDS), String(RECORDS - 2)]);

    await page.goto(`${fake.url}#timeline?key=default/pinot-a&controller=pinot`);
    await page.waitForSelector('[data-testid="live"][data-state="connected"]');
    assert.equal(await page.locator('input[data-testid="timeline-key-filter"]').inputValue(), "default/pinot-a");
    assert.equal(await page.locator('select[data-testid="timeline-controller-filter"]').inputValue(), "pinot");
    assert.equal(await count(page, '[data-testid="timeline-row"]'), 0);
    fake.send("reconcile", { ...fake.data.history[0], seq: RECORDS + 5, key: "default/pinot-a", controller: "pinot" });
    await page.waitForSelector(`[data-testid="timeline-row"][data-seq="${RECORDS + 5}"]`);
    assert.equal(await count(page, '[data-testid="timeline-row"]'), 1);
  });

  test("the plan view shows the writes with their diffs, no changes, and errors", async () => {
    allowed = [/Failed to load resource: the server responded with a status of 500/];
    fake.data = cannedData(LIGHT); // this test needs no long history
    const page = await open("#plan?controller=pinot&key=default/pinot-a");
    assert.equal(await page.locator('input[data-testid="plan-key"]').inputValue(), "default/pinot-a");
    await page.click('button[data-testid="plan-run"]');
    const result = page.locator('[data-testid="plan-result"]');
    await result.waitFor();
    assert.equal(await result.getAttribute("data-outcome"), "done");
    assert.equal(await page.getAttribute('[data-testid="plan-object"][data-name="pinot-server"]', "data-action"), "update");
    assert.equal(await count(page, '[data-testid="plan-write"]'), 1);
    assert.match(await page.locator('[data-testid="plan-write"] [data-testid="diff"]').innerText(), /- \/spec\/replicas: 2\n\+ \/spec\/replicas: 3/);
    assert.equal(await count(page, '[data-testid="plan-empty"]'), 0);
    assert.ok(fake.requests.includes("/api/plan?controller=pinot&key=default%2Fpinot-a"));

    await page.fill('input[data-testid="plan-key"]', "default/pinot-b");
    await page.click('button[data-testid="plan-run"]');
    await page.waitForSelector('[data-testid="plan-empty"]');
    assert.equal(await count(page, '[data-testid="plan-write"]'), 0);
    assert.equal(await page.getAttribute('[data-testid="plan-object"][data-name="pinot-server"]', "data-action"), "keep");

    await page.fill('input[data-testid="plan-key"]', "default/broken");
    await page.click('button[data-testid="plan-run"]');
    await page.waitForSelector('[data-testid="plan-error"]');
    assert.match(await page.locator('[data-testid="plan-error"]').innerText(), /admission webhook denied the request/);
    assert.equal(await count(page, '[data-testid="plan-result"]'), 0);
  });

  test("the owners tree refetches on an owners message and when a run of its controller ends", async () => {
    fake.data = cannedData(LIGHT); // this test needs no long history
    const page = await open("#owners");
    await page.waitForSelector('[data-testid="tree-row"][data-name="pinot-b"]');
    const fetches = () => fake.requests.filter((r) => r.startsWith("/api/owners?controller=pinot")).length;
    const first = fetches();
    const greeting = () => fake.requests.filter((r) => r.startsWith("/api/owners?controller=greeting")).length;
    const greetingBefore = greeting();

    const owners = cannedOwners();
    owners.pinot[1].children[0].action = "keep";
    owners.pinot.push({ ...owners.pinot[0], name: "pinot-c", key: "default/pinot-c", uid: "uid-pinot-c", children: [] });
    fake.data.owners = owners;
    // a burst of 20 messages (and one of another controller) costs at most a couple of fetches
    fake.send("owners", { controller: "greeting", key: "default/hello" });
    for (let i = 0; i < 20; i++) fake.send("owners", { controller: "pinot", key: "default/pinot-c" });
    await page.waitForSelector('[data-testid="tree-row"][data-depth="0"][data-name="pinot-c"]');
    await page.waitForSelector('[data-testid="tree-row"][data-name="pinot-b-old"][data-action="keep"]');
    assert.ok(fetches() > first);
    assert.ok(fetches() - first <= 3, `${fetches() - first} fetches for a burst of 20 owners messages`);
    assert.equal(greeting(), greetingBefore, "no fetch for another controller's tree");

    const second = fetches();
    owners.pinot.pop();
    fake.send("reconcile", { ...fake.data.history[0], seq: RECORDS + 9, controller: "pinot", outcome: "done" });
    await waitCount(page, '[data-testid="tree-row"][data-name="pinot-c"]', 0);
    assert.ok(fetches() > second);
  });

  test("older records are paged in from /api/timeline", async () => {
    fake.data.state.timeline = fake.data.history.slice(-500);
    const page = await open("#timeline");
    await page.waitForSelector(`[data-testid="timeline-row"][data-seq="${RECORDS}"]`);
    assert.equal(await page.locator('[data-testid="timeline-count"]').innerText(), "500 reconciles");
    await page.click('button[data-testid="timeline-older"]');
    await waitText(page, '[data-testid="timeline-count"]', "1000 reconciles");
    await page.locator('[data-testid="timeline-list"]').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await page.waitForSelector(`[data-testid="timeline-row"][data-seq="${RECORDS - 999}"]`);
    assert.ok(fake.requests.includes(`/api/timeline?before=${RECORDS - 499}&limit=500`), fake.requests.filter((r) => r.startsWith("/api/timeline")).join());
  });

  test("the live indicator shows a lost stream, and a new hello replaces the state", async () => {
    fake.data = cannedData(LIGHT); // this test needs no long history
    const page = await open("#queue");
    await waitText(page, '[data-controller="pinot"] [data-testid="queue-depth"]', "4");
    // record every state the indicator goes through (the reconnect after `retry: 100` is quick)
    await page.evaluate(() => {
      const live = document.querySelector('[data-testid="live"]')!;
      window.liveStates = [];
      new MutationObserver(() => window.liveStates.push(live.getAttribute("data-state") ?? "")).observe(live, { attributes: true });
    });
    fake.data.state.controllers[0].queue.depth = 9;
    fake.dropStreams();
    await page.waitForFunction(() => window.liveStates.includes("reconnecting") && window.liveStates.at(-1) === "connected");
    await waitText(page, '[data-controller="pinot"] [data-testid="queue-depth"]', "9");
  });

  test("the owners tree stays virtual with 3,000 rows", async () => {
    const many = cannedOwners();
    const template = many.pinot[0];
    fake.data = cannedData(LIGHT);
    many.pinot = Array.from({ length: 500 }, (_, i) => ({ ...template, name: `p-${i}`, key: `default/p-${i}`, uid: `u-${i}` }));
    fake.data.owners = many;
    const page = await open("#owners");
    await page.waitForSelector('[data-testid="tree-row"][data-name="p-0"]');
    const rows = await count(page, '[data-testid="tree-row"]');
    assert.ok(rows > 10 && rows < 100, `${rows} rows in the DOM of 3,500`);
    await page.locator('[data-testid="owners-tree"]').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await page.waitForSelector('[data-testid="tree-row"][data-depth="0"][data-name="p-499"]');
  });
});
