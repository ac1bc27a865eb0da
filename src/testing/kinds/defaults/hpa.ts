/**
 * HorizontalPodAutoscaler defaults: autoscaling/v2 `SetDefaults_HorizontalPodAutoscaler` (one
 * replica minimum, 80 % CPU utilization when no metric is given, the scaling behavior's
 * default rules once a behavior is given) and autoscaling/v1's minimum; the zero status the
 * encoding shows on create.
 */
import type { KindDefaults, Obj } from "./types.ts";
import { objectAt, orDefault } from "./types.ts";

/** HorizontalPodAutoscaler (autoscaling/v1 and v2). */
export const horizontalPodAutoscaler: KindDefaults = {
  decode(obj, version) {
    const spec = objectAt(obj, "spec");
    if (!spec) return;
    orDefault(spec, "minReplicas", 1);
    if (version === "v1") return;
    if (!Array.isArray(spec.metrics) || spec.metrics.length === 0) {
      spec.metrics = [{ type: "Resource", resource: { name: "cpu", target: { type: "Utilization", averageUtilization: 80 } } }];
    }
    const behavior = objectAt(spec, "behavior");
    if (behavior) {
      behavior.scaleUp = scalingRules(objectAt(behavior, "scaleUp"), SCALE_UP);
      behavior.scaleDown = scalingRules(objectAt(behavior, "scaleDown"), SCALE_DOWN);
    }
  },
  create(obj, _ctx, version) {
    obj.status = version === "v1" ? { currentReplicas: 0, desiredReplicas: 0 } : { desiredReplicas: 0 };
  },
};

/** The default scaling rules of each direction. */
const SCALE_UP: Obj = {
  stabilizationWindowSeconds: 0,
  selectPolicy: "Max",
  policies: [{ type: "Pods", value: 4, periodSeconds: 15 }, { type: "Percent", value: 100, periodSeconds: 15 }],
};
/** No scale-down stabilization window: kube-controller-manager's flag decides it. */
const SCALE_DOWN: Obj = {
  selectPolicy: "Max",
  policies: [{ type: "Percent", value: 100, periodSeconds: 15 }],
};

function scalingRules(given: Obj | undefined, defaults: Obj): Obj {
  if (!given) return structuredClone(defaults);
  const out = { ...given };
  if (defaults.stabilizationWindowSeconds !== undefined) orDefault(out, "stabilizationWindowSeconds", defaults.stabilizationWindowSeconds);
  orDefault(out, "selectPolicy", defaults.selectPolicy);
  if (!Array.isArray(out.policies)) out.policies = structuredClone(defaults.policies);
  return out;
}
