/**
 * Keeps Secret values out of event notes: every value a Secret holds is replaced by `[redacted]`.
 */
import type { KubeObject } from "../client/types.ts";

/**
 * What a redacted Secret value is replaced with.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { Secret } from "operator-runtime";
 * import type { RecordedEvent } from "operator-runtime/client";
 *
 * const password = "hunter2";
 * const secret: Secret = { apiVersion: "v1", kind: "Secret", metadata: { name: "db", namespace: "default" }, stringData: { password } };
 * const seen: RecordedEvent[] = [];
 * recorder.emitter.on("event", (e) => seen.push(e));
 * await recorder.record(secret, { type: "Warning", reason: "Rejected", action: "Validate", note: `password ${password} is too short` });
 * assert.ok(!seen[0]!.event.note.includes(password) && seen[0]!.event.note.includes(REDACTED)); // "password [redacted] is too short"
 * ```
 */
export const REDACTED = "[redacted]";

/**
 * The values to keep out of notes when `objects` include Secrets: for each Secret, every
 * `stringData` value, every `data` value as stored (base64) and, when it decodes to text, as
 * decoded. Empty values are skipped. Longest first, so a value containing another is replaced
 * whole.
 *
 * @example
 * ```ts
 * secretValues([{ kind: "Secret", metadata: { name: "db" }, data: { password: "aHVudGVyMg==" } }]);
 * // ["aHVudGVyMg==", "hunter2"]
 * ```
 */
export function secretValues(objects: readonly (KubeObject | undefined)[]): string[] {
  const values = new Set<string>();
  for (const object of objects) {
    if (object?.kind !== "Secret") continue;
    for (const value of stringValues(object.stringData)) values.add(value);
    for (const encoded of stringValues(object.data)) {
      values.add(encoded);
      const decoded = decodeBase64Text(encoded);
      if (decoded) values.add(decoded);
    }
  }
  values.delete("");
  return [...values].sort((a, b) => b.length - a.length);
}

/**
 * `note` with every occurrence of each of `values` replaced by {@link REDACTED}.
 *
 * @example
 * ```ts
 * redact("login with hunter2 failed", ["hunter2"]); // "login with [redacted] failed"
 * ```
 */
export function redact(note: string, values: readonly string[]): string {
  const present = values.filter((v) => v !== "" && note.includes(v)).sort((a, b) => b.length - a.length);
  if (present.length === 0) return note;
  // One pass, longest alternative first: a replacement is never scanned again.
  const pattern = new RegExp(present.map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"), "g");
  return note.replace(pattern, REDACTED);
}

function stringValues(map: unknown): string[] {
  if (!map || typeof map !== "object") return [];
  return Object.values(map).filter((v): v is string => typeof v === "string");
}

/** The UTF-8 text a base64 value encodes, or undefined when it is not valid base64 text. */
function decodeBase64Text(encoded: string): string | undefined {
  const compact = encoded.replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 !== 0) return undefined;
  const bytes = Buffer.from(compact, "base64");
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
