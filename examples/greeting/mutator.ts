/**
 * The mutator (the Greeting example's fuzzer): seeded random create / modify / delete of People and
 * Greetings, several at once, then a bounded wait for the operator to settle and a check of the
 * invariants ({@link checkInvariants}). The seed alone decides the actions, so a failing seed
 * reproduces with its action log.
 */
import { randomBytes } from "node:crypto";
import type { KubeConfig } from "@kubernetes/client-node";
import { ResourceClient, isNotFound } from "../../src/index.ts";
import type { KindRef } from "../../src/entries/client.ts";
import type { Manager } from "../../src/index.ts";
import type { ExampleOperator } from "../example.ts";
import { checkInvariants } from "./invariants.ts";
import { Greeting, Person } from "./kinds.ts";
import type { GreetingSpec } from "./kinds.ts";
import { startLocalOperator } from "./local.ts";
import type { LocalOperator } from "./local.ts";
import { createOperator, familyGreeting, operator as advancedOperator } from "./operator.ts";

/** Options of {@link runMutator}. */
export interface MutatorOptions {
  seed: number;
  /** Rounds of concurrent actions. */
  steps: number;
  /** At most this many actions run at once in a step (default 4). */
  concurrency?: number;
  /**
   * A cluster where the advanced operator already runs. Default: the mutator starts its own
   * LocalCluster and a Manager running `operator`.
   */
  kubeConfig?: KubeConfig;
  /** The operator to run on the mutator's own LocalCluster (default: the advanced one). */
  operator?: ExampleOperator;
  /** Namespace to work in, created when missing (default: `fuzz-<seed>-<random>`). */
  namespace?: string;
  /** How long to wait for the invariants to hold after the last step (default 30 000 ms). */
  settleTimeoutMs?: number;
}

/** What a run did and found. */
export interface MutatorResult {
  ok: boolean;
  seed: number;
  steps: number;
  namespace: string;
  /** One line per action and its outcome, in the order they were decided. */
  actions: string[];
  /** The invariants still broken when the settle time ran out (none when `ok`). */
  violations: string[];
}

/**
 * mulberry32: a tiny seeded PRNG; returns numbers in [0, 1).
 *
 * @example
 * ```ts
 * const rng = mulberry32(42);
 * rng() === mulberry32(42)(); // true
 * ```
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A deliberately wrong operator: its family greetings forget the last member. `fuzz --break`
 * runs it, and the tests, to prove the invariant checker notices a wrong message.
 */
export const brokenOperator: ExampleOperator = createOperator({ greetFamily: (surname, family) => familyGreeting(surname, family.slice(0, -1)) });

const PEOPLE = ["p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7"];
const GREETINGS = ["g0", "g1", "g2", "g3"];
const FIRST_NAMES = ["Ada", "Ben", "Cy", "Dee", "Eve"];
const SURNAMES = ["Doe", "Roe", "Poe"];

type Action =
  | { op: "create"; kind: "Person"; name: string; spec: { firstName: string; surname: string } }
  | { op: "update"; kind: "Person"; name: string; spec: { firstName: string } | { surname: string } }
  | { op: "create" | "update"; kind: "Greeting"; name: string; spec: GreetingSpec }
  | { op: "delete"; kind: "Person" | "Greeting"; name: string };

/** The actions of one step: decided by the PRNG alone. */
function nextActions(rng: () => number, concurrency: number): Action[] {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rng() * list.length)]!;
  const count = 1 + Math.floor(rng() * concurrency);
  const actions: Action[] = [];
  for (let i = 0; i < count; i++) {
    const roll = rng();
    const op = roll < 0.4 ? "create" : roll < 0.75 ? "update" : "delete";
    if (rng() < 0.6) {
      const name = pick(PEOPLE);
      if (op === "create") actions.push({ op, kind: "Person", name, spec: { firstName: pick(FIRST_NAMES), surname: pick(SURNAMES) } });
      else if (op === "update") actions.push({ op, kind: "Person", name, spec: rng() < 0.5 ? { firstName: pick(FIRST_NAMES) } : { surname: pick(SURNAMES) } });
      else actions.push({ op, kind: "Person", name });
    } else {
      const name = pick(GREETINGS);
      if (op === "delete") {
        actions.push({ op, kind: "Greeting", name });
        continue;
      }
      const shape = rng();
      const spec: GreetingSpec = shape < 0.45 ? { name: pick(FIRST_NAMES) }
        : shape < 0.9 ? { surname: pick(SURNAMES) }
          : shape < 0.95 ? { name: pick(FIRST_NAMES), surname: pick(SURNAMES) } : {};
      actions.push({ op, kind: "Greeting", name, spec });
    }
  }
  return actions;
}

function describe(a: Action): string {
  return `${a.op} ${a.kind} ${a.name}${"spec" in a ? ` ${JSON.stringify(a.spec)}` : ""}`;
}

/** Runs one action; its outcome is "ok" or the API's reason (NotFound, AlreadyExists, …). */
async function perform(client: ResourceClient, namespace: string, a: Action): Promise<string> {
  const kind: KindRef = a.kind === "Person" ? Person : Greeting;
  const ref = { ...kind, name: a.name, namespace };
  try {
    if (a.op === "delete") await client.delete(ref);
    else if (a.op === "create") await client.create({ ...kind, metadata: { name: a.name, namespace }, spec: a.spec });
    else if (a.kind === "Greeting") await client.patch(ref, { spec: { name: a.spec.name ?? null, surname: a.spec.surname ?? null } }, "merge");
    else await client.patch(ref, { spec: a.spec }, "merge");
    return "ok";
  } catch (err) {
    return (err as { reason?: string }).reason ?? (err as Error).message;
  }
}

/**
 * Runs the mutator: `steps` rounds of up to `concurrency` concurrent actions, then waits (at
 * most `settleTimeoutMs`) until the invariants hold and, on its own cluster, the controllers are
 * idle. Never throws for a broken invariant: the result says `ok: false` with the violations
 * and the action log ({@link formatReport} prints both).
 *
 * @example
 * ```ts
 * const result = await runMutator({ seed: 7, steps: 20 });
 * if (!result.ok) console.error(formatReport(result));
 * ```
 */
export async function runMutator(options: MutatorOptions): Promise<MutatorResult> {
  const { seed, steps } = options;
  const namespace = options.namespace ?? `fuzz-${seed}-${randomBytes(3).toString("hex")}`;
  let local: LocalOperator | undefined;
  let kubeConfig = options.kubeConfig;
  if (!kubeConfig) {
    local = await startLocalOperator(options.operator ?? advancedOperator);
    kubeConfig = local.cluster.kubeConfig;
  }
  try {
    const client = new ResourceClient({ kubeConfig, fieldManager: "greeting-mutator" });
    try {
      await client.create({ apiVersion: "v1", kind: "Namespace", metadata: { name: namespace } });
    } catch (err) {
      if ((err as { reason?: string }).reason !== "AlreadyExists") throw err;
    }
    const rng = mulberry32(seed);
    const actions: string[] = [];
    for (let step = 1; step <= steps; step++) {
      const batch = nextActions(rng, options.concurrency ?? 4);
      const outcomes = await Promise.all(batch.map((a) => perform(client, namespace, a)));
      batch.forEach((a, i) => actions.push(`step ${step}: ${describe(a)} → ${outcomes[i]}`));
    }
    const violations = await settle(client, namespace, local?.mgr, options.settleTimeoutMs ?? 30_000);
    if (violations.length === 0 && options.kubeConfig) await client.delete({ apiVersion: "v1", kind: "Namespace", name: namespace }).catch(ignoreNotFound);
    return { ok: violations.length === 0, seed, steps, namespace, actions, violations };
  } finally {
    await local?.stop();
  }
}

/** Polls the invariants until they hold (and `mgr`'s controllers are idle) or the time is up; returns the last violations. */
async function settle(client: ResourceClient, namespace: string, mgr: Manager | undefined, timeoutMs: number): Promise<string[]> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const busy = mgr?.controllers().some((c) => c.queue.len() > 0 || c.queue.processing() > 0) ?? false;
    const violations = busy ? ["the operator is still busy"] : await checkInvariants(client, namespace);
    if (violations.length === 0 || performance.now() > deadline) return violations;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A run as text: a one-line verdict; when it failed, the broken invariants and the action log
 * with the command that replays it (`replayFlags` are appended to it, e.g. `--concurrency 6`).
 */
export function formatReport(result: MutatorResult, options: { replayFlags?: string } = {}): string {
  const replay = `npm run fuzz -- --seed ${result.seed} --steps ${result.steps}${options.replayFlags ? ` ${options.replayFlags}` : ""}`;
  if (result.ok) return `fuzz: seed ${result.seed}, ${result.steps} steps, ${result.actions.length} actions: all invariants hold`;
  return [
    `fuzz: seed ${result.seed}, ${result.steps} steps: ${result.violations.length} invariant(s) broken in namespace ${result.namespace}:`,
    ...result.violations.map((v) => `  - ${v}`),
    `actions (replay: ${replay}):`,
    ...result.actions.map((a) => `  ${a}`),
  ].join("\n");
}

function ignoreNotFound(err: unknown): void {
  if (!isNotFound(err)) throw err;
}
