/**
 * The owner kind of the sharded-process tests and the `shards` benchmark: `ShardOwner`
 * (shards.example.com/v1), namespaced, with a free-form spec (`rev` is what the tests bump to
 * make every owner change), and the helpers that install it and create owners.
 */
import { defineKind } from "../../../src/index.ts";
import type { KubeObject, ResourceClient } from "../../../src/index.ts";
import type { ObjectOf } from "../../../src/entries/client.ts";

/** What an owner asks for: `rev` is bumped to change every owner at once; `pad` adds bytes. */
export interface ShardOwnerSpec {
  rev: number;
  pad?: string;
}

/** The ShardOwner kind handle. */
export const ShardOwner = defineKind<ShardOwnerSpec>({ apiVersion: "shards.example.com/v1", kind: "ShardOwner" });
export type ShardOwner = ObjectOf<typeof ShardOwner>;

/** The ShardOwner CRD, ready to create. */
export const shardOwnerCrd: KubeObject = {
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: "shardowners.shards.example.com" },
  spec: {
    group: "shards.example.com",
    scope: "Namespaced",
    names: { plural: "shardowners", singular: "shardowner", kind: "ShardOwner" },
    versions: [{
      name: "v1", served: true, storage: true, subresources: { status: {} },
      schema: { openAPIV3Schema: { type: "object", properties: {
        spec: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
        status: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
      } } },
    }],
  },
};

/** The name of the ConfigMap child of owner `name`: its data carries the owner's generation. */
export const configMapOf = (name: string): string => `${name}-gen`;

const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Creates the CRD (and namespace `namespace`) and waits until the kind is served (bounded). */
export async function installShardOwner(client: ResourceClient, namespace: string): Promise<void> {
  await client.create(shardOwnerCrd);
  await client.create({ apiVersion: "v1", kind: "Namespace", metadata: { name: namespace } });
  for (let i = 0; ; i++) {
    try {
      await client.list(ShardOwner, { namespace, limit: 1 });
      return;
    } catch (err) {
      if (i >= 200) throw new Error(`the ShardOwner CRD is not served after 10 s: ${(err as Error).message}`);
      await delay(50);
    }
  }
}

/**
 * Runs `fn(i)` for i in 0…n-1 with at most `concurrency` at a time; rejects with the first
 * failure (after the ones in flight settled).
 */
export async function forEachConcurrently(n: number, concurrency: number, fn: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(concurrency, n) }, async () => {
    while (next < n) await fn(next++);
  }));
}

/** Creates owners `${prefix}0 … ${prefix}${n-1}` with `spec.rev = 0`; returns name → uid. */
export async function createOwners(client: ResourceClient, namespace: string, prefix: string, n: number, pad = ""): Promise<Map<string, string>> {
  const uids = new Map<string, string>();
  await forEachConcurrently(n, 32, async (i) => {
    const name = `${prefix}${i}`;
    const created = await client.create<ShardOwner>({ ...ShardOwner, metadata: { name, namespace }, spec: { rev: 0, ...(pad ? { pad } : {}) } });
    uids.set(name, created.metadata!.uid!);
  });
  return uids;
}

/** Sets `spec.rev` of the named owners (a merge patch each: their generation goes up by one). */
export async function bumpOwners(client: ResourceClient, namespace: string, names: string[], rev: number): Promise<void> {
  await forEachConcurrently(names.length, 32, async (i) => {
    await client.patch({ ...ShardOwner, name: names[i]!, namespace }, { spec: { rev } }, "merge");
  });
}
