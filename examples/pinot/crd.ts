/**
 * The Pinot CRD this example installs: the upstream `datainfra.io_pinots.yaml` (kept unchanged in
 * `crds/`) with a status schema and printer columns added in code.
 *
 * Why: upstream declares `status` as a bare `type: object`, so a real API server prunes every
 * field an operator writes there (structural-schema pruning) and `kubectl get pinots` shows only
 * the age. The overlay declares `phase`, `waitingOn`, `observedGeneration`, `conditions` and
 * `nodes`, and adds `Phase` and `Waiting On` columns. The spec schema is left byte-identical, so
 * every CR the upstream CRD accepts is accepted, and only those.
 */
import type { KubeObject } from "../../src/index.ts";
import { loadYamlFile } from "../example.ts";

/** The upstream CRD, as vendored. */
export const upstreamPinotCrd: KubeObject = loadYamlFile(new URL("./crds/datainfra.io_pinots.yaml", import.meta.url))[0]!;

const conditionSchema = {
  type: "object",
  required: ["type", "status", "reason", "lastTransitionTime"],
  properties: {
    type: { type: "string" },
    status: { type: "string", enum: ["True", "False", "Unknown"] },
    reason: { type: "string" },
    message: { type: "string" },
    observedGeneration: { type: "integer", format: "int64", minimum: 0 },
    lastTransitionTime: { type: "string", format: "date-time" },
  },
};

/** The status schema of the overlay (matches `PinotStatus` in `types.ts`). */
export const pinotStatusSchema = {
  type: "object",
  description: "PinotStatus: what the operator-runtime pinot example observed (added to the upstream CRD).",
  properties: {
    phase: { type: "string", enum: ["Progressing", "Ready", "Degraded", "Invalid"] },
    waitingOn: { type: "string" },
    observedGeneration: { type: "integer", format: "int64" },
    conditions: { type: "array", items: conditionSchema, "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["type"] },
    nodes: {
      type: "array",
      items: {
        type: "object",
        required: ["name"],
        properties: {
          name: { type: "string" },
          nodeType: { type: "string" },
          workload: { type: "string" },
          replicas: { type: "integer" },
          readyReplicas: { type: "integer" },
        },
      },
    },
  },
};

const printerColumns = [
  { name: "Phase", type: "string", jsonPath: ".status.phase" },
  { name: "Waiting On", type: "string", jsonPath: ".status.waitingOn", priority: 1 },
  { name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" },
];

interface CrdVersion {
  name: string;
  schema?: { openAPIV3Schema?: { properties?: Record<string, unknown> } };
  additionalPrinterColumns?: unknown[];
}

/**
 * The CRD to install: a deep copy of `crd` (default: the upstream one) whose every version gets
 * the status schema and the printer columns. Nothing else changes.
 *
 * @example
 * ```ts
 * await installCrds(client, [pinotCrd()]);
 * ```
 */
export function pinotCrd(crd: KubeObject = upstreamPinotCrd): KubeObject {
  const copy = structuredClone(crd);
  const spec = copy.spec as { versions?: CrdVersion[] } | undefined;
  for (const version of spec?.versions ?? []) {
    const root = version.schema?.openAPIV3Schema;
    if (root?.properties) root.properties.status = structuredClone(pinotStatusSchema);
    version.additionalPrinterColumns = structuredClone(printerColumns);
  }
  copy.metadata = {
    ...copy.metadata,
    annotations: {
      ...copy.metadata?.annotations,
      "operator-runtime.io/derived-from": "datainfrahq/pinot-control-plane-k8s config/crd/bases/datainfra.io_pinots.yaml; status schema and printer columns added",
    },
  };
  return copy;
}
