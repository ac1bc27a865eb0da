/**
 * The events a Builder records on its owner: CamelCase reasons (`Created`, `Updated`,
 * `Deleted`, `CreateFailed`, …) and a human note naming the object — never object data.
 */
import type { KubeObject } from "../client/types.ts";
import { describeObject } from "./results.ts";
import { InvalidError, WriteRefusedError } from "../errors.ts";
import { markReported } from "./terminal-errors.ts";

/** Records what the Builder does as Kubernetes Events (an `EventRecorder` fits). */
export interface BuilderEventRecorder {
  record(
    regarding: KubeObject,
    event: { type: "Normal" | "Warning"; reason: string; note: string; action: string },
  ): Promise<void>;
}

/** Writes Builder events through an optional recorder; recording never fails a reconcile. */
export class EventNotes {
  readonly #recorder: BuilderEventRecorder | undefined;
  readonly #owner: KubeObject;

  constructor(recorder: BuilderEventRecorder | undefined, owner: KubeObject) {
    this.#recorder = recorder;
    this.#owner = owner;
  }

  /** `Created` / `Updated` for a written object. */
  async changed(obj: KubeObject, reason: "Created" | "Updated", why?: string): Promise<void> {
    const verb = reason === "Created" ? "Created" : "Updated";
    await this.#record("Normal", reason, reason === "Created" ? "Create" : "Update", `${verb} ${name(obj)}${why ? `: ${why}` : ""}`);
  }

  /** `Deleted` for a pruned object (`why` defaults to "no longer desired"). */
  async deleted(obj: KubeObject, why = "no longer desired"): Promise<void> {
    await this.#record("Normal", "Deleted", "Delete", `Deleted ${name(obj)}: ${why}`);
  }

  /**
   * `CreateFailed` / `UpdateFailed` with the error text; none for a write the gate refused
   * (never sent, retried). For a 422 Invalid answer the note names the refused fields from the
   * Status causes, then gives the API server's message, e.g. `Create Service/ns/9cache refused
   * as invalid (metadata.name): Service "9cache" is invalid: metadata.name: Invalid value: …`;
   * once recorded, a controller's terminal-error handling records no second event for it.
   */
  async failed(obj: KubeObject, action: "Create" | "Update" | "Delete", error: Error, dryRun: boolean): Promise<void> {
    if (dryRun || error instanceof WriteRefusedError) return;
    const fields = error instanceof InvalidError ? [...new Set(error.causes.map((c) => c.field).filter((f) => typeof f === "string" && f !== ""))] : [];
    const note = error instanceof InvalidError
      ? `${action} ${name(obj)} refused as invalid${fields.length ? ` (${fields.join(", ")})` : ""}: ${error.status.message ?? error.message}`
      : `${action} ${name(obj)} failed: ${error.message}`;
    const uid = this.#owner.metadata?.uid;
    if ((await this.#record("Warning", `${action}Failed`, action, note)) && uid) markReported(error, uid);
  }

  /** `NotOwned` (Warning) for an existing object the Builder refused to write over. */
  async notOwned(obj: KubeObject, error: Error, dryRun: boolean): Promise<void> {
    if (dryRun) return;
    await this.#record("Warning", "NotOwned", "Update", `Left ${name(obj)} alone: ${error.message}`);
  }

  /** Whether the event was recorded. */
  async #record(type: "Normal" | "Warning", reason: string, action: string, note: string): Promise<boolean> {
    if (!this.#recorder) return false;
    try {
      await this.#recorder.record(this.#owner, { type, reason, note, action });
      return true;
    } catch {
      // An event that cannot be written must not fail the reconcile.
      return false;
    }
  }
}

function name(obj: KubeObject): string {
  return describeObject({ kind: obj.kind, name: obj.metadata?.name, namespace: obj.metadata?.namespace });
}
