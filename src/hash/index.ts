/**
 * Content hashes: canonical JSON hashing, and ConfigMap/Secret hashes injected into pod
 * templates so that config changes roll pods and unchanged config rolls nothing.
 *
 * Start with `hashObject` for "has the desired state changed?", and `withConfigHashes` for a
 * Deployment or StatefulSet whose pods read ConfigMaps or Secrets.
 *
 * @example
 * ```ts
 * import { configDataHash, hashObject, withConfigHashes } from "operator-runtime/builder";
 * import type { Deployment } from "operator-runtime";
 *
 * declare const deployment: Deployment; // its pods read "app-config" (volume, envFrom or env valueFrom)
 * const config = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "app-config" }, data: { level: "info" } };
 * const desiredHash = hashObject(config); // e.g. for a "skip unchanged writes" annotation
 * const { object } = withConfigHashes(deployment, (ref) =>
 *   ref.kind === "ConfigMap" && ref.name === "app-config" ? configDataHash(config) : undefined);
 * ```
 * @module
 */
export { canonicalJson, hashObject, shortHash } from "../util/canonical-json.ts";
export {
  configDataHash,
  configHashEnvName,
  configReferenceKey,
  findConfigReferences,
  injectConfigHashes,
  withConfigHashes,
} from "./config-hash.ts";
export type { ConfigReference } from "./config-hash.ts";
