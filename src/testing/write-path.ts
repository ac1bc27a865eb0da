/**
 * The write path shared by HTTP handlers, the garbage collector and the simulator: create,
 * update (PUT, PATCH and apply land here), and delete with finalizers and propagation.
 */
import { randomUUID } from "node:crypto";
import type { KubeObject, ManagedFieldsEntry, ResourceType } from "./resource-type.ts";
import { apiVersionOf } from "./resource-type.ts";
import type { ObjectStore, StoredObject } from "./object-store.ts";
import { createDefaults, decodeBody, fieldDefaults, validateObject } from "./kind-rules.ts";
import type { DefaultingContext } from "./kinds/defaulting.ts";
import { nodePortsOf } from "./kinds/defaults/service.ts";
import { alreadyExists, badRequest, conflict, invalid, invalidValue, notFound, StatusError } from "./status.ts";
import { forbidden as forbiddenCause, goStringSlice } from "./status.ts";
import { generateName, validateName } from "./names.ts";
import { ignoredFieldsFor, recordUpdate } from "./apply/server-side-apply.ts";
import { wholeSeconds } from "./views/events.ts";
import { jsonEqual } from "./json-value.ts";

/** Options of one write. */
export interface WriteOptions {
  dryRun?: boolean;
  /** Field manager for managedFields ("" = none recorded). */
  manager?: string;
  subresource?: string;
  fieldValidation?: "Ignore" | "Warn" | "Strict";
  /** Set by apply: the managedFields already computed by server-side apply. */
  managedFields?: ManagedFieldsEntry[];
  /** PUT semantics: a missing resourceVersion is an error for some kinds. */
  requireResourceVersion?: boolean;
  /**
   * The update is a scheduler's binding (the simulator's stand-in for `pods/binding`, which
   * kube-apiserver writes without update validation): a Pod's unset `spec.nodeName` may be set.
   */
  binding?: boolean;
  /**
   * Checks that depend on who writes (authorization mode's admission): called with the object
   * about to be stored, after defaults and validation, and the stored one (undefined on
   * create). Throwing rejects the write, dry runs included.
   */
  admit?: (next: KubeObject, old: KubeObject | undefined) => void;
  /**
   * Create: the body is the caller's own fresh value (e.g. just parsed from the request), not
   * used after the call: the writer works on it in place instead of on a deep copy.
   */
  ownsBody?: boolean;
  /**
   * Update: a fresh copy of the stored object (what `existing.object()` returns) that the
   * caller hands over and does not use after the call: saves parsing the stored text again.
   */
  current?: KubeObject;
}

/** The result of a write. */
export interface WriteResult {
  /** The object as persisted (or as it would be, for dryRun). */
  object: KubeObject;
  /**
   * `JSON.stringify(object)` when the write stored it (the stored text, so an answer need not
   * serialize the object again); undefined for dry runs and unchanged writes.
   */
  json?: string;
  /** True when nothing changed (no new resourceVersion, no event). */
  unchanged: boolean;
  /** True when the write removed the object (last finalizer gone). */
  removed: boolean;
  warnings: string[];
}

/** Delete options. */
export interface DeleteOptions {
  propagationPolicy?: "Background" | "Foreground" | "Orphan";
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun?: boolean;
}

/**
 * The 409 Conflict of a two-phase write ({@link Writer.commitUpdate}) whose object changed
 * between the dry run and the commit (while admission webhooks were called). A PATCH or an
 * apply retries once on it, as kube-apiserver's patcher retries on a conflict.
 *
 * @example
 * ```ts
 * declare const err: unknown;
 * const retry = err instanceof ChangedMeanwhileError;
 * ```
 */
export class ChangedMeanwhileError extends StatusError {}

/** Checks a namespace exists and accepts new content. */
export type NamespaceGuard = (namespace: string) => void;

/** The shared write operations. */
export class Writer {
  readonly store: ObjectStore;
  readonly #namespaceGuard: NamespaceGuard;
  #nextIP = 1;

  constructor(store: ObjectStore, namespaceGuard: NamespaceGuard) {
    this.store = store;
    this.#namespaceGuard = namespaceGuard;
  }

  /** Creates an object in `type`'s storage. `body` is in `type`'s view (already converted). */
  create(type: ResourceType, namespace: string | undefined, body: KubeObject, opts: WriteOptions = {}): WriteResult {
    const ctx = this.#ruleContext(opts);
    const obj = opts.ownsBody ? body : structuredClone(body);
    // kube-apiserver decodes the body (unknown fields, types, empty optionals) before anything else.
    decodeBody(type, obj, ctx);
    const meta = (obj.metadata ??= {});
    if (type.namespaced) {
      if (meta.namespace && namespace && meta.namespace !== namespace) {
        throw badRequest("the namespace of the provided object does not match the namespace sent on the request");
      }
      meta.namespace = namespace ?? meta.namespace;
      if (!meta.namespace) throw badRequest("an empty namespace may not be set during creation");
      this.#namespaceGuard(meta.namespace);
    } else {
      delete meta.namespace;
    }
    if (!meta.name && meta.generateName) meta.name = generateName(meta.generateName);
    if (!meta.name) throw invalid(type.kind, type.group, "", [{ reason: "FieldValueRequired", field: "metadata.name", message: "Required value: name or generateName is required" }]);
    const nameCauses = validateName(type, meta.name);
    if (nameCauses.length) throw invalid(type.kind, type.group, meta.name, nameCauses);
    if (meta.resourceVersion) {
      throw invalid(type.kind, type.group, meta.name, [invalidValue("metadata.resourceVersion", meta.resourceVersion, "resourceVersion should not be set on objects to be created")]);
    }
    if (this.store.get(type.storageKey, meta.namespace ?? "", meta.name)) throw alreadyExists(type.plural, type.group, meta.name);
    meta.uid = randomUUID();
    meta.creationTimestamp = wholeSeconds(ctx.now);
    delete meta.deletionTimestamp;
    delete meta.deletionGracePeriodSeconds;
    if (meta.finalizers?.length === 0) delete meta.finalizers;
    if (type.hasGeneration) meta.generation = 1;
    else delete meta.generation;
    if (type.status) delete obj.status;
    obj.apiVersion = apiVersionOf(type);
    obj.kind = type.kind;
    // Decode-time defaults are part of what the writer sent: its managedFields describe them.
    // The strategy's and admission plugins' create-time defaults come after, in no manager's set.
    // (A custom resource's decoding prunes and applies its schema's defaults: validation does
    // that, so its managedFields are computed from the validated object.)
    fieldDefaults(type, obj);
    if (type.builtin) this.#setManagedFields(type, undefined, obj, opts, ctx.now);
    createDefaults(type, obj, ctx);
    const validated = validateObject(type, obj, undefined, ctx);
    if (!type.builtin) this.#setManagedFields(type, undefined, validated, opts, ctx.now);
    opts.admit?.(validated, undefined);
    if (opts.dryRun) return { object: validated, unchanged: false, removed: false, warnings: ctx.warnings };
    const stored = this.store.put(type.storageKey, validated);
    return { object: validated, json: stored.json, unchanged: false, removed: false, warnings: ctx.warnings };
  }

  /**
   * Replaces `existing` with `updated` (full desired object in `type`'s view), applying the
   * subresource, metadata, generation, finalizer and no-op rules.
   */
  update(type: ResourceType, existing: StoredObject, updated: KubeObject, opts: WriteOptions = {}): WriteResult {
    const ctx = this.#ruleContext(opts);
    decodeBody(type, updated, ctx);
    const old = opts.current ?? existing.object();
    const name = existing.name;
    const meta = (updated.metadata ??= {});
    if (meta.name !== undefined && meta.name !== name) {
      throw badRequest(`the name of the object (${meta.name}) does not match the name on the URL (${name})`);
    }
    if (type.namespaced && meta.namespace !== undefined && meta.namespace !== existing.namespace) {
      throw badRequest("the namespace of the provided object does not match the namespace sent on the request");
    }
    if (meta.resourceVersion) {
      if (meta.resourceVersion !== String(existing.rv)) throw conflict(type.plural, type.group, name);
    } else if (opts.requireResourceVersion && type.requireResourceVersion) {
      throw invalid(type.kind, type.group, name, [
        { reason: "FieldValueInvalid", field: "metadata.resourceVersion", message: "Invalid value: 0x0: must be specified for an update" },
      ]);
    }
    let next: KubeObject;
    if (opts.subresource === "status") {
      next = existing.object();
      if (updated.status === undefined) delete next.status;
      else next.status = updated.status;
    } else {
      next = updated;
      if (type.status) {
        if (old.status === undefined) delete next.status;
        else next.status = old.status;
      }
    }
    const nm = (next.metadata ??= {});
    const om = old.metadata!;
    nm.name = om.name;
    if (type.namespaced) nm.namespace = om.namespace;
    else delete nm.namespace;
    nm.uid = om.uid;
    nm.creationTimestamp = om.creationTimestamp;
    if (om.deletionTimestamp) {
      nm.deletionTimestamp = om.deletionTimestamp;
      nm.deletionGracePeriodSeconds = om.deletionGracePeriodSeconds;
      // kube-apiserver runs this metadata rule twice on an update (the common checks of every
      // resource, then the kind's own ValidateUpdate): two causes, one line in the message.
      const added = [...new Set(nm.finalizers ?? [])].filter((f) => !(om.finalizers ?? []).includes(f)).sort();
      if (added.length) {
        const cause = forbiddenCause("metadata.finalizers", `no new finalizers can be added if the object is being deleted, found new finalizers ${goStringSlice(added)}`);
        throw invalid(type.kind, type.group, name, [cause, { ...cause }]);
      }
    } else {
      delete nm.deletionTimestamp;
      delete nm.deletionGracePeriodSeconds;
    }
    if (nm.finalizers?.length === 0) delete nm.finalizers;
    if (nm.ownerReferences?.length === 0) delete nm.ownerReferences;
    if (nm.labels && Object.keys(nm.labels).length === 0) delete nm.labels;
    if (nm.annotations && Object.keys(nm.annotations).length === 0) delete nm.annotations;
    nm.generation = om.generation;
    if (nm.generation === undefined) delete nm.generation;
    next.apiVersion = apiVersionOf(type);
    next.kind = type.kind;
    if (type.kind === "Namespace" && opts.subresource !== "finalize") next.spec = old.spec;
    if (opts.subresource !== "status") fieldDefaults(type, next);
    const validated = opts.subresource === "status" && (type.builtin || !type.schema) ? next : validateObject(type, next, old, ctx);
    // Everything but metadata, status, apiVersion and kind, compared once: for the generation
    // rule and for the no-op check below.
    const restChanged = specChanged(old, validated);
    if (type.hasGeneration && (restChanged || annotationsBumpGeneration(type, old, validated))) validated.metadata!.generation = (om.generation ?? 0) + 1;
    opts.admit?.(validated, old);
    this.#setManagedFields(type, old, validated, opts, ctx.now);
    delete validated.metadata!.resourceVersion;
    const oldComparable = { ...old, metadata: { ...old.metadata, resourceVersion: undefined } };
    if (!restChanged && sameContent(headOf(oldComparable), headOf(validated))) {
      return { object: old, unchanged: true, removed: false, warnings: ctx.warnings };
    }
    const removing = validated.metadata!.deletionTimestamp !== undefined && !validated.metadata!.finalizers?.length;
    if (opts.dryRun) {
      // A dry-run update answers with the object as it would be, at the current resourceVersion.
      validated.metadata!.resourceVersion = String(existing.rv);
      return { object: validated, unchanged: false, removed: removing, warnings: ctx.warnings };
    }
    const stored = this.store.put(type.storageKey, validated);
    if (removing) this.store.remove(stored);
    return { object: validated, json: stored.json, unchanged: false, removed: removing, warnings: ctx.warnings };
  }

  /**
   * Checks that `namespace` exists and accepts new objects (kube-apiserver's NamespaceLifecycle
   * admission, which runs before admission webhooks): 404 for a missing namespace, 403 for one
   * being deleted.
   *
   * @throws {StatusError} as {@link Writer.create} would for that namespace.
   */
  guardNamespace(namespace: string): void {
    this.#namespaceGuard(namespace);
  }

  /**
   * Stores the object a dry-run {@link Writer.create} prepared (the admission chain's second
   * phase, once validating webhooks accepted it), if nothing took its name meanwhile.
   *
   * @throws {StatusError} 409 AlreadyExists when an object of that name appeared since; the
   *   namespace guard's 404/403 when its namespace went away.
   */
  commitCreate(type: ResourceType, prepared: WriteResult): WriteResult {
    const obj = prepared.object;
    const meta = obj.metadata!;
    if (type.namespaced) this.#namespaceGuard(meta.namespace!);
    if (this.store.get(type.storageKey, meta.namespace ?? "", meta.name!)) throw alreadyExists(type.plural, type.group, meta.name!);
    const stored = this.store.put(type.storageKey, obj);
    return { ...prepared, object: obj, json: stored.json };
  }

  /**
   * Stores the object a dry-run {@link Writer.update} of `existing` prepared (the admission
   * chain's second phase), if the stored object is still `existing`.
   *
   * @throws {StatusError} 409 Conflict when the object changed (or went away) since.
   */
  commitUpdate(type: ResourceType, existing: StoredObject, prepared: WriteResult): WriteResult {
    if (prepared.unchanged) return prepared;
    const now = this.store.get(type.storageKey, existing.namespace, existing.name);
    if (!now || now.rv !== existing.rv) {
      const c = conflict(type.plural, type.group, existing.name);
      throw new ChangedMeanwhileError(c.code, c.reason, c.message, c.details);
    }
    const obj = prepared.object;
    delete obj.metadata!.resourceVersion;
    const stored = this.store.put(type.storageKey, obj);
    if (prepared.removed) this.store.remove(stored);
    return { ...prepared, object: obj, json: stored.json };
  }

  /**
   * Deletes an object: at once when it has no finalizers, else marks it with a
   * deletionTimestamp. Foreground and Orphan add their finalizers for the collector.
   */
  delete(type: ResourceType, existing: StoredObject, opts: DeleteOptions = {}): { object: KubeObject; removed: boolean } {
    // kube-apiserver's BeforeDelete: a Conflict on the Kind (not the resource), as it words it.
    const pre = opts.preconditions;
    if (pre?.uid && pre.uid !== existing.uid) {
      throw conflict(type.kind, type.group, existing.name,
        `the UID in the precondition (${pre.uid}) does not match the UID in record (${existing.uid}). The object might have been deleted and then recreated`);
    }
    if (pre?.resourceVersion && pre.resourceVersion !== String(existing.rv)) {
      throw conflict(type.kind, type.group, existing.name,
        `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${existing.rv}). The object might have been modified`);
    }
    const obj = existing.object();
    const meta = obj.metadata!;
    const finalizers = [...(meta.finalizers ?? [])];
    const policy = opts.propagationPolicy;
    if (policy === "Foreground" && !finalizers.includes("foregroundDeletion")) finalizers.push("foregroundDeletion");
    if (policy === "Orphan" && !finalizers.includes("orphan")) finalizers.push("orphan");
    if (type.kind === "Namespace") {
      if (meta.deletionTimestamp) return { object: obj, removed: false };
      meta.deletionTimestamp = wholeSeconds(new Date());
      meta.deletionGracePeriodSeconds = 0;
      obj.status = { ...(obj.status as object), phase: "Terminating" };
      if (!opts.dryRun) this.store.put(type.storageKey, obj);
      return { object: obj, removed: false };
    }
    if (finalizers.length === 0) {
      if (opts.dryRun) return { object: obj, removed: true };
      const last = this.store.remove(existing);
      return { object: last.object(), removed: true };
    }
    if (meta.deletionTimestamp && finalizers.length === (meta.finalizers ?? []).length) {
      return { object: obj, removed: false };
    }
    if (!meta.deletionTimestamp) {
      meta.deletionTimestamp = wholeSeconds(new Date());
      meta.deletionGracePeriodSeconds = 0;
      if (meta.generation !== undefined) meta.generation += 1;
    }
    meta.finalizers = finalizers;
    delete meta.resourceVersion;
    if (!opts.dryRun) this.store.put(type.storageKey, obj);
    return { object: obj, removed: false };
  }

  /** A StatusError for a missing object of `type`. */
  notFound(type: ResourceType, name: string): StatusError {
    return notFound(type.plural, type.group, name);
  }

  #ruleContext(opts: WriteOptions): DefaultingContext {
    return {
      now: new Date(),
      fieldValidation: opts.fieldValidation ?? "Warn",
      warnings: [],
      ...(opts.binding ? { binding: true } : {}),
      allocateClusterIP: () => {
        const n = this.#nextIP++;
        return `10.96.${(n >> 8) & 255}.${n & 255}`;
      },
      usedNodePorts: () => new Set(this.store.list("/services").flatMap((s) => nodePortsOf(s.object()))),
      lookup: (storageKey, namespace, name) => this.store.get(storageKey, namespace, name)?.object(),
      list: (storageKey) => this.store.list(storageKey).map((s) => s.object()),
    };
  }

  #setManagedFields(type: ResourceType, old: KubeObject | undefined, next: KubeObject, opts: WriteOptions, now: Date): void {
    const meta = next.metadata!;
    if (opts.managedFields) {
      meta.managedFields = opts.managedFields;
    } else if (opts.manager) {
      meta.managedFields = recordUpdate({
        old,
        updated: next,
        manager: opts.manager,
        apiVersion: apiVersionOf(type),
        listType: type.listType,
        schema: type.schema,
        now: wholeSeconds(now),
        ...(opts.subresource ? { subresource: opts.subresource } : {}),
        ignoredFields: ignoredFieldsFor({ statusSubresource: type.status, ...(opts.subresource ? { subresource: opts.subresource } : {}) }),
      });
    } else if (old) {
      meta.managedFields = old.metadata?.managedFields;
    }
    if (!meta.managedFields?.length) delete meta.managedFields;
  }
}

/**
 * A Deployment's generation also moves when its annotations change (kube-apiserver's Deployment
 * strategy, for the old rollback annotation); other kinds count only their spec.
 */
function annotationsBumpGeneration(type: ResourceType, old: KubeObject, next: KubeObject): boolean {
  if (type.kind !== "Deployment" || type.group !== "apps") return false;
  return !sameContent(old.metadata?.annotations ?? {}, next.metadata?.annotations ?? {});
}

/** Whether anything outside metadata and status differs (generation rule). */
function specChanged(a: KubeObject, b: KubeObject): boolean {
  const strip = (o: KubeObject) => {
    const { metadata: _m, status: _s, apiVersion: _a, kind: _k, ...rest } = o;
    return rest;
  };
  return !sameContent(strip(a), strip(b));
}

/** The members {@link specChanged} leaves out: with it, {@link sameContent} of these decides the whole object's. */
function headOf(o: KubeObject): KubeObject {
  return { apiVersion: o.apiVersion, kind: o.kind, metadata: o.metadata, status: o.status } as KubeObject;
}

/**
 * Structural equality, ignoring key order, `undefined` members and managedFields timestamps.
 * Compares in place and stops at the first difference (no canonical strings of both sides:
 * an update of an object with 100,000s of keys would otherwise sort and print them all).
 */
export function sameContent(a: unknown, b: unknown): boolean {
  return jsonEqual(withoutFieldTimes(a), withoutFieldTimes(b));
}

function withoutFieldTimes(v: unknown): unknown {
  const o = v as KubeObject;
  const mf = o?.metadata?.managedFields;
  if (!mf) return v;
  return { ...o, metadata: { ...o.metadata, managedFields: mf.map(({ time: _t, ...rest }) => rest) } };
}
