/** Greetings and People as a person reads them: what the demo prints. */
import { findCondition } from "../../src/index.ts";
import type { ResourceClient } from "../../src/index.ts";
import { Greeting, PERSON_FINALIZER, Person } from "./kinds.ts";

/**
 * One line per Greeting (message, people, Ready and its reason) and per Person (name, whether
 * a greeting holds it, deleting), sorted by name.
 *
 * @example
 * ```ts
 * for (const line of await describeGreetings(client, "default")) console.log(line);
 * // Greeting doe-family: "Hello to the Doe family: Jane, John" people=[janed, johnd] Ready=True (Greeted)
 * // Person janed: Jane Doe, greeted
 * ```
 */
export async function describeGreetings(client: ResourceClient, namespace: string): Promise<string[]> {
  const [{ items: greetings }, { items: people }] = await Promise.all([
    client.listAll(Greeting, { namespace }),
    client.listAll(Person, { namespace }),
  ]);
  const byName = (a: { metadata?: { name?: string } }, b: { metadata?: { name?: string } }) => (a.metadata?.name ?? "").localeCompare(b.metadata?.name ?? "");
  return [
    ...greetings.sort(byName).map((g) => {
      const ready = findCondition(g.status?.conditions, "Ready");
      const people = g.status?.people ? ` people=[${g.status.people.join(", ")}]` : "";
      const message = g.status?.message !== undefined ? JSON.stringify(g.status.message) : "(no message)";
      return `Greeting ${g.metadata?.name}: ${message}${people} Ready=${ready?.status ?? "?"}${ready ? ` (${ready.reason})` : ""}`;
    }),
    ...people.sort(byName).map((p) => {
      const held = p.metadata?.finalizers?.includes(PERSON_FINALIZER) ? ", greeted" : "";
      const deleting = p.metadata?.deletionTimestamp ? ", deleting" : "";
      return `Person ${p.metadata?.name}: ${p.spec.firstName} ${p.spec.surname}${held}${deleting}`;
    }),
  ];
}
