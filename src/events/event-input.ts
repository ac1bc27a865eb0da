/**
 * What to record about an object, and the checks that reject malformed input before any request.
 */
import { OperatorRuntimeError } from "../errors.ts";
import type { KubeObject } from "../client/types.ts";
import type { EventType } from "./event-object.ts";

/**
 * Longest `reason`, `action`, `reportingController` and `reportingInstance` the API accepts.
 *
 * @example
 * ```ts
 * "Reconciled".length <= MAX_FIELD_LENGTH; // true
 * ```
 */
export const MAX_FIELD_LENGTH = 128;

const CAMEL_CASE = /^[A-Z][A-Za-z0-9]*$/;

/**
 * What to record about an object. `reason` and `action` are CamelCase machine words
 * (`Created`, `CreateFailed`; `Create`, `Reconcile`), `note` is text for humans.
 *
 * @example
 * ```ts
 * const happening: EventInput = { type: "Warning", reason: "CreateFailed", action: "Create", note: "quota exceeded" };
 * ```
 */
export interface EventInput {
  type: EventType;
  reason: string;
  note: string;
  action: string;
  /** A second object the event involves, e.g. the Pod a StatefulSet event is about. */
  related?: KubeObject;
}

/**
 * Throws `OperatorRuntimeError` for input that can only be a programming error: `regarding` or
 * `related` without `kind` or `metadata.name`, a `type` other than Normal/Warning, a `reason` or
 * `action` that is not CamelCase or longer than 128 characters, a note that is not a string.
 *
 * @example
 * ```ts
 * const configMap = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "app-settings", namespace: "default" } };
 * validateEventInput(configMap, { type: "Normal", reason: "Created", action: "Create", note: "created" }); // passes
 * validateEventInput(configMap, { type: "Normal", reason: "created", action: "Create", note: "" }); // throws: reason is not CamelCase
 * ```
 */
export function validateEventInput(regarding: KubeObject, event: EventInput): void {
  checkObject("regarding", regarding);
  if (!event || typeof event !== "object") throw new OperatorRuntimeError("EventRecorder: record() needs an event { type, reason, action, note }");
  if (event.related !== undefined) checkObject("related", event.related);
  if (event.type !== "Normal" && event.type !== "Warning") {
    throw new OperatorRuntimeError(`EventRecorder: type must be "Normal" or "Warning", got ${JSON.stringify(event.type)}`);
  }
  checkWord("reason", event.reason, "Created, CreateFailed");
  checkWord("action", event.action, "Create, Reconcile");
  if (typeof event.note !== "string") throw new OperatorRuntimeError("EventRecorder: note must be a string");
}

function checkWord(field: string, value: unknown, examples: string): void {
  if (typeof value !== "string" || !CAMEL_CASE.test(value) || value.length > MAX_FIELD_LENGTH) {
    throw new OperatorRuntimeError(
      `EventRecorder: ${field} must be CamelCase (${CAMEL_CASE.source}) and at most ${MAX_FIELD_LENGTH} characters, ` +
        `e.g. ${examples}; got ${JSON.stringify(value)}`,
    );
  }
}

function checkObject(field: string, object: KubeObject): void {
  if (!object || typeof object !== "object" || !object.kind || !object.metadata?.name) {
    throw new OperatorRuntimeError(
      `EventRecorder: ${field} needs kind and metadata.name (objects from list responses lack kind and apiVersion; set them)`,
    );
  }
}
