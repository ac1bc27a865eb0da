/**
 * The replicaset example (after the client-go ReplicaSet-like controller sample): a `PodSet` custom resource keeps `spec.replicas` Pods made
 * from `spec.template`, like a ReplicaSet, and reports `replicas`, `readyReplicas` and a message
 * ("3/3 ready") in its status.
 *
 * The Pods are a variable set with generated names, so they are kept by a
 * `ReplicaSetReconciler` (the Builder is for objects with fixed names): it creates missing Pods
 * with `generateName` and the PodSet as controller, deletes surplus ones not-ready first, and
 * uses expectations so that a reconcile running before the cache shows its last writes never
 * creates or deletes twice.
 */
import { Pod, Action, defineKind, writeStatus } from "../../src/index.ts";
import { ReplicaSetReconciler } from "../../src/entries/controller.ts";
import type { BuilderEventRecorder } from "../../src/entries/builder.ts";
import type { InformerSource, ReplicaSetResult, ReplicaTemplate } from "../../src/entries/controller.ts";
import type { Manager, ReconcileContext, Request, ResourceClient } from "../../src/index.ts";
import type { ObjectOf } from "../../src/entries/client.ts";
import type { ExampleOperator } from "../example.ts";
import { loadYamlFolder } from "../example.ts";

/** What a PodSet asks for. */
export interface PodSetSpec {
  /** How many Pods to keep (the CRD defaults it to 1). */
  replicas: number;
  /** What each Pod looks like; a change applies to new Pods only, as with a ReplicaSet. */
  template: ReplicaTemplate<Pod>;
}

/** What the operator reports. */
export interface PodSetStatus {
  /** Pods that exist and are not being deleted. */
  replicas?: number;
  /** Of those, the ready ones. */
  readyReplicas?: number;
  /** `"<ready>/<desired> ready"`, plus what failed, if anything. */
  message?: string;
  observedGeneration?: number;
}

/** The PodSet custom resource (replicaset.example.com/v1): the kind handle and its object type. */
export const PodSet = defineKind<PodSetSpec, PodSetStatus>({ apiVersion: "replicaset.example.com/v1", kind: "PodSet" });
export type PodSet = ObjectOf<typeof PodSet>;

/** The value of the `operator-runtime.io/replica-set` label on every Pod of a PodSet. */
export const POD_SET_NAME = "podset";

/** What {@link podSetReconciler} needs. */
export interface PodSetReconcilerOptions {
  client: ResourceClient;
  /** Where PodSets and Pods are read and Pod events observed: `mgr.cache`. */
  source: InformerSource;
  recorder?: BuilderEventRecorder;
}

/** The message of a PodSet's status: `3/3 ready`, and what went wrong when something did. */
export function podSetMessage(desired: number, result: ReplicaSetResult<Pod>): string {
  const message = `${result.readyReplicas}/${desired} ready`;
  if (!result.ok) return `${message}; ${result.errors.length} Pod write(s) failed: ${result.errors[0]?.message ?? ""}`;
  return message;
}

/**
 * The PodSet reconciler: keeps each PodSet's Pods and writes its status. Returns the reconcile
 * function and the `ReplicaSetReconciler` behind it (its `expectations` show what it waits for).
 */
export function podSetReconciler(options: PodSetReconcilerOptions): {
  pods: ReplicaSetReconciler<Pod>;
  reconcile: (req: Request, ctx?: Pick<ReconcileContext, "signal">) => Promise<Action>;
} {
  const { client, recorder } = options;
  const podSets = options.source.informer(PodSet);
  const pods = new ReplicaSetReconciler({ kind: Pod, source: options.source, name: POD_SET_NAME });
  const reconcile = async (req: Request, ctx?: Pick<ReconcileContext, "signal">) => {
    const set = podSets.get(req.name, req.namespace);
    // Gone or going: garbage collection deletes its Pods (they carry it as controller).
    if (!set || set.metadata?.deletionTimestamp) return Action.done();
    const desired = set.spec.replicas ?? 1;
    const result = await pods.reconcile({
      client, owner: set, replicas: desired, template: set.spec.template,
      ...(recorder ? { recorder } : {}), ...(ctx?.signal ? { signal: ctx.signal } : {}),
    });
    await writeStatus(client, set, { replicas: result.replicas, readyReplicas: result.readyReplicas, message: podSetMessage(desired, result) });
    if (!result.ok) throw new AggregateError(result.errors, `PodSet ${req.namespace}/${req.name}: ${result.errors.length} Pod write(s) failed`);
    return result.requeueAfterMs !== undefined ? Action.requeueAfter(result.requeueAfterMs) : Action.done();
  };
  return { pods, reconcile };
}

/** The replicaset example operator. */
export const operator: ExampleOperator = {
  name: "replicaset",
  description: "a PodSet keeps spec.replicas Pods from its template (not-ready Pods go first on scale-in) and reports ready replicas",
  crds: loadYamlFolder(new URL("./crds/", import.meta.url)),
  samples: loadYamlFolder(new URL("./samples/", import.meta.url)),
  register(mgr: Manager): void {
    const { reconcile } = podSetReconciler({ client: mgr.client, source: mgr.cache, ...(mgr.recorder ? { recorder: mgr.recorder } : {}) });
    mgr.controller("replicaset-podset")
      .for(PodSet, { status: ["patch"] }) // writeStatus
      .owns(Pod, { verbs: ["create", "delete"] }) // ReplicaSetReconciler creates and deletes, never patches
      .reconcile(reconcile);
  },
};
