/**
 * The advanced Greeting operator (after foperator's AdvancedMain Greeting example): a Greeting greets one person (`spec.name`) or a
 * whole family (`spec.surname`: every Person of that surname in its namespace), and a Person
 * cannot go away while a Greeting greets it.
 *
 * Two controllers share the Manager's caches:
 * - `greeting-greetings` reconciles Greetings. It reads the family from the Person cache's
 *   surname index (never a List per reconcile), puts the finalizer on each member before naming
 *   it in `status.people`, and writes `status` (message, people, `Ready`) only when it changes.
 *   It watches People: a Person's change re-reconciles the Greetings of its surname (old and
 *   new) and those that greet it, found through the Greeting cache's indexes.
 * - `greeting-people` reconciles People: it removes the finalizer once no Greeting greets the
 *   Person (nor is about to: a live Person with a valid Greeting of its surname keeps it). It
 *   watches Greetings and maps each to the People it lists and to its family, so a Greeting
 *   that stops greeting someone (or never got to) releases them at once — no retry loop while
 *   a Person is still greeted.
 *
 * A Person being deleted (deletionTimestamp set) is no longer greeted; once every Greeting has
 * dropped it, its finalizer goes and the deletion completes.
 */
import { Action, isNotFound, writeStatus } from "../../src/index.ts";
import { requestFor } from "../../src/entries/controller.ts";
import type { Manager, ResourceClient } from "../../src/index.ts";
import type { ExampleOperator } from "../example.ts";
import { Greeting, PERSON_FINALIZER, Person, crds, samples } from "./kinds.ts";
import type { GreetingSpec } from "./kinds.ts";

/** Index of People (by `<namespace>/<surname>`) and of Greetings (by their `spec.surname`). */
const SURNAME_INDEX = "greeting.example.com/surname";
/** Index of Greetings by the People they greet (`<namespace>/<person name>` of `status.people`). */
const GREETS_INDEX = "greeting.example.com/greets";

/** Options of {@link createOperator}. */
export interface GreetingOperatorOptions {
  /**
   * How a family is greeted, given its surname and its members sorted by first name (default
   * {@link familyGreeting}). The mutator's self-test passes a wrong one to prove that it notices.
   */
  greetFamily?: (surname: string, family: readonly Person[]) => string;
}

/**
 * foperator's family greeting: `Hello to the Doe family: Jane, John` (first names in the given
 * order), or `Hello to the Doe family` when nobody has that surname.
 *
 * @example
 * ```ts
 * familyGreeting("Doe", [jane, john]); // "Hello to the Doe family: Jane, John"
 * ```
 */
export function familyGreeting(surname: string, family: readonly Person[]): string {
  const names = family.map((p) => p.spec.firstName);
  return names.length === 0 ? `Hello to the ${surname} family` : `Hello to the ${surname} family: ${names.join(", ")}`;
}

/** Orders People by first name, then by object name (two Johns keep a stable order). */
export function byFirstName(a: Person, b: Person): number {
  const first = compare(a.spec.firstName, b.spec.firstName);
  return first !== 0 ? first : compare(a.metadata?.name ?? "", b.metadata?.name ?? "");
}

/**
 * Why a Greeting spec is invalid (a CamelCase reason and a message), or undefined when exactly
 * one of `name` and `surname` is set.
 *
 * @example
 * ```ts
 * greetingProblem({ name: "Ada", surname: "Doe" })?.reason; // "BothNameAndSurname"
 * ```
 */
export function greetingProblem(spec: GreetingSpec | undefined): { reason: string; message: string } | undefined {
  const name = spec?.name !== undefined;
  const surname = spec?.surname !== undefined;
  if (name && surname) return { reason: "BothNameAndSurname", message: "set exactly one of spec.name and spec.surname, not both" };
  if (!name && !surname) return { reason: "NoNameOrSurname", message: "set exactly one of spec.name and spec.surname; neither is set" };
  return undefined;
}

/**
 * The advanced operator, with its controllers `greeting-greetings` and `greeting-people`.
 *
 * RBAC (declared on the controllers; `operator-runtime gen rbac examples/greeting/manager.ts`
 * prints it): get/list/watch greetings and people; patch greetings/status; patch people
 * (finalizers); create/patch events.events.k8s.io.
 *
 * @example
 * ```ts
 * const mgr = new Manager({ kubeConfig, fieldManager: "greeting-operator" });
 * createOperator().register(mgr);
 * await mgr.runUntilSignal();
 * ```
 */
export function createOperator(options: GreetingOperatorOptions = {}): ExampleOperator {
  const greetFamily = options.greetFamily ?? familyGreeting;
  return {
    name: "greeting",
    description: "greets a person by name, or every Person of a surname, and keeps greeted People from going away",
    crds,
    samples,
    register(mgr) {
      const people = mgr.cache.informer(Person);
      const greetings = mgr.cache.informer(Greeting);
      people.addIndex(SURNAME_INDEX, (p) => [familyKey(namespaceOf(p), p.spec.surname)]);
      greetings.addIndex(SURNAME_INDEX, (g) => (g.spec?.surname !== undefined ? [familyKey(namespaceOf(g), g.spec.surname)] : []));
      greetings.addIndex(GREETS_INDEX, (g) => (g.status?.people ?? []).map((name) => `${namespaceOf(g)}/${name}`));
      const greetingsOf = (p: Person) => [
        ...greetings.byIndex(SURNAME_INDEX, familyKey(namespaceOf(p), p.spec.surname)),
        ...greetings.byIndex(GREETS_INDEX, `${namespaceOf(p)}/${p.metadata?.name}`),
      ];
      // Whom a Greeting greets or is about to greet: the People it lists and its family. A change
      // to it (its deletion included) may release any of them.
      const peopleOf = (g: Greeting) => {
        const listed = (g.status?.people ?? []).map((name) => people.get(name, namespaceOf(g))).filter((p) => p !== undefined);
        const family = g.spec?.surname !== undefined ? people.byIndex(SURNAME_INDEX, familyKey(namespaceOf(g), g.spec.surname)) : [];
        return [...listed, ...family];
      };
      /** The last invalid version warned about, per Greeting: one Warning event per problem. */
      const warned = new Map<string, string>();

      mgr.controller("greeting-greetings")
        .for(Greeting, { status: ["patch"] }) // writeStatus
        .watches(Person, (p) => greetingsOf(p).map(requestFor), { verbs: ["patch"] }) // adds its finalizer
        .reconcile(async (req) => {
          const key = `${req.namespace}/${req.name}`;
          const greeting = greetings.get(req.name, req.namespace);
          if (!greeting || greeting.metadata?.deletionTimestamp) {
            warned.delete(key);
            return Action.done();
          }
          const problem = greetingProblem(greeting.spec);
          if (problem) {
            const { written } = await writeStatus(mgr.client, greeting, { message: null, people: null }, {
              conditions: [{ type: "Ready", status: "False", ...problem }],
            });
            const version = `${greeting.metadata?.uid}/${greeting.metadata?.generation}/${problem.reason}`;
            if (written && warned.get(key) !== version) {
              warned.set(key, version);
              await mgr.recorder?.record(greeting, { type: "Warning", reason: problem.reason, action: "Validate", note: problem.message });
            }
            return Action.done();
          }
          warned.delete(key);
          const ready = { type: "Ready", status: "True", reason: "Greeted" } as const;
          if (greeting.spec.name !== undefined) {
            await greet(mgr, greeting, `Hello, ${greeting.spec.name}`, null, { ...ready, message: "greets one person" });
            return Action.done();
          }
          const surname = greeting.spec.surname!;
          const family = people.byIndex(SURNAME_INDEX, familyKey(req.namespace, surname))
            .filter((p) => !p.metadata?.deletionTimestamp)
            .sort(byFirstName);
          for (const person of family) await keepWhileGreeted(mgr.client, person);
          await greet(mgr, greeting, greetFamily(surname, family), family.map((p) => p.metadata!.name!),
            { ...ready, message: `greets ${family.length} ${family.length === 1 ? "person" : "people"}` });
          return Action.done();
        });

      mgr.controller("greeting-people")
        .for(Person, { verbs: ["patch"] }) // removes its finalizer
        .watches(Greeting, (g) => peopleOf(g).map(requestFor))
        .reconcile(async (req) => {
          const person = people.get(req.name, req.namespace);
          const index = person?.metadata?.finalizers?.indexOf(PERSON_FINALIZER) ?? -1;
          if (!person || index < 0) return Action.done();
          if (greetings.byIndex(GREETS_INDEX, `${req.namespace}/${req.name}`).length > 0) return Action.done();
          const aboutToBeGreeted = !person.metadata?.deletionTimestamp &&
            greetings.byIndex(SURNAME_INDEX, familyKey(req.namespace, person.spec.surname))
              .some((g) => !g.metadata?.deletionTimestamp && !greetingProblem(g.spec));
          if (aboutToBeGreeted) return Action.done();
          await mgr.client.patch({ ...Person, name: req.name, namespace: req.namespace }, [
            { op: "test", path: `/metadata/finalizers/${index}`, value: PERSON_FINALIZER },
            { op: "remove", path: `/metadata/finalizers/${index}` },
          ], "json").catch(ignoreGone);
          return Action.done();
        });
    },
  };
}

/** The advanced operator, as `npm run example -- greeting` and the demo run it. */
export const operator: ExampleOperator = createOperator();

/** Writes a valid Greeting's status (when it changed) and a Normal event when its message changed. */
async function greet(mgr: Manager, greeting: Greeting, message: string, people: string[] | null,
  ready: { type: string; status: "True"; reason: string; message: string }): Promise<void> {
  const { written } = await writeStatus(mgr.client, greeting, { message, people }, { conditions: [ready] });
  if (written && greeting.status?.message !== message) {
    await mgr.recorder?.record(greeting, { type: "Normal", reason: "Greeted", action: "Greet", note: message });
  }
}

/**
 * Puts the finalizer on a Person about to be greeted. The patch tests the resourceVersion the
 * family was computed from: if the Person changed meanwhile (deleted, renamed), it fails and the
 * reconcile runs again on the newer copy.
 */
async function keepWhileGreeted(client: ResourceClient, person: Person): Promise<void> {
  const m = person.metadata!;
  if (m.finalizers?.includes(PERSON_FINALIZER)) return;
  await client.patch({ ...Person, name: m.name!, namespace: m.namespace! }, [
    { op: "test", path: "/metadata/resourceVersion", value: m.resourceVersion },
    { op: "add", path: "/metadata/finalizers", value: [...(m.finalizers ?? []), PERSON_FINALIZER] },
  ], "json");
}

function namespaceOf(obj: { metadata?: { namespace?: string } }): string {
  return obj.metadata?.namespace ?? "";
}

function familyKey(namespace: string, surname: string): string {
  return `${namespace}/${surname}`;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function ignoreGone(err: unknown): void {
  if (!isNotFound(err)) throw err;
}
