/**
 * The `meta.k8s.io/v1` schemas a custom resource's OpenAPI refers to (`ObjectMeta`, `ListMeta`
 * and what they reference), in the OpenAPI v3 and Swagger 2.0 forms kube-apiserver publishes
 * next to every CRD kind. Field names, types and list/map extensions follow apimachinery's
 * `metav1` types; the descriptions are LocalCluster's own summaries.
 */

/** An OpenAPI schema object, as plain JSON. */
export type OpenApiSchema = Record<string, unknown>;

/** Which document a schema is for: OpenAPI v3 (`/openapi/v3/…`) or Swagger 2.0 (`/openapi/v2`). */
export type OpenApiForm = "v3" | "v2";

const META = "io.k8s.apimachinery.pkg.apis.meta.v1";

/** Definition names of the metadata schemas. */
export const OBJECT_META = `${META}.ObjectMeta`;
export const LIST_META = `${META}.ListMeta`;
const MANAGED_FIELDS_ENTRY = `${META}.ManagedFieldsEntry`;
const OWNER_REFERENCE = `${META}.OwnerReference`;
const TIME = `${META}.Time`;
const FIELDS_V1 = `${META}.FieldsV1`;

const CONVENTIONS = "https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md";

/** `#/components/schemas/<name>` (v3) or `#/definitions/<name>` (v2). */
export function refTo(name: string, form: OpenApiForm): string {
  return form === "v3" ? `#/components/schemas/${name}` : `#/definitions/${name}`;
}

/**
 * A property that refers to a named schema and carries its own description: v3 wraps the
 * reference in a one-element `allOf` (as kube-apiserver's v3 documents do, since siblings of
 * `$ref` are ignored there); v2 puts the description next to `$ref`.
 */
export function refProperty(name: string, description: string, form: OpenApiForm): OpenApiSchema {
  return form === "v3" ? { allOf: [{ $ref: refTo(name, form) }], description } : { $ref: refTo(name, form), description };
}

/** The `apiVersion` property every kind has. */
export const API_VERSION_PROPERTY: OpenApiSchema = {
  type: "string",
  description:
    "APIVersion is the versioned schema of this representation of an object. Servers convert recognized schemas to " +
    `their latest internal value and may reject unrecognized values. More info: ${CONVENTIONS}#resources`,
};

/** The `kind` property every kind has. */
export const KIND_PROPERTY: OpenApiSchema = {
  type: "string",
  description:
    "Kind is a string value for the REST resource this object represents, in CamelCase. Servers may infer it from the " +
    `endpoint the client submits requests to. Cannot be updated. More info: ${CONVENTIONS}#types-kinds`,
};

/** The description kube-apiserver gives a custom resource's `metadata`. */
export const OBJECT_METADATA_DESCRIPTION = `Standard object's metadata. More info: ${CONVENTIONS}#metadata`;

/** The description of a list's `metadata`. */
export const LIST_METADATA_DESCRIPTION = `Standard list metadata. More info: ${CONVENTIONS}#types-kinds`;

const str = (description: string): OpenApiSchema => ({ type: "string", description });
const int64 = (description: string): OpenApiSchema => ({ type: "integer", format: "int64", description });
const stringMap = (description: string): OpenApiSchema => ({ type: "object", additionalProperties: { type: "string" }, description });

/**
 * The metadata schemas by definition name: ObjectMeta, ListMeta, ManagedFieldsEntry,
 * OwnerReference, Time and FieldsV1, with references in the given form.
 *
 * @example
 * ```ts
 * metaSchemas("v3")["io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"]?.properties;
 * ```
 */
export function metaSchemas(form: OpenApiForm): Record<string, OpenApiSchema> {
  const time = (description: string) => refProperty(TIME, description, form);
  return {
    [OBJECT_META]: {
      type: "object",
      description: "ObjectMeta is the metadata that all persisted resources must have, including every object users create.",
      properties: {
        annotations: stringMap(
          "Annotations is an unstructured key value map stored with a resource that tools may set to store and retrieve " +
            "arbitrary metadata. They are not queryable. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/annotations",
        ),
        creationTimestamp: time("CreationTimestamp is the server time at which this object was created. Set by the system; read-only."),
        deletionGracePeriodSeconds: int64("Number of seconds allowed for this object to terminate gracefully before it is removed. Read-only."),
        deletionTimestamp: time("DeletionTimestamp is the time after which this resource will be deleted, set by the server when a graceful deletion is requested. Read-only."),
        finalizers: {
          type: "array",
          items: { type: "string" },
          description: "Must be empty before the object is deleted from the registry. Each entry names a component that will remove it.",
          "x-kubernetes-list-type": "set",
          "x-kubernetes-patch-strategy": "merge",
        },
        generateName: str("GenerateName is an optional prefix the server uses to generate a unique name when Name is not provided."),
        generation: int64("A sequence number representing a specific generation of the desired state. Set by the system; read-only."),
        labels: stringMap(
          "Map of string keys and values that can be used to organize and categorize (scope and select) objects. More info: " +
            "https://kubernetes.io/docs/concepts/overview/working-with-objects/labels",
        ),
        managedFields: {
          type: "array",
          items: form === "v3" ? { allOf: [{ $ref: refTo(MANAGED_FIELDS_ENTRY, form) }], default: {} } : { $ref: refTo(MANAGED_FIELDS_ENTRY, form) },
          description: "ManagedFields maps workflow-id and version to the set of fields that are managed by that workflow.",
          "x-kubernetes-list-type": "atomic",
        },
        name: str(
          "Name must be unique within a namespace. Required when creating resources, unless generateName is used. Cannot be " +
            "updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names",
        ),
        namespace: str(
          "Namespace defines the space within which each name must be unique. An empty namespace is equivalent to " +
            "\"default\". Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/namespaces",
        ),
        ownerReferences: {
          type: "array",
          items: form === "v3" ? { allOf: [{ $ref: refTo(OWNER_REFERENCE, form) }], default: {} } : { $ref: refTo(OWNER_REFERENCE, form) },
          description: "List of objects depended by this object. If ALL objects in the list have been deleted, this object will be garbage collected.",
          "x-kubernetes-list-map-keys": ["uid"],
          "x-kubernetes-list-type": "map",
          "x-kubernetes-patch-merge-key": "uid",
          "x-kubernetes-patch-strategy": "merge",
        },
        resourceVersion: str("An opaque value that represents the internal version of this object, used for optimistic concurrency. Read-only."),
        selfLink: str("Deprecated: selfLink is a legacy read-only field that is no longer populated by the system."),
        uid: str("UID is the unique in time and space value for this object. Generated by the server on successful creation; read-only."),
      },
    },
    [LIST_META]: {
      type: "object",
      description: "ListMeta describes metadata that synthetic resources must have, including lists and various status objects.",
      properties: {
        continue: str("Set when the list was truncated: pass it as the continue parameter to fetch the next page."),
        remainingItemCount: int64("The number of subsequent items in the list which are not included in this list response."),
        resourceVersion: str("The server's internal version of this list, usable to watch from it. Read-only."),
        selfLink: str("Deprecated: selfLink is a legacy read-only field that is no longer populated by the system."),
      },
    },
    [MANAGED_FIELDS_ENTRY]: {
      type: "object",
      description: "ManagedFieldsEntry is a workflow-id, a FieldSet and the group version of the resource that the fieldset applies to.",
      properties: {
        apiVersion: str("APIVersion defines the version of this resource that this field set applies to."),
        fieldsType: str("FieldsType is the discriminator for the fields format. The only valid value is \"FieldsV1\"."),
        fieldsV1: refProperty(FIELDS_V1, "FieldsV1 holds the first JSON version format as described in the \"FieldsV1\" type.", form),
        manager: str("Manager is an identifier of the workflow managing these fields."),
        operation: str("Operation is the type of operation which lead to this entry being created: Apply or Update."),
        subresource: str("Subresource is the name of the subresource used to update that object, or empty for the main resource."),
        time: time("Time is the timestamp of when the entry was last changed."),
      },
    },
    [OWNER_REFERENCE]: {
      type: "object",
      description: "OwnerReference contains enough information to let you identify an owning object, in the same namespace or cluster-scoped.",
      required: ["apiVersion", "kind", "name", "uid"],
      properties: {
        apiVersion: str("API version of the referent."),
        blockOwnerDeletion: { type: "boolean", description: "If true, and the owner has the foregroundDeletion finalizer, the owner cannot be deleted before this reference is removed." },
        controller: { type: "boolean", description: "If true, this reference points to the managing controller." },
        kind: str(`Kind of the referent. More info: ${CONVENTIONS}#types-kinds`),
        name: str("Name of the referent. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names"),
        uid: str("UID of the referent. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#uids"),
      },
      "x-kubernetes-map-type": "atomic",
    },
    [TIME]: {
      type: "string",
      format: "date-time",
      description: "Time is a wrapper around time.Time which supports correct marshaling to YAML and JSON (RFC 3339).",
    },
    [FIELDS_V1]: {
      type: "object",
      description: "FieldsV1 stores a set of fields in a data structure like a Trie, in JSON format.",
    },
  };
}
