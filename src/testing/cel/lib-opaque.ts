/**
 * The opaque CEL types of the Kubernetes libraries (`kubernetes.Quantity`, `kubernetes.URL`,
 * `net.IP`, `net.CIDR`, `kubernetes.Semver`) as `@bufbuild/cel` values.
 *
 * `@bufbuild/cel` knows custom types only as protobuf messages, so each opaque type is a
 * one-field message built at runtime. The field holds the value's equality key (two values are
 * `==` exactly when their keys are, as Kubernetes' `Equal` of that type decides); the parsed
 * value itself rides along in a side table keyed by the message, so functions never re-parse.
 *
 * @module
 */
import { create, createFileRegistry } from "@bufbuild/protobuf";
import type { DescMessage } from "@bufbuild/protobuf";
import { reflect } from "@bufbuild/protobuf/reflect";
import type { ReflectMessage } from "@bufbuild/protobuf/reflect";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import { objectType } from "@bufbuild/cel";
import type { CelObjectType } from "@bufbuild/cel";

/** The CEL type names of the opaque types, as `type(x)` prints them in Kubernetes. */
export type OpaqueTypeName =
  | "kubernetes.Quantity"
  | "kubernetes.URL"
  | "net.IP"
  | "net.CIDR"
  | "kubernetes.Semver"
  | "kubernetes.NamedFormat"
  | "optional_type";

/** The one field of every opaque message; an unusual name so no rule selects it by accident. */
const KEY_FIELD = "k8s_opaque_key";

const PROTO_STRING = 9;
const LABEL_OPTIONAL = 1;

function file(pkg: string, names: string[]) {
  return create(FileDescriptorProtoSchema, {
    name: `localcluster/cel/${pkg || "cel"}.proto`,
    package: pkg,
    syntax: "proto3",
    messageType: names.map((name) => ({
      name,
      field: [{ name: KEY_FIELD, number: 1, type: PROTO_STRING, label: LABEL_OPTIONAL, jsonName: KEY_FIELD }],
    })),
  });
}

const registries = [
  createFileRegistry(file("kubernetes", ["Quantity", "URL", "Semver", "NamedFormat"]), () => undefined),
  createFileRegistry(file("net", ["IP", "CIDR"]), () => undefined),
  createFileRegistry(file("", ["optional_type"]), () => undefined),
];

function descOf(name: OpaqueTypeName): DescMessage {
  const desc = registries.map((r) => r.getMessage(name)).find((d) => d !== undefined);
  if (desc === undefined) throw new Error(`internal: no descriptor for ${name}`);
  return desc;
}

/**
 * One opaque type: its CEL type (for `celFunc` / `celMethod` signatures), a constructor of
 * values from a parsed JS value and its equality key, and a reader back to the parsed value.
 *
 * @example
 * ```ts
 * import { opaqueType } from "./lib-opaque.ts";
 * const semverT = opaqueType<string>("kubernetes.Semver", (key) => key);
 * const v = semverT.wrap("1.2.3", "1.2.3");
 * semverT.unwrap(v); // "1.2.3"
 * ```
 */
export interface OpaqueType<T> {
  /** The CEL type, for function signatures. */
  readonly type: CelObjectType;
  /** A CEL value of this type holding `value`; `key` decides equality. */
  wrap(value: T, key: string): ReflectMessage;
  /** The JS value a CEL value of this type holds. */
  unwrap(v: ReflectMessage): T;
}

/**
 * Defines an opaque type. `fromKey` rebuilds the JS value from the equality key when a value
 * reaches a function without its side-table entry (a copy made by the evaluator).
 *
 * @example
 * ```ts
 * import { opaqueType } from "./lib-opaque.ts";
 * const t = opaqueType<number>("kubernetes.Quantity", Number);
 * t.unwrap(t.wrap(5, "5")); // 5
 * ```
 */
export function opaqueType<T>(name: OpaqueTypeName, fromKey: (key: string) => T): OpaqueType<T> {
  const desc = descOf(name);
  const field = desc.fields[0]!;
  const values = new WeakMap<object, T>();
  return {
    type: objectType(desc),
    wrap(value, key) {
      const message = create(desc, { [field.localName]: key } as never);
      values.set(message, value);
      return reflect(desc, message);
    },
    unwrap(v) {
      const known = values.get(v.message);
      if (known !== undefined) return known;
      const value = fromKey(v.get(field) as string);
      values.set(v.message, value);
      return value;
    },
  };
}
