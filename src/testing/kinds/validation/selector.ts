/**
 * `metav1.LabelSelector` validation and matching as workload validation uses it: the
 * requirement checks of `ValidateLabelSelector` (its `matchLabels` map is checked with the
 * object's other label maps in metadata-validation.ts), and what `LabelSelectorAsSelector`
 * yields.
 */
import type { StatusCause } from "../../status.ts";
import { labelValueErrors, qualifiedNameErrors } from "../../metadata-validation.ts";
import { forbidden, invalid, list, obj, required, str } from "./field.ts";
import type { Obj } from "./field.ts";

/** What `LabelSelectorAsSelector` makes of a selector: nothing (nil), everything (empty), a selector, or an error. */
export type Selector = { kind: "nothing" } | { kind: "everything" } | { kind: "error" } | { kind: "match"; matches(labels: Obj | undefined): boolean };

/** Causes of `ValidateLabelSelectorRequirement` for each `matchExpressions` entry of `selector` at `field`. */
export function selectorExpressionCauses(selector: unknown, field: string): StatusCause[] {
  const causes: StatusCause[] = [];
  list(obj(selector)?.matchExpressions).forEach((raw, i) => {
    const expr = obj(raw) ?? {};
    const at = `${field}.matchExpressions[${i}]`;
    const values = list(expr.values);
    switch (expr.operator) {
      case "In":
      case "NotIn":
        if (values.length === 0) causes.push(required(`${at}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
        break;
      case "Exists":
      case "DoesNotExist":
        if (values.length > 0) causes.push(forbidden(`${at}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
        break;
      default:
        causes.push(invalid(`${at}.operator`, str(expr.operator), "not a valid selector operator"));
    }
    for (const msg of qualifiedNameErrors(str(expr.key))) causes.push(invalid(`${at}.key`, str(expr.key), msg));
    values.forEach((v, j) => {
      for (const msg of labelValueErrors(str(v))) causes.push(invalid(`${at}.values[${j}]`, str(v), msg));
    });
  });
  return causes;
}

/** `true` when the selector has neither `matchLabels` nor `matchExpressions` entries. */
export function isEmptySelector(selector: Obj): boolean {
  return Object.keys(obj(selector.matchLabels) ?? {}).length + list(selector.matchExpressions).length === 0;
}

/** The selector `LabelSelectorAsSelector` builds from `selector` (undefined = nil). */
export function asSelector(selector: unknown): Selector {
  const s = obj(selector);
  if (!s) return { kind: "nothing" };
  if (isEmptySelector(s)) return { kind: "everything" };
  const labels = Object.entries(obj(s.matchLabels) ?? {});
  for (const [k, v] of labels) if (qualifiedNameErrors(k).length || labelValueErrors(str(v)).length) return { kind: "error" };
  if (selectorExpressionCauses(s, "").length) return { kind: "error" };
  const exprs = list(s.matchExpressions).map((e) => obj(e) ?? {});
  return {
    kind: "match",
    matches(target) {
      const t = target ?? {};
      if (labels.some(([k, v]) => t[k] !== v)) return false;
      return exprs.every((e) => {
        const has = Object.hasOwn(t, str(e.key));
        const values = list(e.values);
        switch (e.operator) {
          case "In":
            return has && values.includes(t[str(e.key)]);
          case "NotIn":
            return !has || !values.includes(t[str(e.key)]);
          case "Exists":
            return has;
          default:
            return !has;
        }
      });
    },
  };
}

/** Whether a built selector matches `labels` (`Nothing` matches none, `Everything` all). */
export function selectorMatches(selector: Selector, labels: Obj | undefined): boolean {
  if (selector.kind === "everything") return true;
  if (selector.kind === "match") return selector.matches(labels);
  return false;
}
