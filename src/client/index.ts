/**
 * The client layer: {@link ResourceClient} (typed CRUD, patches and server-side apply over
 * client-node's transport, on plain JSON), the request counter, the API-backed
 * {@link ObjectReader}, status conditions and the skip-if-unchanged status writer.
 *
 * @example
 * ```ts
 * import { ResourceClient, writeStatus } from "operator-runtime";
 * const client = new ResourceClient({ kubeConfig, fieldManager: "widget-operator" });
 * const widget = await client.get({ apiVersion: "example.com/v1", kind: "Widget", namespace: "default", name: "w" });
 * await writeStatus(client, widget, { phase: "Ready" }, { conditions: [{ type: "Ready", status: "True", reason: "Reconciled" }] });
 * ```
 * @module
 */
export { ResourceClient } from "./resource-client.ts";
export type { DeleteOptions, ListCallOptions, ListPage, PatchType, RequestOptions, ResourceClientOptions, ShardInfo, WriteOptions } from "./client-options.ts";
export type { ResourceInfo } from "./discovery.ts";
export { RequestCounter } from "./request-counter.ts";
export type { ClientRequestRecord, RequestVerb } from "./request-counter.ts";
export type { RequestFilter, RequestLog, RequestRecord } from "../util/request-log.ts";
export { ApiReader } from "./api-reader.ts";
export { findCondition, isConditionTrue, setCondition } from "./conditions.ts";
export type { Condition } from "./conditions.ts";
export { writeStatus } from "./status-writer.ts";
export type { StatusOf, StatusPatch } from "./status-writer.ts";
export type { StatusWriteResult, WriteStatusOptions } from "./status-writer.ts";
export type { KindRef, KubeObject, ListOptions, ObjectReader, ObjectRef, OwnerReference } from "./types.ts";
