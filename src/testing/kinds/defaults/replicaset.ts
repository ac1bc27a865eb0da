/**
 * ReplicaSet, ReplicationController and PodTemplate defaults: apps/v1 `SetDefaults_ReplicaSet`,
 * core/v1 `SetDefaults_ReplicationController` (selector and labels from the template) and the
 * template's pod defaults; on create the zero status the v1 encoding shows.
 */
import type { KindDefaults } from "./types.ts";
import { child, objectAt, orDefault } from "./types.ts";
import { podTemplateDefaults, templateMetadata } from "./pod-spec.ts";

/** ReplicaSet. */
export const replicaSet: KindDefaults = {
  decode(obj) {
    const spec = objectAt(obj, "spec");
    if (!spec) return;
    orDefault(spec, "replicas", 1);
    podTemplateDefaults(objectAt(spec, "template"));
  },
  create(obj) {
    templateMetadata(objectAt(objectAt(obj, "spec"), "template"));
    obj.status = { replicas: 0 };
  },
};

/** ReplicationController. */
export const replicationController: KindDefaults = {
  decode(obj) {
    const spec = objectAt(obj, "spec");
    if (!spec) return;
    const template = objectAt(spec, "template");
    const labels = objectAt(objectAt(template, "metadata"), "labels");
    if (labels && Object.keys(labels).length) {
      const selector = objectAt(spec, "selector");
      if (!selector || Object.keys(selector).length === 0) spec.selector = { ...labels };
      const meta = child(obj, "metadata");
      const own = objectAt(meta, "labels");
      if (!own || Object.keys(own).length === 0) meta.labels = { ...labels };
    }
    orDefault(spec, "replicas", 1);
    podTemplateDefaults(template);
  },
  create(obj) {
    templateMetadata(objectAt(objectAt(obj, "spec"), "template"));
    obj.status = { replicas: 0 };
  },
};

/** PodTemplate. */
export const podTemplate: KindDefaults = {
  decode(obj) {
    podTemplateDefaults(objectAt(obj, "template"));
  },
  create(obj) {
    templateMetadata(objectAt(obj, "template"));
  },
};
