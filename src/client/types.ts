/**
 * The capability interfaces of the client layer: what reads (ObjectReader), what writes
 * (ObjectWriter, StatusWriter) and the object shape they move.
 */

/** A Kubernetes object as plain JSON. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: {
    name?: string;
    generateName?: string;
    namespace?: string;
    uid?: string;
    resourceVersion?: string;
    generation?: number;
    creationTimestamp?: string;
    deletionTimestamp?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    finalizers?: string[];
    ownerReferences?: OwnerReference[];
    managedFields?: unknown[];
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

/** metadata.ownerReferences[] */
export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

/** Identifies a kind: `{ apiVersion: "apps/v1", kind: "Deployment" }`. */
export interface KindRef {
  apiVersion: string;
  kind: string;
}

/** Identifies one object. `namespace` is omitted for cluster-scoped kinds. */
export interface ObjectRef extends KindRef {
  name: string;
  namespace?: string;
}

/** List options. */
export interface ListOptions {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
}

/**
 * Reads objects. The Builder reads live children through this seam: from the API now, from an
 * informer cache later, without changing the Builder.
 */
export interface ObjectReader {
  /** The object, or undefined when it does not exist. */
  get<T extends KubeObject = KubeObject>(ref: ObjectRef): Promise<T | undefined>;
  /** All objects of a kind matching the options. */
  list<T extends KubeObject = KubeObject>(kind: KindRef, options?: ListOptions): Promise<T[]>;
}
