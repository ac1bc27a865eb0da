/**
 * Handles of the built-in kinds the Builder manages (and Pods), typed from client-node's
 * models as plain JSON. Each name is both the handle (a value) and its object type.
 */
import type {
  V1ConfigMap, V1Deployment, V1PersistentVolumeClaim, V1Pod, V1Secret, V1Service, V1StatefulSet,
} from "@kubernetes/client-node";
import { kindFromModel } from "./kind.ts";
import type { Plain } from "./plain.ts";

/**
 * `v1` ConfigMap: the handle and, as a type, `V1ConfigMap` as plain JSON.
 *
 * @example
 * ```ts
 * const cm = await client.get({ ...ConfigMap, name: "app", namespace: "default" });
 * console.log(cm.data?.["app.properties"]);
 * ```
 */
export const ConfigMap = kindFromModel<V1ConfigMap>({ apiVersion: "v1", kind: "ConfigMap" });
export type ConfigMap = Plain<V1ConfigMap>;

/**
 * `v1` Secret: the handle and, as a type, `V1Secret` as plain JSON (`data` values base64).
 *
 * @example
 * ```ts
 * const secrets = await client.list(Secret, { namespace: "default", labelSelector: "app=web" });
 * ```
 */
export const Secret = kindFromModel<V1Secret>({ apiVersion: "v1", kind: "Secret" });
export type Secret = Plain<V1Secret>;

/**
 * `apps/v1` Deployment: the handle and, as a type, `V1Deployment` as plain JSON.
 *
 * @example
 * ```ts
 * const web = mgr.cache.informer(Deployment).get("web", "default");
 * console.log(web?.status?.readyReplicas);
 * ```
 */
export const Deployment = kindFromModel<V1Deployment>({ apiVersion: "apps/v1", kind: "Deployment" });
export type Deployment = Plain<V1Deployment>;

/**
 * `apps/v1` StatefulSet: the handle and, as a type, `V1StatefulSet` as plain JSON.
 *
 * @example
 * ```ts
 * import { Action } from "operator-runtime";
 *
 * mgr.controller("greeting").for(Greeting).owns(StatefulSet).reconcile(async (req, ctx) => {
 *   ctx.log.info("reconciling", { name: req.name });
 *   return Action.done();
 * });
 * ```
 */
export const StatefulSet = kindFromModel<V1StatefulSet>({ apiVersion: "apps/v1", kind: "StatefulSet" });
export type StatefulSet = Plain<V1StatefulSet>;

/**
 * `v1` Service: the handle and, as a type, `V1Service` as plain JSON.
 *
 * @example
 * ```ts
 * const svc = await client.get({ ...Service, name: "web", namespace: "default" });
 * console.log(svc.spec?.clusterIP);
 * ```
 */
export const Service = kindFromModel<V1Service>({ apiVersion: "v1", kind: "Service" });
export type Service = Plain<V1Service>;

/**
 * `v1` PersistentVolumeClaim: the handle and, as a type, `V1PersistentVolumeClaim` as plain
 * JSON.
 *
 * @example
 * ```ts
 * const claims = await client.list(PersistentVolumeClaim, { namespace: "default" });
 * ```
 */
export const PersistentVolumeClaim = kindFromModel<V1PersistentVolumeClaim>({ apiVersion: "v1", kind: "PersistentVolumeClaim" });
export type PersistentVolumeClaim = Plain<V1PersistentVolumeClaim>;

/**
 * `v1` Pod: the handle and, as a type, `V1Pod` as plain JSON.
 *
 * @example
 * ```ts
 * const pods = await cache.list(Pod, { namespace: "default", labelSelector: "app=web" });
 * console.log(pods.map((p) => p.status?.phase));
 * ```
 */
export const Pod = kindFromModel<V1Pod>({ apiVersion: "v1", kind: "Pod" });
export type Pod = Plain<V1Pod>;
