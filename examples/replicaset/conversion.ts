/**
 * The PodSet conversion webhook: `replicaset.example.com/v1alpha1` called the number of Pods
 * `spec.size`; `v1` (the hub, and the version stored) calls it `spec.replicas`. Everything
 * else is the same in both. The Manager serves it on `/convert`; the API server calls it
 * whenever a client reads or writes a version other than the stored one.
 */
import type { Manager } from "../../src/index.ts";
import type { KubeObject } from "../../src/index.ts";
import type { ConversionOptions } from "../../src/entries/webhook.ts";
import { PodSet } from "./operator.ts";

/** `spec` with `from` renamed to `to` (absent stays absent). */
function renamed(obj: KubeObject, from: string, to: string): KubeObject {
  const spec = obj["spec"] as Record<string, unknown> | undefined;
  if (spec === undefined || !(from in spec)) return obj;
  const { [from]: value, ...rest } = spec;
  return { ...obj, spec: { ...rest, [to]: value } };
}

/**
 * v1alpha1 ⇄ v1 (hub). The round trip is lossless: `checkRoundTrip(podSetConversion, obj)`
 * in test/examples/replicaset/conversion.int.test.ts proves it for both versions.
 */
export const podSetConversion: ConversionOptions = {
  hub: "v1",
  resource: "podsets",
  spokes: {
    v1alpha1: {
      toHub: (obj) => renamed(obj, "size", "replicas"),
      fromHub: (obj) => renamed(obj, "replicas", "size"),
    },
  },
};

/** Serves the PodSet conversion from `mgr` (its webhook server starts with it). */
export function registerPodSetConversion(mgr: Manager): void {
  mgr.conversion(PodSet, podSetConversion);
}
