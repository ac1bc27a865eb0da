/**
 * The invariants of the advanced Greeting operator once it has settled, checked from what the
 * API server holds. Written apart from the operator (its own message format and sort), so that
 * it is an oracle and not a copy.
 */
import { findCondition } from "../../src/index.ts";
import type { ResourceClient } from "../../src/index.ts";
import { Greeting, PERSON_FINALIZER, Person } from "./kinds.ts";

/**
 * Every broken invariant among the Greetings and People of `namespace` (none: `[]`):
 * - no Person is stuck deleting (a deleting Person is greeted by nobody, so its finalizer goes);
 * - a name greeting says `Hello, <name>` and lists nobody;
 * - a surname greeting lists exactly the live People of that surname, sorted by first name
 *   (then name), and says `Hello to the <surname> family: <first names>`;
 * - a valid greeting is `Ready=True` and its status is of its current generation;
 * - a greeting with both or neither of name and surname is `Ready=False`, says and lists nothing;
 * - exactly the People some greeting lists carry the finalizer.
 *
 * @example
 * ```ts
 * const broken = await checkInvariants(client, "fuzz-7");
 * if (broken.length > 0) console.error(broken.join("\n"));
 * ```
 */
export async function checkInvariants(client: ResourceClient, namespace: string): Promise<string[]> {
  const [{ items: people }, { items: greetings }] = await Promise.all([
    client.listAll(Person, { namespace }),
    client.listAll(Greeting, { namespace }),
  ]);
  const broken: string[] = [];
  const live = people.filter((p) => !p.metadata?.deletionTimestamp);
  for (const p of people) {
    if (p.metadata?.deletionTimestamp) broken.push(`Person ${p.metadata.name} is stuck deleting (finalizers: ${JSON.stringify(p.metadata.finalizers ?? [])})`);
  }
  const greeted = new Set<string>();
  for (const g of greetings) {
    const name = g.metadata?.name;
    const status = g.status ?? {};
    const listed = status.people ?? [];
    for (const p of listed) greeted.add(p);
    const ready = findCondition(status.conditions, "Ready");
    const hasName = g.spec?.name !== undefined;
    const hasSurname = g.spec?.surname !== undefined;
    if (hasName === hasSurname) {
      if (ready?.status !== "False") broken.push(`Greeting ${name} (${hasName ? "both" : "neither"} name and surname) is not Ready=False: ${JSON.stringify(ready)}`);
      if (status.message !== undefined) broken.push(`Greeting ${name} is invalid but says ${JSON.stringify(status.message)}`);
      if (listed.length > 0) broken.push(`Greeting ${name} is invalid but lists ${JSON.stringify(listed)}`);
      continue;
    }
    let message: string;
    let expected: string[] = [];
    if (hasName) {
      message = `Hello, ${g.spec.name}`;
    } else {
      const family = live.filter((p) => p.spec.surname === g.spec.surname)
        .sort((a, b) => order(a.spec.firstName, b.spec.firstName) || order(a.metadata!.name!, b.metadata!.name!));
      expected = family.map((p) => p.metadata!.name!);
      message = family.length === 0
        ? `Hello to the ${g.spec.surname} family`
        : `Hello to the ${g.spec.surname} family: ${family.map((p) => p.spec.firstName).join(", ")}`;
    }
    if (status.message !== message) broken.push(`Greeting ${name} says ${JSON.stringify(status.message)}, expected ${JSON.stringify(message)}`);
    if (JSON.stringify(listed) !== JSON.stringify(expected)) broken.push(`Greeting ${name} lists ${JSON.stringify(listed)}, expected ${JSON.stringify(expected)}`);
    if (ready?.status !== "True") broken.push(`Greeting ${name} is not Ready=True: ${JSON.stringify(ready)}`);
    if (status.observedGeneration !== g.metadata?.generation || ready?.observedGeneration !== g.metadata?.generation) {
      broken.push(`Greeting ${name} is at generation ${g.metadata?.generation} but its status (Ready) observed ${status.observedGeneration} (${ready?.observedGeneration})`);
    }
  }
  for (const p of people) {
    const has = p.metadata?.finalizers?.includes(PERSON_FINALIZER) ?? false;
    const name = p.metadata!.name!;
    if (has && !greeted.has(name)) broken.push(`Person ${name} keeps the finalizer but no greeting lists it`);
    if (!has && greeted.has(name)) broken.push(`Person ${name} is listed by a greeting but lacks the finalizer`);
  }
  for (const name of greeted) {
    if (!people.some((p) => p.metadata?.name === name)) broken.push(`a greeting lists Person ${name}, which does not exist`);
  }
  return broken;
}

function order(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
