/**
 * The job controller: a Job's application becomes ProcessingElements (owner: the Job; labels
 * for the job and the PE; most restrictive placement first), created, updated and pruned with
 * the Builder; the Job's phase follows its PEs.
 */
import { Builder, Action, isNotFound, terminal, writeStatus } from "../../src/index.ts";
import type { Manager } from "../../src/index.ts";
import { computeProcessingElements } from "./fusion.ts";
import { FIELD_MANAGER, Job, ProcessingElement } from "./kinds.ts";
import type { JobPhase } from "./kinds.ts";

/** Adds the `streams-job` controller to `mgr`. */
export function registerJobController(mgr: Manager): void {
  mgr.controller("streams-job")
    .for(Job, { status: ["patch"] }) // writeStatus
    .owns(ProcessingElement) // written by a Builder
    .reconcile(async (req, { signal }) => {
      const job = mgr.cache.informer(Job).get(req.name, req.namespace);
      if (!job || job.metadata?.deletionTimestamp) return Action.done(); // owner references and GC remove the rest
      const client = mgr.client.withSignal(signal);
      const plan = computeProcessingElements(job);
      if (!plan.ok) {
        const message = plan.problems.join("; ");
        await writeStatus(client, job, { phase: "Failed", message });
        // Terminal: the Manager sets Ready=False, records one Warning event, and waits for the Job to change.
        throw terminal(new Error(`the application cannot run: ${message}`));
      }
      const recorder = mgr.recorder;
      const builder = new Builder({
        client, owner: job, reader: mgr.cache, fieldManager: FIELD_MANAGER, manages: [ProcessingElement], ...(recorder ? { recorder } : {}),
      });
      // Custom objects are written in the order they are added: the most restrictive PE first.
      for (const pe of plan.pes) builder.object({ ...ProcessingElement, metadata: { name: pe.name, labels: pe.labels }, spec: pe.spec });
      const result = await builder.reconcile();

      const informer = mgr.cache.informer(ProcessingElement);
      const pes = plan.pes.map((p) => informer.get(p.name, req.namespace));
      const phases = pes.map((pe) => pe?.status?.phase);
      const running = phases.filter((p) => p === "Running").length;
      let phase: JobPhase;
      if (!result.ok || pes.some((pe) => pe === undefined)) phase = "Submitting";
      else if (phases.includes("Failed")) phase = "Failed";
      else if (phases.every((p) => p === "Completed")) phase = "Completed";
      else if (phases.every((p) => p === "Running" || p === "Completed")) phase = "Running";
      else phase = "Submitted";
      try {
        await writeStatus(client, job, {
          phase, processingElements: plan.pes.map((p) => p.name), peCount: plan.pes.length, runningPEs: running,
          message: result.ok ? null : result.errors.map((e) => e.message).join("; "),
        });
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      if (!result.ok) throw new AggregateError(result.errors, `job ${req.name}: ${result.errors.length} PE(s) did not reconcile`);
      return Action.done();
    });
}
