/**
 * Which rule kube-apiserver applies to each kind's `metadata.name`: the one table the Builder's
 * validation (before any request) and LocalCluster's (on create) both read, so the two cannot
 * disagree about a name.
 *
 * kube-apiserver 1.36 picks the rule per kind (its `Validate…Name` functions): Services are
 * DNS-1035 labels (`NameIsDNS1035Label`: they become DNS names, which may not start with a
 * digit), Namespaces and StatefulSets DNS-1123 labels (`NameIsDNSLabel`; a StatefulSet's Pods
 * take their hostnames from it, and only on create: older StatefulSets named as subdomains can
 * still be updated), the RBAC kinds path segments (`ValidateRBACName`, so
 * `system:controller:x` is a valid ClusterRole), CronJobs DNS-1123 subdomains of at most 52
 * characters (their Jobs append an 11-character suffix); every other kind — custom resources
 * included — a DNS-1123 subdomain (`NameIsDNSSubdomain`).
 *
 * @module
 */

/** The formats of object names kube-apiserver checks (apimachinery's `IsDNS1123Subdomain`, …). */
export type NameFormat = "dns1123-subdomain" | "dns1123-label" | "dns1035-label" | "path-segment";

/**
 * The rule for one kind's `metadata.name`, as {@link nameRuleOf} returns it.
 *
 * @example
 * ```ts
 * const rule: NameRule = nameRuleOf("", "Service");
 * rule.format; // "dns1035-label"
 * ```
 */
export interface NameRule {
  /** The kind (for messages). */
  readonly kind: string;
  /** Its API group, `""` for the core group. */
  readonly group: string;
  readonly format: NameFormat;
  /** A limit below the format's own that kube-apiserver adds for the kind on create (CronJob: 52). */
  readonly maxLength?: number;
  /** Why the kind has a rule of its own, for messages (e.g. "its Pods' hostnames are made from it"). */
  readonly because?: string;
}

/** apimachinery's DNS-1123 label regex (`dns1123LabelFmt`). */
export const DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
/** apimachinery's DNS-1123 subdomain regex (`dns1123SubdomainFmt`). */
export const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
/** apimachinery's DNS-1035 label regex (`dns1035LabelFmt`). */
export const DNS1035_LABEL_FMT = "[a-z]([-a-z0-9]*[a-z0-9])?";

const PATTERNS: Readonly<Record<Exclude<NameFormat, "path-segment">, RegExp>> = {
  "dns1123-label": new RegExp(`^${DNS1123_LABEL_FMT}$`),
  "dns1123-subdomain": new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`),
  "dns1035-label": new RegExp(`^${DNS1035_LABEL_FMT}$`),
};

/** The longest name each format allows (path segments have no limit of their own). */
export const FORMAT_MAX_LENGTH: Readonly<Record<NameFormat, number | undefined>> = {
  "dns1123-label": 63,
  "dns1123-subdomain": 253,
  "dns1035-label": 63,
  "path-segment": undefined,
};

type Special = Omit<NameRule, "kind" | "group">;
const RBAC = "rbac.authorization.k8s.io";
const PATH_SEGMENT: Special = { format: "path-segment", because: "RBAC names are only used in URL paths (so \"system:controller:x\" is valid)" };

/** Every kind whose rule is not the default DNS-1123 subdomain, by `group/Kind`. */
const SPECIAL: Readonly<Record<string, Special>> = {
  "/Service": { format: "dns1035-label", because: "a Service's name is its DNS name in the cluster, which may not start with a digit" },
  "/Namespace": { format: "dns1123-label", because: "a Namespace's name is a part of DNS names in the cluster" },
  "apps/StatefulSet": { format: "dns1123-label", because: "its Pods' hostnames are made from it" },
  "batch/CronJob": { format: "dns1123-subdomain", maxLength: 52, because: "its Jobs are named after it with an 11-character suffix, within 63 characters" },
  [`${RBAC}/Role`]: PATH_SEGMENT,
  [`${RBAC}/ClusterRole`]: PATH_SEGMENT,
  [`${RBAC}/RoleBinding`]: PATH_SEGMENT,
  [`${RBAC}/ClusterRoleBinding`]: PATH_SEGMENT,
};

/**
 * The name rule kube-apiserver applies to a kind on create. Kinds it has no special rule for —
 * custom resources, and built-in kinds such as ConfigMap, Secret, Deployment, Pod or
 * PersistentVolumeClaim — get a DNS-1123 subdomain. (A CRD cannot define a kind in a built-in
 * group, so `group/kind` names one kind.)
 *
 * @example
 * ```ts
 * nameRuleOf("", "Service").format;            // "dns1035-label"
 * nameRuleOf("apps", "StatefulSet").format;    // "dns1123-label"
 * nameRuleOf("example.com", "Widget").format;  // "dns1123-subdomain"
 * ```
 */
export function nameRuleOf(group: string, kind: string): NameRule {
  const special = Object.hasOwn(SPECIAL, `${group}/${kind}`) ? SPECIAL[`${group}/${kind}`] : undefined;
  return { kind, group, ...(special ?? { format: "dns1123-subdomain" }) };
}

/**
 * The group of an `apiVersion` (`"apps/v1"` → `"apps"`, `"v1"` → `""`).
 *
 * @example
 * ```ts
 * groupOf("rbac.authorization.k8s.io/v1"); // "rbac.authorization.k8s.io"
 * ```
 */
export function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf("/");
  return slash === -1 ? "" : apiVersion.slice(0, slash);
}

/**
 * Whether `name` has the format (the regex and length of apimachinery's check).
 *
 * @example
 * ```ts
 * matchesFormat("dns1035-label", "9cache");     // false
 * matchesFormat("dns1123-label", "9cache");     // true
 * matchesFormat("path-segment", "system:auth"); // true
 * ```
 */
export function matchesFormat(format: NameFormat, name: string): boolean {
  if (format === "path-segment") return name !== "" && name !== "." && name !== ".." && !name.includes("/") && !name.includes("%");
  return name.length <= FORMAT_MAX_LENGTH[format]! && PATTERNS[format].test(name);
}

/**
 * Why `name` breaks `rule`, in plain words (`starts with "9", not a lower-case letter`), or
 * undefined when kube-apiserver accepts it. Agrees with apimachinery's checks: undefined
 * exactly when they find nothing.
 *
 * @example
 * ```ts
 * nameProblem(nameRuleOf("", "Service"), "9cache"); // 'starts with "9", not a lower-case letter'
 * nameProblem(nameRuleOf("", "ConfigMap"), "9cache"); // undefined
 * ```
 */
export function nameProblem(rule: NameRule, name: string): string | undefined {
  if (name === "") return "is empty";
  const max = rule.maxLength ?? FORMAT_MAX_LENGTH[rule.format];
  if (max !== undefined && name.length > max) return `is ${name.length} characters long, more than ${max}`;
  if (rule.format === "path-segment") {
    if (name === "." || name === "..") return `is ${JSON.stringify(name)}`;
    const bad = ["/", "%"].filter((c) => name.includes(c));
    return bad.length ? `contains ${bad.map((c) => JSON.stringify(c)).join(" and ")}` : undefined;
  }
  if (matchesFormat(rule.format, name)) return undefined;
  const dots = rule.format === "dns1123-subdomain";
  const allowed = dots ? /[a-z0-9.-]/ : /[a-z0-9-]/;
  const bad = [...new Set([...name].filter((c) => !allowed.test(c)))];
  if (bad.some((c) => /[A-Z]/.test(c))) return "contains upper-case letters";
  if (bad.length) return `contains ${bad.map((c) => JSON.stringify(c)).join(", ")}`;
  if (rule.format === "dns1035-label" && !/^[a-z]/.test(name)) return `starts with ${JSON.stringify(name[0])}, not a lower-case letter`;
  // Only '-' and '.' placement is left: each dot-separated part must start and end with a letter or digit.
  for (const part of dots ? name.split(".") : [name]) {
    if (part === "") return "has an empty part between dots (or a dot at either end)";
    if (part.startsWith("-")) return dots && part !== name ? `has the part ${JSON.stringify(part)} starting with "-"` : 'starts with "-"';
    if (part.endsWith("-")) return dots && part !== name ? `has the part ${JSON.stringify(part)} ending with "-"` : 'ends with "-"';
  }
  return "is not in the allowed format";
}

/**
 * The rule in words: the format's name and what it allows, e.g. `a DNS-1035 label (start with
 * a lower-case letter and end with a letter or digit; a-z, 0-9 and '-'; at most 63 characters)`.
 *
 * @example
 * ```ts
 * describeNameRule(nameRuleOf("apps", "StatefulSet")); // "a DNS-1123 label (…; at most 63 characters)"
 * ```
 */
export function describeNameRule(rule: NameRule): string {
  const max = rule.maxLength ?? FORMAT_MAX_LENGTH[rule.format];
  switch (rule.format) {
    case "dns1035-label":
      return `a DNS-1035 label (start with a lower-case letter and end with a letter or digit; a-z, 0-9 and '-'; at most ${max} characters)`;
    case "dns1123-label":
      return `a DNS-1123 label (start and end with a lower-case letter or digit; a-z, 0-9 and '-'; at most ${max} characters)`;
    case "dns1123-subdomain":
      return `a DNS-1123 subdomain (start and end with a lower-case letter or digit; a-z, 0-9, '-' and '.'; at most ${max} characters)`;
    case "path-segment":
      return "a path segment name (not \".\" or \"..\", and without '/' or '%')";
  }
}

/**
 * A name close to `name` that `rule` accepts, to suggest in a fix: lower-cased, other
 * characters turned into '-', trimmed to the limit, and for a DNS-1035 label that would start
 * with a digit, prefixed with a short form of the kind (`svc-` for Services).
 *
 * @example
 * ```ts
 * suggestNameFor(nameRuleOf("", "Service"), "9cache");     // "svc-9cache"
 * suggestNameFor(nameRuleOf("", "ConfigMap"), "My_Config"); // "my-config"
 * ```
 */
export function suggestNameFor(rule: NameRule, name: string): string {
  if (rule.format === "path-segment") {
    const cleaned = name.replace(/[/%]+/g, "-");
    return cleaned === "" || cleaned === "." || cleaned === ".." ? "my-object" : cleaned;
  }
  const max = rule.maxLength ?? FORMAT_MAX_LENGTH[rule.format]!;
  const other = rule.format === "dns1123-subdomain" ? /[^a-z0-9.]+/g : /[^a-z0-9]+/g;
  const trim = (s: string) => s.replace(/^[^a-z0-9]+|[^a-z0-9]+$/g, "");
  let cleaned = trim(name.toLowerCase().replace(other, "-").replace(/\.{2,}/g, ".").replace(/-?\.-?/g, "."));
  if (rule.format === "dns1035-label" && /^[0-9]/.test(cleaned)) cleaned = `${rule.kind === "Service" ? "svc" : rule.kind.toLowerCase() || "x"}-${cleaned}`;
  cleaned = trim(cleaned.slice(0, max));
  return cleaned && matchesFormat(rule.format, cleaned) ? cleaned : "my-object";
}
