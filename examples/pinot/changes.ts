/**
 * JSON patches of the changes the demo and the tests walk through on a Pinot: one node's config,
 * every node's image, removing a node. Arrays of a custom resource cannot be merge-patched item
 * by item, so each change is a JSON patch addressed by index, with a `test` op that makes the
 * patch fail instead of changing the wrong entry if the list moved meanwhile.
 */
import type { Pinot } from "./types.ts";

/** One JSON patch operation. */
export type JsonPatchOp = { op: "test" | "replace"; path: string; value: unknown } | { op: "remove"; path: string };

/**
 * Replaces the `data` of the `pinotNodeConfig` entry named `name`: only the nodes using it roll.
 *
 * @example
 * ```ts
 * await client.patch({ ...Pinot, name: "pinot-simple", namespace: "default" },
 *   nodeConfigPatch(pinot, "broker", "pinot.broker.timeoutMs=30000"), "json");
 * ```
 */
export function nodeConfigPatch(pinot: Pinot, name: string, data: string): JsonPatchOp[] {
  const i = indexOf(pinot.spec.pinotNodeConfig, name, "spec.pinotNodeConfig");
  return [{ op: "test", path: `/spec/pinotNodeConfig/${i}/name`, value: name }, { op: "replace", path: `/spec/pinotNodeConfig/${i}/data`, value: data }];
}

/**
 * Sets the image of every `k8sConfig` entry: every node rolls, one node type after the other in
 * `deploymentOrder`. The entries are patched in reverse spec order, which changes nothing for
 * the result (one write) but shows the rollout follows `deploymentOrder`, not the patch.
 */
export function imagePatch(pinot: Pinot, image: string): JsonPatchOp[] {
  return pinot.spec.k8sConfig.map((_, i): JsonPatchOp => ({ op: "replace", path: `/spec/k8sConfig/${i}/image`, value: image })).reverse();
}

/** Removes the node named `name`: its ConfigMap, workload and Service are pruned, its claims kept. */
export function removeNodePatch(pinot: Pinot, name: string): JsonPatchOp[] {
  const i = indexOf(pinot.spec.nodes, name, "spec.nodes");
  return [{ op: "test", path: `/spec/nodes/${i}/name`, value: name }, { op: "remove", path: `/spec/nodes/${i}` }];
}

function indexOf(entries: readonly { name: string }[], name: string, field: string): number {
  const i = entries.findIndex((e) => e.name === name);
  if (i < 0) throw new Error(`${field} has no entry named "${name}"`);
  return i;
}
