/**
 * One reconcile of a Pinot: validate the spec, hand every node's objects to one Builder with an
 * ordered rollout (node types in `deploymentOrder`), and write what happened to the status.
 */
import { Builder, BuilderValidationErrors, Action, findCondition, writeStatus } from "../../src/index.ts";
import { InvalidError } from "../../src/entries/client.ts";
import type { BuilderEventRecorder } from "../../src/entries/builder.ts";
import type { Condition, BuilderResult, ResourceClient } from "../../src/index.ts";
import type { ObjectReader } from "../../src/entries/client.ts";
import { desiredObjects } from "./objects.ts";
import type { NodeObjects } from "./objects.ts";
import { validatePinot } from "./validate.ts";
import type { Pinot, PinotNodeStatus, PinotStatus } from "./types.ts";

/** The field manager (and managed-by label) of every object this operator writes. */
export const PINOT_FIELD_MANAGER = "pinot-operator";

/** While a rollout waits, look again this often even if no workload event arrives (events normally come first). */
const WAITING_RECHECK_MS = 15_000;

/** What a Pinot reconcile works with. */
export interface PinotDeps {
  client: ResourceClient;
  /** Where live children are read (the Manager's cache). */
  reader: ObjectReader;
  recorder: BuilderEventRecorder;
  signal?: AbortSignal;
}

/**
 * Makes the cluster match one Pinot and writes its status.
 *
 * Expected flow: an invalid spec (see `validatePinot`, or a Builder validation error, or an
 * object the API server refuses as Invalid) → status `Invalid`, `Ready=False` reason
 * `InvalidSpec`, one Warning event per new problem, and no retry until the spec changes.
 * Otherwise one Builder pass: ConfigMaps, Deployment storage, then the workloads in rollout
 * order — a workload waits while an earlier one is not rolled out — then Services, then prune
 * (removed nodes lose their ConfigMap, workload and Service; claims are kept). Status: phase
 * `Progressing` while it waits (and what on), `Degraded` when an object failed (thrown, so
 * retried with backoff), `Ready` when every workload is rolled out.
 */
export async function reconcilePinot(deps: PinotDeps, pinot: Pinot): Promise<Action> {
  const problems = validatePinot(pinot);
  if (problems.length) return reportInvalid(deps, pinot, problems);

  const nodes = desiredObjects(pinot);
  const builder = new Builder({
    client: deps.client, reader: deps.reader, owner: pinot, recorder: deps.recorder, fieldManager: PINOT_FIELD_MANAGER,
    orderedRollout: true, ...(deps.signal ? { signal: deps.signal } : {}),
  });
  for (const n of nodes) {
    builder.configMap(n.configMap);
    for (const claim of n.claims) builder.storage(claim);
    if (n.workload.kind === "StatefulSet") builder.statefulSet(n.workload.object);
    else builder.deployment(n.workload.object);
    builder.service(n.service);
  }
  let result: BuilderResult;
  try {
    result = await builder.reconcile();
  } catch (err) {
    if (err instanceof BuilderValidationErrors) return reportInvalid(deps, pinot, err.errors.map((e) => e.message));
    throw err;
  }
  const refused = result.errors.filter((e) => e instanceof InvalidError);
  if (refused.length && refused.length === result.errors.length) return reportInvalid(deps, pinot, refused.map((e) => e.message));

  const nodeStatus = await nodeStatuses(deps.reader, pinot, nodes);
  const waitingOn = result.waitingOn;
  const phase: PinotStatus["phase"] = !result.ok ? "Degraded" : waitingOn ? "Progressing" : "Ready";
  const ready: Omit<Condition, "lastTransitionTime"> = phase === "Ready"
    ? { type: "Ready", status: "True", reason: "RolledOut", message: `${nodes.length} node(s) rolled out` }
    : phase === "Progressing"
      ? { type: "Ready", status: "False", reason: "RollingOut", message: `waiting for ${waitingOn}` }
      : { type: "Ready", status: "False", reason: "ObjectsFailed", message: result.errors.map((e) => e.message).join("; ") };
  await writeStatus(deps.client, pinot, { phase, waitingOn: waitingOn ?? null, nodes: nodeStatus }, { conditions: [ready], fieldManager: PINOT_FIELD_MANAGER });
  if (!result.ok) throw new AggregateError(result.errors, `Pinot ${pinot.metadata!.name}: ${result.errors.length} object(s) failed`);
  return waitingOn ? Action.requeueAfter(WAITING_RECHECK_MS) : Action.done();
}

/** Status, condition and (for a new problem) a Warning event for a spec the operator cannot run; no retry. */
async function reportInvalid(deps: PinotDeps, pinot: Pinot, problems: string[]): Promise<Action> {
  const message = problems.join("; ");
  const previous = findCondition(pinot.status?.conditions, "Ready");
  const isNew = previous?.reason !== "InvalidSpec" || previous.message !== message || previous.observedGeneration !== pinot.metadata?.generation;
  await writeStatus(deps.client, pinot, { phase: "Invalid", waitingOn: null, nodes: null }, {
    conditions: [{ type: "Ready", status: "False", reason: "InvalidSpec", message }], fieldManager: PINOT_FIELD_MANAGER,
  });
  if (isNew) await deps.recorder.record(pinot, { type: "Warning", reason: "InvalidSpec", action: "Reconcile", note: message });
  return Action.done();
}

/** Each node's workload as the cache sees it. */
async function nodeStatuses(reader: ObjectReader, pinot: Pinot, nodes: readonly NodeObjects[]): Promise<PinotNodeStatus[]> {
  const namespace = pinot.metadata!.namespace!;
  return Promise.all(nodes.map(async ({ node, workload }) => {
    const live = await reader.get({ apiVersion: "apps/v1", kind: workload.kind, name: workload.object.metadata!.name!, namespace });
    const readyReplicas = (live?.status as { readyReplicas?: number } | undefined)?.readyReplicas ?? 0;
    return { name: node.name, nodeType: node.nodeType, workload: workload.kind, replicas: node.replicas, readyReplicas };
  }));
}
