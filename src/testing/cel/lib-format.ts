/**
 * Kubernetes' CEL format library (`format.named(name)`, `format.<name>()`,
 * `<Format>.validate(s)`), and the part of cel-go's optional types it needs: values of type
 * `optional_type` with `hasValue()`, `value()`, `orValue(v)`, `or(opt)`, and the functions
 * `optional.of`, `optional.ofNonZeroValue`, `optional.none`, `optional.unwrap`.
 *
 * `@bufbuild/cel` 0.6 has no optional types, so an optional is an opaque value here; the
 * optional syntax (`x.?field`, `m[?key]`, `[?opt]`) is not parsed, and the `optMap` /
 * `optFlatMap` macros are not available.
 *
 * @module
 */
import { CelScalar, celFunc, celMethod, isCelList, isCelMap, isCelType, isCelUint, listType } from "@bufbuild/cel";
import type { CelFunc, CelList, CelValue } from "@bufbuild/cel";
import { matchesFormat } from "../crd/formats.ts";
import { labelValueErrors, qualifiedNameErrors } from "../metadata-validation.ts";
import { dns1035LabelErrors, dns1123LabelErrors, dns1123SubdomainErrors } from "../names.ts";
import { opaqueType } from "./lib-opaque.ts";
import { requestUriError } from "./lib-url.ts";

/** An optional: empty, or holding a value. */
export type Optional = { readonly present: false } | { readonly present: true; readonly value: CelValue };

let identity = 0;

/** An equality key for a value in an optional: exact for scalars and lists of strings, else identity. */
function valueKey(v: CelValue): string {
  if (typeof v === "string" || typeof v === "boolean") return `${typeof v}:${JSON.stringify(v)}`;
  if (typeof v === "bigint" || typeof v === "number") return `num:${Number(v)}`;
  if (isCelUint(v)) return `num:${Number(v.value)}`;
  if (v === null) return "null";
  if (isCelList(v) && [...v].every((x) => typeof x === "string")) return `strings:${JSON.stringify([...v])}`;
  return `id:${++identity}`;
}

const optionalT = opaqueType<Optional>("optional_type", (key) => {
  if (key === "none") return { present: false };
  throw new Error("internal: an optional value lost its contents");
});
const OPT = optionalT.type;

/**
 * A CEL optional value.
 *
 * @example
 * ```ts
 * import { optionalOf } from "./lib-format.ts";
 * optionalOf(undefined); // optional.none()
 * optionalOf("x");       // optional.of("x")
 * ```
 */
export function optionalOf(value: CelValue | undefined) {
  if (value === undefined) return optionalT.wrap({ present: false }, "none");
  return optionalT.wrap({ present: true, value }, `of:${valueKey(value)}`);
}

function isZero(v: CelValue): boolean {
  if (v === null || v === false || v === "" || v === 0 || v === 0n) return true;
  if (isCelUint(v)) return v.value === 0n;
  if (v instanceof Uint8Array) return v.length === 0;
  if (isCelList(v) || isCelMap(v)) return v.size === 0;
  return false;
}

/** A named format: its Go-side name and its validation. */
interface NamedFormat {
  readonly name: string;
  readonly validate: (s: string) => string[];
}

/** apimachinery's `maskTrailingDash`, used by the `*Prefix` formats. */
function maskTrailingDash(s: string): string {
  return s.length > 1 && s.endsWith("-") ? `${s.slice(0, -2)}a` : s;
}

const check = (format: string, message: string) => (s: string) => (matchesFormat(format, s) ? [] : [message]);

/** The formats of kube-apiserver 1.36's format library, by the name CEL calls them. */
const FORMATS: Record<string, NamedFormat> = {
  dns1123Label: { name: "DNS1123Label", validate: dns1123LabelErrors },
  dns1123Subdomain: { name: "DNS1123Subdomain", validate: dns1123SubdomainErrors },
  dns1035Label: { name: "DNS1035Label", validate: dns1035LabelErrors },
  qualifiedName: { name: "QualifiedName", validate: qualifiedNameErrors },
  dns1123LabelPrefix: { name: "DNS1123LabelPrefix", validate: (s) => dns1123LabelErrors(maskTrailingDash(s)) },
  dns1123SubdomainPrefix: { name: "DNS1123SubdomainPrefix", validate: (s) => dns1123SubdomainErrors(maskTrailingDash(s)) },
  dns1035LabelPrefix: { name: "DNS1035LabelPrefix", validate: (s) => dns1035LabelErrors(maskTrailingDash(s)) },
  labelValue: { name: "LabelValue", validate: labelValueErrors },
  uri: {
    name: "URI",
    validate: (s) => {
      const e = requestUriError(s);
      return e === undefined ? [] : [e];
    },
  },
  uuid: { name: "uuid", validate: check("uuid", "does not match the UUID format") },
  byte: { name: "byte", validate: check("byte", "invalid base64") },
  date: { name: "date", validate: check("date", "invalid date") },
  datetime: { name: "datetime", validate: check("datetime", "invalid datetime") },
};

/** The names `format.named()` knows, which are also the `format.<name>()` functions. */
export const FORMAT_NAMES: readonly string[] = Object.keys(FORMATS);

const formatT = opaqueType<NamedFormat>("kubernetes.NamedFormat", (key) => FORMATS[key]!);
const wrapFormat = (key: string) => formatT.wrap(FORMATS[key]!, key);
const FORMAT = formatT.type;
const { STRING, BOOL, DYN } = CelScalar;
const LIST = listType(DYN);

type OptionalValue = Parameters<typeof optionalT.unwrap>[0];

function unwrapOpt(v: OptionalValue): Optional {
  return optionalT.unwrap(v);
}

function isOptional(v: CelValue): v is OptionalValue {
  return v !== null && typeof v === "object" && !isCelType(v) && "desc" in v && "message" in v && v.desc.typeName === "optional_type";
}

/**
 * The format library and the optional-type functions.
 *
 * @example
 * ```ts
 * import { run } from "@bufbuild/cel";
 * import { FORMAT_FUNCS } from "./lib-format.ts";
 * run("format.dns1123Label().validate('Not-A-Label').hasValue()", {}, { funcs: [...FORMAT_FUNCS] }); // true
 * ```
 */
export const FORMAT_FUNCS: readonly CelFunc[] = [
  ...FORMAT_NAMES.map((key) => celFunc(`format.${key}`, [], FORMAT, () => wrapFormat(key))),
  celFunc("format.named", [STRING], OPT, (name) => optionalOf(Object.hasOwn(FORMATS, name) ? wrapFormat(name) : undefined)),
  celMethod("validate", FORMAT, [STRING], OPT, function (s) {
    const errs = formatT.unwrap(this).validate(s);
    return optionalOf(errs.length === 0 ? undefined : (errs as unknown as CelList));
  }),
  celFunc("optional.of", [DYN], OPT, (v) => optionalOf(v)),
  celFunc("optional.ofNonZeroValue", [DYN], OPT, (v) => optionalOf(isZero(v) ? undefined : v)),
  celFunc("optional.none", [], OPT, () => optionalOf(undefined)),
  celFunc("optional.unwrap", [LIST], LIST, (list) => {
    const out: CelValue[] = [];
    for (const item of list) {
      if (!isOptional(item)) throw new Error("no such overload: optional.unwrap of a list that is not of optionals");
      const o = unwrapOpt(item);
      if (o.present) out.push(o.value);
    }
    return out;
  }),
  celMethod("hasValue", OPT, [], BOOL, function () {
    return unwrapOpt(this).present;
  }),
  celMethod("value", OPT, [], DYN, function () {
    const o = unwrapOpt(this);
    if (!o.present) throw new Error("optional.none() dereference");
    return o.value;
  }),
  celMethod("orValue", OPT, [DYN], DYN, function (v) {
    const o = unwrapOpt(this);
    return o.present ? o.value : v;
  }),
  celMethod("or", OPT, [OPT], OPT, function (other) {
    return unwrapOpt(this).present ? this : other;
  }),
];

