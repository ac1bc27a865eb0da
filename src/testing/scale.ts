/**
 * The `/scale` subresource: maps an object's replica fields to an `autoscaling/v1 Scale`.
 */
import type { KubeObject, ResourceType } from "./resource-type.ts";
import { labelSelectorObjectToString } from "../util/label-selector.ts";
import { selectorBadRequest } from "./status.ts";

function readPath(obj: unknown, path: string): unknown {
  let cur = obj as Record<string, unknown> | undefined;
  for (const seg of path.replace(/^\./, "").split(".")) {
    if (cur === undefined || cur === null || typeof cur !== "object") return undefined;
    cur = cur[seg] as Record<string, unknown> | undefined;
  }
  return cur;
}

function writePath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const segs = path.replace(/^\./, "").split(".");
  let cur = obj;
  for (const seg of segs.slice(0, -1)) cur = (cur[seg] ??= {}) as Record<string, unknown>;
  cur[segs[segs.length - 1]!] = value;
}

/** The Scale view of an object. */
export function getScale(type: ResourceType, obj: KubeObject): KubeObject {
  const s = type.scale!;
  const m = obj.metadata ?? {};
  let selector = s.labelSelectorPath ? readPath(obj, s.labelSelectorPath) : undefined;
  if (selector === undefined && type.builtin) {
    const sel = readPath(obj, ".spec.selector");
    if (sel && typeof sel === "object") selector = selectorBadRequest(() => labelSelectorObjectToString(sel as never));
  }
  return {
    kind: "Scale",
    apiVersion: "autoscaling/v1",
    metadata: { name: m.name, namespace: m.namespace, uid: m.uid, resourceVersion: m.resourceVersion, creationTimestamp: m.creationTimestamp },
    spec: { replicas: Number(readPath(obj, s.specReplicasPath) ?? 0) },
    status: {
      replicas: Number(readPath(obj, s.statusReplicasPath) ?? 0),
      ...(typeof selector === "string" ? { selector } : {}),
    },
  };
}

/** The object with its replicas set from a Scale (0 when it leaves them out), or undefined when they are not a number. */
export function scaleToObject(type: ResourceType, obj: KubeObject, scale: KubeObject): KubeObject | undefined {
  // Scale's spec.replicas is a plain int32 in Go: left out (or null) it decodes as 0.
  const replicas = (scale.spec as { replicas?: number | null } | undefined)?.replicas ?? 0;
  if (typeof replicas !== "number") return undefined;
  const rv = (scale.metadata as { resourceVersion?: string } | undefined)?.resourceVersion;
  if (rv) obj.metadata = { ...obj.metadata, resourceVersion: rv };
  writePath(obj, type.scale!.specReplicasPath, replicas);
  return obj;
}
