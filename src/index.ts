/**
 * operator-runtime: write Kubernetes operators in TypeScript.
 *
 * The SDK surface grows issue by issue: the fluent Builder, the ResourceClient and the
 * controller runtime land next. Today this entry point re-exports the shared object type;
 * the embedded API server for tests lives at `operator-runtime/testing`.
 *
 * @example
 * ```ts
 * import type { KubeObject } from "operator-runtime";
 * const cm: KubeObject = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "demo" } };
 * ```
 * @module
 */
export type { KubeObject, ObjectMeta, OwnerReference } from "./testing/resource-type.ts";
