/** Shared helpers of the cache tests: fast timings, a mirror check, an event tally, a Person CRD. */
import assert from "node:assert/strict";
import type { KubeObject, ResourceClient } from "../../src/client/index.ts";
import type { ReflectorTimings } from "../../src/cache/index.ts";
import type { Informer, InformerEventHandler } from "../../src/cache/types.ts";
import type { Cache } from "../../src/cache/index.ts";
import { waitFor } from "../support/wait.ts";

export const CONFIGMAP = { apiVersion: "v1", kind: "ConfigMap" } as const;
export const PERSON = { apiVersion: "example.com/v1", kind: "Person" } as const;

/** Small backoffs so recovery takes milliseconds; jitter kept on. */
export const FAST: ReflectorTimings = { initialBackoffMs: 5, maxBackoffMs: 50, backoffResetMs: 500 };

/** A ConfigMap. */
export function cm(namespace: string, name: string, data: Record<string, string> = { v: "0" }, labels?: Record<string, string>): KubeObject {
  return { apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace, ...(labels ? { labels } : {}) }, data };
}

/** `name@resourceVersion` of each object, sorted. */
export function versions(items: KubeObject[]): string[] {
  return items.map((o) => `${o.metadata?.namespace ?? ""}/${o.metadata?.name}@${o.metadata?.resourceVersion}`).sort();
}

/**
 * Waits until the cache's list of `kind` in `namespace` equals a fresh API list (names and
 * resourceVersions), and returns that state.
 */
export async function waitForMirror(cache: Cache, client: ResourceClient, namespace: string, kind: { apiVersion: string; kind: string } = CONFIGMAP, timeoutMs = 10_000): Promise<string[]> {
  let last: { cached: string[]; live: string[] } | undefined;
  try {
    return await waitFor(async () => {
      const live = versions((await client.listAll(kind, { namespace })).items);
      const cached = versions(await cache.list(kind, { namespace }));
      last = { cached, live };
      return JSON.stringify(cached) === JSON.stringify(live) ? live : undefined;
    }, `the cache to mirror ${kind.kind}s in ${namespace}`, timeoutMs);
  } catch (err) {
    if (last) assert.deepEqual(last.cached, last.live, (err as Error).message);
    throw err;
  }
}

/** Per-key counts of the events a handler saw. */
export class Tally<T extends KubeObject = KubeObject> {
  readonly adds = new Map<string, number>();
  readonly updates = new Map<string, number>();
  readonly deletes = new Map<string, number>();
  readonly log: string[] = [];
  initialAdds = 0;

  readonly handler: InformerEventHandler<T> = {
    add: (o, initial) => {
      if (initial) this.initialAdds++;
      this.#bump(this.adds, o, "add");
    },
    update: (oldObj, o) => {
      assert.equal(oldObj.metadata?.name, o.metadata?.name);
      this.#bump(this.updates, o, "update");
    },
    delete: (o) => this.#bump(this.deletes, o, "delete"),
  };

  /** Adds − deletes per key: 1 for an existing object, 0 for a deleted one. */
  balance(key: string): number {
    return (this.adds.get(key) ?? 0) - (this.deletes.get(key) ?? 0);
  }

  keys(): Set<string> {
    return new Set([...this.adds.keys(), ...this.deletes.keys()]);
  }

  #bump(map: Map<string, number>, o: KubeObject, what: string): void {
    const key = `${o.metadata?.namespace ?? ""}/${o.metadata?.name}`;
    map.set(key, (map.get(key) ?? 0) + 1);
    this.log.push(`${what} ${key}`);
  }
}

/** Asserts the tally agrees with the existing objects: balance 1 for each, 0 for the rest. */
export function assertBalanced(tally: Tally, existing: string[]): void {
  const live = new Set(existing.map((v) => v.slice(0, v.lastIndexOf("@"))));
  for (const key of new Set([...tally.keys(), ...live])) {
    assert.equal(tally.balance(key), live.has(key) ? 1 : 0, `adds − deletes of ${key}`);
  }
}

/** Waits until an informer's cached copy of `name` has resourceVersion `rv` (or is gone when rv is undefined). */
export function waitForVersion(informer: Informer, namespace: string, name: string, rv: string | undefined): Promise<unknown> {
  return waitFor(() => informer.get(name, namespace)?.metadata?.resourceVersion === rv || (rv === undefined && !informer.get(name, namespace)),
    `${namespace}/${name} at ${rv ?? "(deleted)"} in the cache`);
}

/** Creates a namespace. */
export async function namespace(client: ResourceClient, name: string): Promise<void> {
  await client.create({ apiVersion: "v1", kind: "Namespace", metadata: { name } });
}

/** Installs the Person CRD (example.com/v1, spec.firstName/surname) and waits until it is served. */
export async function installPerson(client: ResourceClient): Promise<void> {
  await client.create({
    apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition", metadata: { name: "people.example.com" },
    spec: {
      group: "example.com", scope: "Namespaced",
      names: { plural: "people", singular: "person", kind: "Person" },
      versions: [{
        name: "v1", served: true, storage: true,
        schema: { openAPIV3Schema: { type: "object", properties: {
          spec: { type: "object", properties: { firstName: { type: "string" }, surname: { type: "string" } } },
        } } },
      }],
    },
  });
  await waitFor(async () => (await client.resourceFor(PERSON)).plural === "people", "the Person CRD to be served");
}

/** A Person. */
export function person(namespace: string, name: string, firstName: string, surname: string): KubeObject {
  return { ...PERSON, metadata: { name, namespace }, spec: { firstName, surname } };
}
