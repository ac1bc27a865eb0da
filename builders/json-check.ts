/**
 * Whether a desired object is JSON the API server would receive unchanged: finite numbers,
 * strings, booleans, null, lists and objects, no cycles. Checked for every object before a
 * Builder's first request, so that nothing is half-written when one object cannot be sent.
 */
import type { KubeObject } from "../src/client/types.ts";
import type { BuilderValidationError } from "../src/errors.ts";
import { keyPath } from "./json.ts";
import { problemsFor } from "./validation.ts";

/** The problems of `obj` as JSON, and whether the kind's own checks can still read it safely. */
export interface JsonCheck {
  problems: BuilderValidationError[];
  /** False for a cycle or a value `JSON.stringify` throws on: skip checks that format values. */
  readable: boolean;
}

/**
 * Every place in `obj` that JSON cannot carry faithfully, each named by its field path:
 * NaN/Infinity (JSON would send `null`), bigints, functions, symbols, `undefined` list items,
 * `Map`/`Set`, and cycles. A `Date` (client-node models' timestamps) is fine: it is sent as its
 * ISO string; other class instances (client-node models) are read by their own fields.
 *
 * @example
 * ```ts
 * const { problems } = checkJson({ kind: "Deployment", metadata: { name: "web" }, spec: { replicas: NaN } }, "Deployment");
 * problems[0]!.message; // "Deployment/web: spec.replicas: is NaN, not a JSON number (it would be sent as null). Fix: …"
 * ```
 */
export function checkJson(obj: KubeObject, kind: string): JsonCheck {
  const p = problemsFor(obj, kind);
  const out: JsonCheck = { problems: p.list, readable: true };
  const seen: object[] = [];
  const visit = (value: unknown, path: string): void => {
    const at = path || "(object)";
    switch (typeof value) {
      case "string":
      case "boolean":
        return;
      case "number":
        if (!Number.isFinite(value)) p.add(at, `is ${value}, not a JSON number (it would be sent as null)`, "compute a finite number, or leave the field out");
        return;
      case "undefined":
        return;
      case "bigint":
        out.readable = false;
        p.add(at, "is a bigint, which JSON cannot carry", "use a number (or a string where the field takes a quantity)");
        return;
      default:
        if (value === null) return;
        if (typeof value !== "object") {
          out.readable = false;
          p.add(at, `is a ${typeof value}, which JSON cannot carry`, "set a plain value, or leave the field out");
          return;
        }
    }
    if (seen.includes(value)) {
      out.readable = false;
      p.add(at, "refers back to an object that contains it (a cycle), which JSON cannot carry", "build the object as a tree: copy shared parts instead of nesting an object inside itself");
      return;
    }
    if (value instanceof Date) return;
    if (value instanceof Map || value instanceof Set) {
      out.readable = false;
      p.add(at, `is a ${value.constructor.name}, which JSON cannot carry`, value instanceof Map ? "use a plain object: Object.fromEntries(map)" : "use a list: [...set]");
      return;
    }
    seen.push(value);
    if (Array.isArray(value)) {
      value.forEach((item, i) => {
        if (item === undefined) p.add(`${path}[${i}]`, "is undefined, which JSON sends as null", "remove the item from the list");
        else visit(item, `${path}[${i}]`);
      });
    } else {
      for (const [key, member] of Object.entries(value)) visit(member, path ? keyPath(path, key) : key);
    }
    seen.pop();
  };
  visit(obj, "");
  return out;
}
