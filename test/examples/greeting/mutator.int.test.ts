import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { ResourceClient } from "../../../src/index.ts";
import { brokenOperator, formatReport, mulberry32, runMutator } from "../../../examples/greeting/mutator.ts";
import { checkInvariants } from "../../../examples/greeting/invariants.ts";
import { describeGreetings } from "../../../examples/greeting/show.ts";
import { operator } from "../../../examples/greeting/operator.ts";
import { Greeting, PERSON_FINALIZER, Person } from "../../../examples/greeting/kinds.ts";
import { startLocalOperator } from "../../../examples/greeting/local.ts";
import type { LocalOperator } from "../../../examples/greeting/local.ts";
import { waitFor, within } from "../../support/wait.ts";
import { greeting, person } from "./fixtures.ts";

const run = promisify(execFile);
const FUZZ = fileURLToPath(new URL("../../../examples/greeting/fuzz.ts", import.meta.url));

describe("greeting example: the mutator", () => {
  let local: LocalOperator;
  before(async () => {
    local = await within(startLocalOperator(operator), "the operator to start", 15_000);
  });
  after(() => within(local.stop(), "stopping the operator and the cluster", 15_000));

  it("its PRNG is seeded: the same seed gives the same numbers, another seed others", () => {
    const a = mulberry32(7);
    const b = mulberry32(7);
    const first = [a(), a(), a()];
    assert.deepEqual([b(), b(), b()], first);
    assert.notDeepEqual([mulberry32(8)(), mulberry32(8)(), mulberry32(8)()], first);
    assert.ok(first.every((x) => x >= 0 && x < 1));
  });

  for (const seed of [1, 2, 3, 4, 5]) {
    it(`seed ${seed}: 15 steps of concurrent changes settle with every invariant holding`, async () => {
      const result = await runMutator({ seed, steps: 15, kubeConfig: local.cluster.kubeConfig, namespace: `seed-${seed}` });
      assert.ok(result.ok, formatReport(result));
      assert.ok(result.actions.length >= 15, "at least one action per step");
      assert.ok(result.actions.some((a) => a.includes("create Person") && a.endsWith("→ ok")), "it created People");
      const again = await runMutator({ seed, steps: 15, kubeConfig: local.cluster.kubeConfig, namespace: `seed-${seed}-again` });
      assert.deepEqual(again.actions.map(intent), result.actions.map(intent), "the seed alone decides the actions");
    });
  }

  it("the invariant checker catches wrong messages and lists, misplaced finalizers, People stuck deleting", async () => {
    const ns = "checker";
    const client = new ResourceClient({ kubeConfig: local.cluster.kubeConfig, fieldManager: "greeting-test" });
    const check = () => checkInvariants(client, ns);
    await client.create({ apiVersion: "v1", kind: "Namespace", metadata: { name: ns } });
    await client.create(person(ns, "janed", "Jane", "Doe"));
    await client.create(greeting(ns, "doe", { surname: "Doe" }));
    await waitFor(async () => (await check()).length === 0, "the operator to settle");
    // Stop the operator, then break by hand what it maintains.
    await local.restart(async () => {
      await client.patchStatus({ ...Greeting, name: "doe", namespace: ns }, { status: { message: "Hello to the Doe family" } }, "merge");
      const johnd = person(ns, "johnd", "John", "Doe");
      await client.create({ ...johnd, metadata: { ...johnd.metadata, finalizers: [PERSON_FINALIZER] } });
      assert.deepEqual(await check(), [
        'Greeting doe says "Hello to the Doe family", expected "Hello to the Doe family: Jane, John"',
        'Greeting doe lists ["janed"], expected ["janed","johnd"]',
        "Person johnd keeps the finalizer but no greeting lists it",
      ]);
      await client.patch({ ...Person, name: "janed", namespace: ns }, [{ op: "remove", path: "/metadata/finalizers" }], "json");
      assert.ok((await check()).includes("Person janed is listed by a greeting but lacks the finalizer"));
      await client.delete({ ...Person, name: "janed", namespace: ns });
      await client.delete({ ...Person, name: "johnd", namespace: ns });
      const broken = await check();
      assert.ok(broken.some((v) => v.startsWith("Person johnd is stuck deleting")), broken.join("\n"));
      assert.ok(broken.includes("a greeting lists Person janed, which does not exist"), broken.join("\n"));
    });
    await waitFor(async () => (await check()).length === 0, "the restarted operator to repair it");
    assert.deepEqual(await describeGreetings(client, ns), ['Greeting doe: "Hello to the Doe family" people=[] Ready=True (Greeted)']);
    await client.create(person(ns, "janed", "Jane", "Doe"));
    await client.create(person(ns, "ricks", "Rick", "Smith"));
    await waitFor(async () => (await client.get({ ...Greeting, name: "doe", namespace: ns })).status?.people?.length === 1, "doe to greet Jane");
    assert.deepEqual(await describeGreetings(client, ns), [
      'Greeting doe: "Hello to the Doe family: Jane" people=[janed] Ready=True (Greeted)',
      "Person janed: Jane Doe, greeted",
      "Person ricks: Rick Smith",
    ]);
  });

  it("a deliberately broken operator (family greetings forget a member) fails the run, with the action log", async () => {
    const result = await runMutator({ seed: 1, steps: 10, operator: brokenOperator, settleTimeoutMs: 1500 });
    assert.equal(result.ok, false);
    assert.ok(result.violations.some((v) => /^Greeting g\d says "Hello to the \w+ family.*", expected/.test(v)), result.violations.join("\n"));
    const report = formatReport(result);
    assert.match(report, /replay: npm run fuzz -- --seed 1 --steps 10/);
    for (const line of result.actions) assert.ok(report.includes(line));
  });

  it("npm run fuzz exits 0 when the invariants hold, and 1 with the seed and action log when one breaks", async () => {
    const ok = await run(process.execPath, [FUZZ, "--seed", "2", "--steps", "10"], { timeout: 30_000 });
    assert.match(ok.stdout, /^fuzz: seed 2, 10 steps, \d+ actions: all invariants hold/);
    const failed = await run(process.execPath, [FUZZ, "--seed", "1", "--steps", "10", "--break", "--settle-ms", "1500"], { timeout: 30_000 })
      .then(() => assert.fail("fuzz --break exited 0"), (err: { code: number; stderr: string }) => err);
    assert.equal(failed.code, 1);
    assert.match(failed.stderr, /invariant\(s\) broken/);
    assert.match(failed.stderr, /expected "Hello to the \w+ family: /);
    assert.match(failed.stderr, /replay: npm run fuzz -- --seed 1 --steps 10 --break/);
    assert.match(failed.stderr, /\n {2}step 1: \w+ (Person|Greeting) p?g?\d/);
  });
});

/** An action log line without its outcome (which timing may change). */
function intent(line: string): string {
  return line.slice(0, line.lastIndexOf(" → "));
}
