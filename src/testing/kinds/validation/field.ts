/**
 * apimachinery's `field.Error` constructors as kube-apiserver words them, and small readers for
 * untyped JSON bodies. Shared by every per-kind validator in this folder.
 */
import type { StatusCause } from "../../status.ts";

/** A JSON object, or undefined when `v` is anything else. */
export type Obj = Record<string, any>;

/** `v` when it is a plain JSON object. */
export function obj(v: unknown): Obj | undefined {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : undefined;
}

/** `v` when it is an array, else an empty array. */
export function list(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** `v` when it is a string, else "" (Go's zero value). */
export function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}

/** `v` when it is a finite number, else undefined. */
export function num(v: unknown): number | undefined {
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}

/**
 * A value as apimachinery prints it after `Invalid value: `: strings quoted, numbers and
 * booleans bare, `null` for nil, and JSON for maps, slices and structs.
 */
export function goValue(value: unknown): string {
  if (value === undefined || value === null) return "null";
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

/** `field.Required`: `Required value[: detail]`. */
export function required(field: string, detail = ""): StatusCause {
  return { reason: "FieldValueRequired", message: detail ? `Required value: ${detail}` : "Required value", field };
}

/** `field.Invalid`: `Invalid value: <value>: detail`. */
export function invalid(field: string, value: unknown, detail: string): StatusCause {
  return { reason: "FieldValueInvalid", message: `Invalid value: ${goValue(value)}${detail ? `: ${detail}` : ""}`, field };
}

/** `field.NotSupported`: `Unsupported value: <value>: supported values: "a", "b"`. */
export function notSupported(field: string, value: unknown, supported: readonly string[]): StatusCause {
  const tail = supported.length ? `: supported values: ${supported.map((s) => JSON.stringify(s)).join(", ")}` : "";
  return { reason: "FieldValueNotSupported", message: `Unsupported value: ${goValue(value)}${tail}`, field };
}

/** `field.Duplicate`: `Duplicate value: <value>`. */
export function duplicate(field: string, value: unknown): StatusCause {
  return { reason: "FieldValueDuplicate", message: `Duplicate value: ${goValue(value)}`, field };
}

/** `field.Forbidden`: `Forbidden: detail`. */
export function forbidden(field: string, detail: string): StatusCause {
  return { reason: "FieldValueForbidden", message: `Forbidden: ${detail}`, field };
}

/** `field.NotFound`: `Not found: <value>`. */
export function notFound(field: string, value: unknown): StatusCause {
  return { reason: "FieldValueNotFound", message: `Not found: ${goValue(value)}`, field };
}

/** apimachinery's `ValidateNonnegativeField` for an optional number (absent = Go's zero). */
export function nonNegative(value: unknown, field: string): StatusCause[] {
  const n = num(value);
  return n !== undefined && n < 0 ? [invalid(field, n, "must be greater than or equal to 0")] : [];
}

/** `InclusiveRangeError(lo, hi)`. */
export function inclusiveRange(lo: number, hi: number): string {
  return `must be between ${lo} and ${hi}, inclusive`;
}

/** Messages of apimachinery's `IsValidPortNum` (1..65535). */
export function portNumErrors(port: number): string[] {
  return port >= 1 && port <= 65535 && Number.isInteger(port) ? [] : [inclusiveRange(1, 65535)];
}

/** Messages of apimachinery's `IsValidPortName` (IANA_SVC_NAME). */
export function portNameErrors(port: string): string[] {
  const errs: string[] = [];
  if (port.length > 15) errs.push("must be no more than 15 characters");
  if (!/^[-a-z0-9]+$/.test(port)) errs.push("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
  if (!/[a-z]/.test(port)) errs.push("must contain at least one letter (a-z)");
  if (port.includes("--")) errs.push("must not contain consecutive hyphens");
  if (port.startsWith("-") || port.endsWith("-")) errs.push("must not begin or end with a hyphen");
  return errs;
}

/** `ValidatePortNumOrName` for an int-or-string port at `field`. */
export function portNumOrNameCauses(port: unknown, field: string): StatusCause[] {
  if (typeof port === "number") return portNumErrors(port).map((m) => invalid(field, port, m));
  if (typeof port === "string") return portNameErrors(port).map((m) => invalid(field, port, m));
  return [];
}

/** Messages of apimachinery's `IsValidPercent`. */
export function percentErrors(value: string): string[] {
  return /^[0-9]+%$/.test(value)
    ? []
    : ["a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"];
}
