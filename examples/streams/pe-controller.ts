/**
 * The PE controller: one PE becomes one pod plus its ConfigMap (through the Builder), and the
 * PE's restart policy relaunches the pod when it fails, completes or is deleted, counting
 * launches in `status.launchCount` so that a crash of the operator can neither lose nor repeat
 * one (see {@link decideLaunch}).
 */
import { Builder, ConfigMap, Pod, Action, isConflict, isNotFound, writeStatus } from "../../src/index.ts";
import type { Manager, ResourceClient } from "../../src/index.ts";
import type { StatusPatch } from "../../src/entries/client.ts";
import { FIELD_MANAGER, LAUNCH_FINALIZER, ProcessingElement } from "./kinds.ts";
import type { ProcessingElementStatus } from "./kinds.ts";
import { decideLaunch } from "./launch.ts";
import type { LaunchStep } from "./launch.ts";
import { peConfigMap, pePod, podSpecHash } from "./pe-pod.ts";

/** Adds the `streams-pe` controller to `mgr`. */
export function registerPeController(mgr: Manager): void {
  mgr.controller("streams-pe")
    .for(ProcessingElement, { status: ["patch", "update"] }) // writeStatus; replaceStatus for the launch count
    .owns(ConfigMap) // written by a Builder
    .owns(Pod, { verbs: ["create", "patch", "delete"] }) // a Builder; delete to retire a pod; patch to drop its finalizer
    .reconcile(async (req, { signal }) => {
      const client = mgr.client.withSignal(signal);
      const pes = mgr.cache.informer(ProcessingElement);
      const cached = pes.get(req.name, req.namespace);
      const pod = mgr.cache.informer(Pod).get(req.name, req.namespace);
      // A pod whose PE is gone (or is another PE of the same name): garbage collection deletes
      // it; release the finalizer once it does.
      if (pod && (!cached || !controlledBy(pod, cached.metadata?.uid))) {
        if (pod.metadata?.deletionTimestamp) await releasePod(client, pod);
        return Action.done();
      }
      if (!cached || cached.metadata?.deletionTimestamp) return Action.done();

      let pe = cached;
      let step = decideLaunch(pe, pod, podSpecHash(pePod(pe, 1).spec!));
      if (step.step === "launch" || step.step === "relaunch") {
        // The launch count decides what is created: read it from the API, not the cache.
        pe = await client.get({ ...ProcessingElement, name: req.name, namespace: req.namespace });
        if (pe.metadata?.uid !== cached.metadata?.uid) return Action.requeue();
        step = decideLaunch(pe, pod, podSpecHash(pePod(pe, 1).spec!));
      }
      return runStep(mgr, client, pe, pod, step);
    });
}

async function runStep(mgr: Manager, client: ResourceClient, pe: ProcessingElement, pod: Pod | undefined, step: LaunchStep): Promise<Action> {
  const recorder = mgr.recorder;
  const status = (patch: StatusPatch<ProcessingElement>) => writeStatus(client, pe, { podName: pe.metadata!.name!, ...patch });
  switch (step.step) {
    case "relaunch": {
      // Record the next launch before the pod of this one goes: a crash after this write finds
      // the old pod with an older launch number and only retires it.
      pe = await countLaunch(client, pe, { launchCount: step.launch, phase: "Restarting", lastRelaunchReason: step.reason, message: relaunchNote(step) });
      await recorder?.record(pe, {
        type: step.reason === "PodFailed" ? "Warning" : "Normal", reason: "Relaunching", action: "Relaunch",
        note: `${relaunchNote(step)}; launching it again (launch ${step.launch})`,
      });
      if (pod) await retirePod(client, pod);
      return Action.done(); // the pod's deletion event brings the PE back to create the next pod
    }
    case "retire":
      if (pod) await retirePod(client, pod);
      return Action.done();
    case "finish":
      await status({ phase: step.phase, message: step.phase === "Completed" ? "the pod completed" : "the pod failed and the restart policy is Never" });
      if (pod?.metadata?.deletionTimestamp) {
        await releasePod(client, pod);
        return Action.done();
      }
      break;
    case "launch":
      if (step.count) pe = await countLaunch(client, pe, { launchCount: step.launch, phase: "Pending" });
      break;
    case "keep":
      if (step.repair !== undefined) pe = await countLaunch(client, pe, { launchCount: step.repair });
      break;
  }
  const builder = new Builder({
    client, owner: pe, reader: mgr.cache, fieldManager: FIELD_MANAGER, ...(recorder ? { recorder } : {}),
  }).configMap(peConfigMap(pe));
  const current = step.step === "launch" ? step.launch : pe.status?.launchCount ?? 0;
  if (step.step === "launch" || pod) builder.object(pePod(pe, current));
  const result = await builder.reconcile();
  if (!result.ok) throw new AggregateError(result.errors, `PE ${pe.metadata!.name}: ${result.errors.map((e) => e.message).join("; ")}`);
  if (step.step === "keep" || step.step === "launch") await status({ phase: step.step === "launch" ? "Pending" : step.phase, message: null });
  return Action.done();
}

/** Writes the launch count (and the phase with it) with the PE's resourceVersion: a stale read conflicts and is retried. */
async function countLaunch(client: ResourceClient, pe: ProcessingElement, patch: ProcessingElementStatus): Promise<ProcessingElement> {
  try {
    return await client.replaceStatus<ProcessingElement>({
      ...pe, status: { ...pe.status, ...patch, ...(pe.metadata?.generation !== undefined ? { observedGeneration: pe.metadata.generation } : {}) },
    });
  } catch (err) {
    if (isConflict(err)) throw new Error(`PE ${pe.metadata!.name}: its status changed since it was read; retrying the launch decision`, { cause: err });
    throw err;
  }
}

/** Deletes a pod of an earlier launch (if not already being deleted) and releases it. */
async function retirePod(client: ResourceClient, pod: Pod): Promise<void> {
  if (!pod.metadata?.deletionTimestamp) {
    try {
      await client.delete({ ...Pod, name: pod.metadata!.name!, namespace: pod.metadata!.namespace! }, { preconditions: { uid: pod.metadata!.uid! } });
    } catch (err) {
      if (isNotFound(err) || isConflict(err)) return; // gone, or another pod of that name: the next event decides
      throw err;
    }
  }
  await releasePod(client, pod);
}

/** Removes the launch-accounting finalizer (a JSON patch that tests it is still where we saw it). */
async function releasePod(client: ResourceClient, pod: Pod): Promise<void> {
  const index = pod.metadata?.finalizers?.indexOf(LAUNCH_FINALIZER) ?? -1;
  if (index < 0) return;
  try {
    await client.patch({ ...Pod, name: pod.metadata!.name!, namespace: pod.metadata!.namespace! }, [
      { op: "test", path: "/metadata/uid", value: pod.metadata!.uid },
      { op: "test", path: `/metadata/finalizers/${index}`, value: LAUNCH_FINALIZER },
      { op: "remove", path: `/metadata/finalizers/${index}` },
    ], "json");
  } catch (err) {
    if (isNotFound(err)) return;
    throw err;
  }
}

function controlledBy(pod: Pod, uid: string | undefined): boolean {
  return pod.metadata?.ownerReferences?.some((r) => r.controller === true && r.uid === uid) ?? false;
}

function relaunchNote(step: Extract<LaunchStep, { step: "relaunch" }>): string {
  switch (step.reason) {
    case "PodFailed": return "the pod failed";
    case "PodCompleted": return "the pod completed and the restart policy is Always";
    case "PodDeleted": return "the pod was deleted";
    case "SpecChanged": return "the PE changed";
  }
}
