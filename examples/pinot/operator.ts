/**
 * The pinot example: an operator for the real `datainfra.io/v1beta1` Pinot CRD (from
 * datainfrahq/pinot-control-plane-k8s). Every node of a Pinot gets a ConfigMap (its properties
 * file), a StatefulSet or Deployment built from its `k8sConfig`, and a Service; node types roll
 * out in `deploymentOrder`, a config change rolls only its node, and removing a node prunes its
 * objects but keeps its data (PersistentVolumeClaims).
 *
 * `npm run example -- pinot` runs it; see README.md.
 */
import { ConfigMap, Deployment, EventRecorder, PersistentVolumeClaim, Action, Service, StatefulSet, clientEventSink } from "../../src/index.ts";
import type { Manager } from "../../src/index.ts";
import type { ExampleOperator } from "../example.ts";
import { loadYamlFolder } from "../example.ts";
import { pinotCrd } from "./crd.ts";
import { PINOT_FIELD_MANAGER, reconcilePinot } from "./reconcile.ts";
import { Pinot } from "./types.ts";

export { Pinot } from "./types.ts";
export type { PinotSpec, PinotStatus } from "./types.ts";
export { pinotCrd } from "./crd.ts";
export { reconcilePinot, PINOT_FIELD_MANAGER } from "./reconcile.ts";
export { validatePinot } from "./validate.ts";
export { desiredObjects, orderedNodes } from "./objects.ts";
export { imagePatch, nodeConfigPatch, removeNodePatch } from "./changes.ts";
export type { JsonPatchOp } from "./changes.ts";

/** The controller's name in a shared Manager. */
export const PINOT_CONTROLLER = "pinot";

/**
 * Adds the Pinot controller to a Manager (not started yet): it reconciles every Pinot and wakes
 * on changes of the ConfigMaps, StatefulSets, Deployments and Services a Pinot controls.
 *
 * RBAC: declared on the controller; `operator-runtime gen rbac examples/pinot/manager.ts` prints
 * it (get/list/watch on pinots, patch on pinots/status, update on pinots/finalizers;
 * get/list/watch/create/patch/delete on configmaps, statefulsets, deployments, services;
 * get/list/watch/create/patch on persistentvolumeclaims; create/patch on events). Its
 * workloads reference only the ConfigMaps it writes, so it reads no Secret.
 */
export function registerPinot(mgr: Manager): void {
  const recorder = new EventRecorder({ sink: clientEventSink(mgr.client), controller: `example.com/${PINOT_FIELD_MANAGER}` });
  const pinots = mgr.cache.informer(Pinot);
  mgr.controller(PINOT_CONTROLLER)
    .for(Pinot, { status: ["patch"] }) // writeStatus
    .owns(ConfigMap) // these four are written by a Builder
    .owns(StatefulSet)
    .owns(Deployment)
    .owns(Service)
    // The claims of Deployments with storage: created and kept (never pruned), not watched.
    .uses(PersistentVolumeClaim, { verbs: ["get", "list", "watch", "create", "patch"] })
    .reconcile(async (req, ctx) => {
      const pinot = pinots.get(req.name, req.namespace);
      if (!pinot || pinot.metadata?.deletionTimestamp) return Action.done(); // garbage collection removes the children
      return reconcilePinot({ client: mgr.client, reader: mgr.cache, recorder, signal: ctx.signal }, pinot);
    });
}

/** The pinot example, as `npm run example`, the demo and the tests run it. */
export const operator: ExampleOperator = {
  name: "pinot",
  description: "Pinot clusters (datainfra.io/v1beta1): per node a ConfigMap, a StatefulSet or Deployment and a Service, rolled out in deployment order",
  crds: [pinotCrd()],
  samples: loadYamlFolder(new URL("./samples/", import.meta.url)),
  register: registerPinot,
};
