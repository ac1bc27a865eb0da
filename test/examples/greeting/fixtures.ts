/** Helpers of the Greeting example's tests: objects to create, events to read, an idle operator to wait for. */
import type { EventsV1Event } from "@kubernetes/client-node";
import { kindFromModel } from "../../../src/entries/client.ts";
import type { Manager, ResourceClient } from "../../../src/index.ts";
import type { ObjectOf } from "../../../src/entries/client.ts";
import { Greeting, Person } from "../../../examples/greeting/kinds.ts";
import type { GreetingSpec } from "../../../examples/greeting/kinds.ts";
import { waitFor } from "../../support/wait.ts";

const Event = kindFromModel<EventsV1Event>({ apiVersion: "events.k8s.io/v1", kind: "Event" });

/** A Person to create. */
export function person(namespace: string, name: string, firstName: string, surname: string): Person {
  return { ...Person, metadata: { name, namespace }, spec: { firstName, surname } };
}

/** A Greeting to create. */
export function greeting(namespace: string, name: string, spec: GreetingSpec): Greeting {
  return { ...Greeting, metadata: { name, namespace }, spec };
}

/** The Events recorded on one object. */
export async function eventsOn(client: ResourceClient, namespace: string, name: string): Promise<ObjectOf<typeof Event>[]> {
  const { items } = await client.listAll(Event, { namespace });
  return items.filter((e) => e.regarding?.name === name);
}

/** Waits until no controller of the Manager has work queued or running. */
export async function idle(mgr: Manager, what = "the controllers to be idle"): Promise<void> {
  await waitFor(() => mgr.controllers().every((c) => c.queue.len() === 0 && c.queue.processing() === 0), what);
}

/** Enqueues `name` on the Manager's controller `controller` and waits until every controller is idle. */
export async function reconcileAgain(mgr: Manager, controller: string, namespace: string, name: string): Promise<void> {
  const c = mgr.controllers().find((x) => x.name === controller);
  if (!c) throw new Error(`no controller ${controller}`);
  c.enqueue({ namespace, name });
  await idle(mgr, `${controller} to reconcile ${namespace}/${name} again`);
}
