/**
 * What an update may change in a Pod's spec, with kube-apiserver's messages
 * (`ValidatePodUpdate` in `pkg/apis/core/validation`).
 *
 * Only container and init container images, `activeDeadlineSeconds` (set, or lowered),
 * additions to `tolerations` (and their `tolerationSeconds`), `terminationGracePeriodSeconds`
 * from a negative value to 1, and removals from `schedulingGates` may change. Anything else is
 * `spec: Forbidden: pod updates may not change fields other than …`, followed by a diff of what
 * changed. Metadata and status are not this module's concern.
 *
 * Not modelled: a gated Pod's extra freedom (additions to `nodeSelector` and node affinity
 * while `schedulingGates` is non-empty) and in-place resize (the `/resize` subresource).
 *
 * @module
 */
import type { StatusCause } from "./status.ts";
import { forbidden, invalidValue, requiredValue } from "./status.ts";
import { semanticEqual, shareDefaults, specDiff } from "./semantic-equal.ts";

type Json = Record<string, any>;

/** The allowed changes, as kube-apiserver lists them in its message. */
const UPDATABLE = [
  "`spec.containers[*].image`",
  "`spec.initContainers[*].image`",
  "`spec.activeDeadlineSeconds`",
  "`spec.tolerations` (only additions to existing tolerations)",
  "`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)",
];

const MAX_INT32 = 2 ** 31 - 1;

/** PodSpec defaults kube-apiserver stores and LocalCluster does not (see `shareDefaults`). */
const POD_DEFAULTS: Json = {
  dnsPolicy: "ClusterFirst",
  terminationGracePeriodSeconds: 30,
  enableServiceLinks: true,
  priority: 0,
  preemptionPolicy: "PreemptLowerPriority",
};

const CONTAINER_DEFAULTS: Json = {
  terminationMessagePath: "/dev/termination-log",
  terminationMessagePolicy: "File",
  // `Always` for an untagged or `:latest` image, else `IfNotPresent`.
  imagePullPolicy: (c: Json) => {
    const image = String(c.image ?? "");
    const name = image.split("@")[0]!;
    const tag = name.lastIndexOf(":") > name.lastIndexOf("/") ? name.slice(name.lastIndexOf(":") + 1) : "";
    return !image.includes("@") && (tag === "" || tag === "latest") ? "Always" : "IfNotPresent";
  },
};

/** Options of {@link podSpecUpdateCauses}. */
export interface PodUpdateOptions {
  /**
   * The update is a scheduler's binding (kube-apiserver's `pods/binding`, which writes storage
   * without update validation): `spec.nodeName` may be set when it was unset.
   */
  binding?: boolean;
}

/**
 * The causes that make an update from `oldSpec` to `spec` invalid (empty when it is allowed).
 *
 * @example
 * ```ts
 * podSpecUpdateCauses({ containers: [{ name: "a", image: "x", command: ["b"] }] },
 *   { containers: [{ name: "a", image: "x" }] });
 * // → [{ reason: "FieldValueForbidden", field: "spec", message: "Forbidden: pod updates may not change fields other than …" }]
 * ```
 */
export function podSpecUpdateCauses(spec: Json | undefined, oldSpec: Json | undefined, opts: PodUpdateOptions = {}): StatusCause[] {
  const next: Json = structuredClone(spec ?? {});
  const prev: Json = structuredClone(oldSpec ?? {});
  shareDefaults(next, prev, POD_DEFAULTS);
  for (const list of ["containers", "initContainers"] as const) {
    arrayOf(next[list]).forEach((c, i) => shareDefaults(c, arrayOf(prev[list])[i], CONTAINER_DEFAULTS));
  }
  const causes: StatusCause[] = [];

  for (const list of ["containers", "initContainers"] as const) {
    const now = arrayOf(next[list]);
    const before = arrayOf(prev[list]);
    if (now.length !== before.length) {
      causes.push(forbidden(`spec.${list}`, "pod updates may not add or remove containers"));
      return causes;
    }
    now.forEach((c, i) => {
      const image = c?.image;
      if (typeof image !== "string" || image.length === 0) causes.push(requiredValue(`spec.${list}[${i}].image`));
      else if (image.trim() !== image) causes.push(invalidValue(`spec.${list}[${i}].image`, image, "must not have leading or trailing whitespace"));
    });
  }

  const deadline = activeDeadlineCause(next.activeDeadlineSeconds, prev.activeDeadlineSeconds);
  if (deadline) causes.push(deadline);

  const tolerations = tolerationsCause(arrayOf(next.tolerations), arrayOf(prev.tolerations));
  if (tolerations) causes.push(tolerations);

  const oldGates = new Set(arrayOf(prev.schedulingGates).map((g) => g?.name));
  arrayOf(next.schedulingGates).forEach((g, i) => {
    if (!oldGates.has(g?.name)) {
      causes.push(forbidden(`spec.schedulingGates[${i}].name`, `only deletion is allowed, but found new scheduling gate '${g?.name}'`));
    }
  });

  if (semanticEqual(next, prev, ["spec"])) return causes;

  // Take the updatable fields from the old spec; whatever still differs may not change.
  const munged: Json = structuredClone(next);
  for (const list of ["containers", "initContainers"] as const) {
    if (Array.isArray(munged[list])) {
      munged[list] = munged[list].map((c: Json, i: number) => ({ ...c, image: arrayOf(prev[list])[i]?.image }));
    }
  }
  setOrDelete(munged, "activeDeadlineSeconds", prev.activeDeadlineSeconds);
  setOrDelete(munged, "schedulingGates", prev.schedulingGates);
  setOrDelete(munged, "tolerations", prev.tolerations);
  if (typeof prev.terminationGracePeriodSeconds === "number" && prev.terminationGracePeriodSeconds < 0 && munged.terminationGracePeriodSeconds === 1) {
    munged.terminationGracePeriodSeconds = prev.terminationGracePeriodSeconds;
  }
  if (opts.binding && !prev.nodeName) setOrDelete(munged, "nodeName", prev.nodeName);

  if (!semanticEqual(munged, prev, ["spec"])) {
    causes.push(forbidden("spec", `pod updates may not change fields other than ${UPDATABLE.join(",")}\n${specDiff(prev, munged, ["spec"])}`));
  }
  return causes;
}

/** Set when unset, or lowered; never raised, never unset; always within 0…2^31−1. */
function activeDeadlineCause(next: unknown, prev: unknown): StatusCause | undefined {
  const field = "spec.activeDeadlineSeconds";
  if (next !== undefined && next !== null) {
    if (typeof next !== "number" || next < 0 || next > MAX_INT32) {
      return invalidValue(field, next, `must be between 0 and ${MAX_INT32}, inclusive`);
    }
    if (typeof prev === "number" && prev < next) return invalidValue(field, next, "must be less than or equal to previous value");
    return undefined;
  }
  if (prev !== undefined && prev !== null) {
    // kube-apiserver prints the nil pointer as the quoted string "null".
    return { reason: "FieldValueInvalid", field, message: 'Invalid value: "null": must not update from a positive integer to nil value' };
  }
  return undefined;
}

/** Every old toleration must still be there; only its `tolerationSeconds` may differ. */
function tolerationsCause(next: Json[], prev: Json[]): StatusCause | undefined {
  const withoutSeconds = (t: Json) => {
    const { tolerationSeconds: _s, ...rest } = t ?? {};
    return rest;
  };
  const kept = prev.every((o) => next.some((n) => semanticEqual(withoutSeconds(o), withoutSeconds(n))));
  return kept ? undefined : forbidden("spec.tolerations", "existing toleration can not be modified except its tolerationSeconds");
}

function arrayOf(value: unknown): Json[] {
  return Array.isArray(value) ? value : [];
}

function setOrDelete(obj: Json, key: string, value: unknown): void {
  if (value === undefined) delete obj[key];
  else obj[key] = structuredClone(value);
}
