/**
 * The Kubernetes CEL function libraries LocalCluster offers to CRD validation rules
 * (`x-kubernetes-validations`), on top of `@bufbuild/cel` (which brings the standard functions,
 * the macros, timestamps, durations and `matches`).
 *
 * kube-apiserver 1.36's base CEL environment (k8s.io/apiserver/pkg/cel/environment) enables the
 * Kubernetes libraries URLs, Regex, Lists, Authz, Quantity, IP, CIDR, Format, Semver (and the
 * feature-gated AuthzSelectors), and cel-go's extensions Strings (version 2), Sets, optional
 * types and two-variable comprehensions. What LocalCluster implements is in
 * {@link KUBERNETES_CEL_FUNCS}; what it does not is in {@link UNSUPPORTED_KUBERNETES_FUNCTIONS}.
 *
 * The opaque values of these libraries (`kubernetes.Quantity`, `kubernetes.URL`, `net.IP`,
 * `net.CIDR`, `kubernetes.Semver`, `kubernetes.NamedFormat`, `optional_type`) are one-field
 * protobuf messages built at runtime (see `lib-opaque.ts`), so `type(x)` names them as
 * Kubernetes does and `==` compares them as Kubernetes' `Equal` does.
 *
 * @module
 */
import { celEnv } from "@bufbuild/cel";
import type { CelFunc } from "@bufbuild/cel";
import { strings } from "@bufbuild/cel/ext";
import { FORMAT_FUNCS } from "./lib-format.ts";
import { IP_FUNCS } from "./lib-ip.ts";
import { LIST_FUNCS } from "./lib-lists.ts";
import { QUANTITY_FUNCS } from "./lib-quantity.ts";
import { REGEX_FUNCS } from "./lib-regex.ts";
import { SEMVER_FUNCS } from "./lib-semver.ts";
import { URL_FUNCS } from "./lib-url.ts";

/**
 * Every Kubernetes CEL library function LocalCluster implements (lists, sets, regex, quantity,
 * url, ip, cidr, semver, format and the optional values it answers) and cel-go's strings
 * extension (version 2: `charAt`, `indexOf`, `lastIndexOf`, `lowerAscii`, `upperAscii`,
 * `replace`, `split`, `substring`, `trim`, `join`, `format`, `strings.quote`), to pass as `funcs`
 * to `@bufbuild/cel`'s `celEnv` / `plan` / `run`.
 *
 * @example
 * ```ts
 * import { run } from "@bufbuild/cel";
 * import { KUBERNETES_CEL_FUNCS } from "./library.ts";
 * run("'abc'.upperAscii()", {}, { funcs: [...KUBERNETES_CEL_FUNCS] }); // "ABC"
 * ```
 */
export const KUBERNETES_CEL_FUNCS: readonly CelFunc[] = [
  ...strings,
  ...LIST_FUNCS,
  ...REGEX_FUNCS,
  ...QUANTITY_FUNCS,
  ...URL_FUNCS,
  ...IP_FUNCS,
  ...SEMVER_FUNCS,
  ...FORMAT_FUNCS,
];

/** CEL's macros: parsed into comprehensions, so they are no functions of the environment. */
const MACROS = ["has", "all", "exists", "exists_one", "map", "filter"];

/** Operators the planner evaluates itself (short-circuits, ternary, index). */
const PLANNER_OPERATORS = ["_&&_", "_||_", "_?_:_", "_[_]", "@not_strictly_false"];

/**
 * Every function, method, operator (`_+_`, `_[_]`, …) and macro name a rule may call: the
 * standard library of `@bufbuild/cel`, the macros, and {@link KUBERNETES_CEL_FUNCS}.
 *
 * @example
 * ```ts
 * import { SUPPORTED_CEL_FUNCTIONS } from "./library.ts";
 * SUPPORTED_CEL_FUNCTIONS.has("quantity"); // true
 * SUPPORTED_CEL_FUNCTIONS.has("exists_one"); // true
 * ```
 */
export const SUPPORTED_CEL_FUNCTIONS: ReadonlySet<string> = new Set<string>([
  ...MACROS,
  ...PLANNER_OPERATORS,
  ...[...celEnv({ funcs: [...KUBERNETES_CEL_FUNCS] }).funcs].map((f) => f.name),
]);

const AUTHZ = "needs the `authorizer` variable, which only ValidatingAdmissionPolicy and MutatingAdmissionPolicy expressions have, never CRD validation rules";
const OPTIONALS_SYNTAX =
  "a macro of CEL optional types: LocalCluster has optional values (optional.of, hasValue, value, orValue, or) but @bufbuild/cel 0.6 parses no optional syntax (x.?f, m[?k], [?v]) nor its macros";
const TWO_VAR = "a macro of cel-go's two-variable comprehensions extension, which @bufbuild/cel 0.6 does not parse";

/**
 * Kubernetes CEL functions (of kube-apiserver 1.36's CRD validation environment, or of its
 * other CEL environments) LocalCluster does not implement, name → why.
 *
 * @example
 * ```ts
 * import { UNSUPPORTED_KUBERNETES_FUNCTIONS } from "./library.ts";
 * UNSUPPORTED_KUBERNETES_FUNCTIONS.get("transformList"); // "a macro of cel-go's two-variable …"
 * ```
 */
export const UNSUPPORTED_KUBERNETES_FUNCTIONS: ReadonlyMap<string, string> = new Map<string, string>([
  // Optional types beyond the values the format library needs.
  ["optMap", OPTIONALS_SYNTAX],
  ["optFlatMap", OPTIONALS_SYNTAX],
  // Two-variable comprehensions (cel-go ext.TwoVarComprehensions, enabled since 1.32).
  ["transformList", TWO_VAR],
  ["transformMap", TWO_VAR],
  ["transformMapEntry", TWO_VAR],
  ["existsOne", TWO_VAR],
  // The authz library (and its selectors).
  ...[
    "path",
    "group",
    "serviceAccount",
    "resource",
    "subresource",
    "namespace",
    "name",
    "check",
    "allowed",
    "reason",
    "errored",
    "error",
    "fieldSelector",
    "labelSelector",
  ].map((name): [string, string] => [name, `an authz library function: it ${AUTHZ}`]),
  // Quantity arithmetic newer than kube-apiserver 1.36.
  ...["mul", "div", "divInt"].map((name): [string, string] => [
    name,
    "a quantity function Kubernetes added after v1.36 (k8s.io/apiserver's library lists it under a release not yet assigned); kube-apiserver 1.36 rejects it too",
  ]),
  ...["image", "isImage", "containsDigest", "registry", "repository", "identifier", "tag", "digest"].map((name): [string, string] => [
    name,
    "an image library function (container image references); LocalCluster does not implement that library",
  ]),
  ["includes", "version 1 of the Kubernetes lists library, which kube-apiserver 1.36's base environment does not enable (it uses version 0)"],
  ["jsonpatch.escapeKey", "only in MutatingAdmissionPolicy's JSONPatch expressions, never CRD validation rules"],
]);
