/**
 * The events a Builder records on its owner: CamelCase reasons (`Created`, `Updated`,
 * `Deleted`, `CreateFailed`, …) and a human note naming the object — never object data.
 */
import type { KubeObject } from "../client/types.ts";
import type { BuilderEventRecorder } from "./builder.ts";
import { describeObject } from "./reconcile-result.ts";
import { WriteRefusedError } from "../errors.ts";

/** Writes Builder events through an optional recorder; recording never fails a reconcile. */
export class EventNotes {
  readonly #recorder: BuilderEventRecorder | undefined;
  readonly #owner: KubeObject;

  constructor(recorder: BuilderEventRecorder | undefined, owner: KubeObject) {
    this.#recorder = recorder;
    this.#owner = owner;
  }

  /** `Created` / `Updated` for a written object. */
  changed(obj: KubeObject, reason: "Created" | "Updated", why?: string): Promise<void> {
    const verb = reason === "Created" ? "Created" : "Updated";
    return this.#record("Normal", reason, reason === "Created" ? "Create" : "Update", `${verb} ${name(obj)}${why ? `: ${why}` : ""}`);
  }

  /** `Deleted` for a pruned object (`why` defaults to "no longer desired"). */
  deleted(obj: KubeObject, why = "no longer desired"): Promise<void> {
    return this.#record("Normal", "Deleted", "Delete", `Deleted ${name(obj)}: ${why}`);
  }

  /** `CreateFailed` / `UpdateFailed` with the error text; none for a write the gate refused (never sent, retried). */
  failed(obj: KubeObject, action: "Create" | "Update" | "Delete", error: Error, dryRun: boolean): Promise<void> {
    if (dryRun || error instanceof WriteRefusedError) return Promise.resolve();
    return this.#record("Warning", `${action}Failed`, action, `${action} ${name(obj)} failed: ${error.message}`);
  }

  /** `NotOwned` (Warning) for an existing object the Builder refused to write over. */
  notOwned(obj: KubeObject, error: Error, dryRun: boolean): Promise<void> {
    if (dryRun) return Promise.resolve();
    return this.#record("Warning", "NotOwned", "Update", `Left ${name(obj)} alone: ${error.message}`);
  }

  async #record(type: "Normal" | "Warning", reason: string, action: string, note: string): Promise<void> {
    if (!this.#recorder) return;
    try {
      await this.#recorder.record(this.#owner, { type, reason, note, action });
    } catch {
      // An event that cannot be written must not fail the reconcile.
    }
  }
}

function name(obj: KubeObject): string {
  return describeObject({ kind: obj.kind, name: obj.metadata?.name, namespace: obj.metadata?.namespace });
}
