/**
 * `operator-runtime/client`: everything about talking to the API server — the
 * {@link ResourceClient} and its options, the uncached {@link ApiReader}, request counting,
 * status and conditions, Kubernetes Events ({@link EventRecorder} and its sinks), every kind
 * and object type, the API error classes (`ApiError` and its kinds, `WriteRefusedError`), and
 * the structured logger.
 *
 * @example
 * ```ts
 * import { ApiReader, ResourceClient, RequestCounter, KubeConfig, ConfigMap } from "operator-runtime/client";
 *
 * const kubeConfig = new KubeConfig();
 * kubeConfig.loadFromDefault();
 * const counter = new RequestCounter();
 * const client = new ResourceClient({ kubeConfig, fieldManager: "my-operator", requests: counter });
 * const settings = await new ApiReader(client).get({ ...ConfigMap, namespace: "default", name: "settings" });
 * console.log(settings?.data, counter.total);
 * ```
 * @module
 */
export * from "../client/index.ts";
export { KubeConfig } from "../client/kube-config.ts";
export type { OwnerIndexedReader } from "../client/types.ts";
export type { ReadingClient } from "../client/api-reader.ts";
export * from "../events/index.ts";
export * from "../kinds/index.ts";
export * from "../errors.ts";
export { createLogger, silentLogger, jsonSink, jsonLineSink } from "../log/logger.ts";
export type { Logger, LogLevel, LogRecord, LogSink, LoggerOptions } from "../log/logger.ts";
