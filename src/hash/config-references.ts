/**
 * Finds the ConfigMaps and Secrets a pod spec reads: the objects whose change should roll pods.
 */
import { checkObject } from "../util/check-args.ts";

/** One ConfigMap or Secret a pod spec reads, by name in the pod's own namespace. */
export interface ConfigReference {
  kind: "ConfigMap" | "Secret";
  name: string;
  /** True only when every reference to this object in the pod spec is marked `optional`. */
  optional: boolean;
}

/**
 * The ConfigMaps and Secrets a pod spec reads, deduplicated and sorted by kind then name
 * (UTF-16 code unit order, so the result never depends on the locale).
 *
 * Looks in:
 * - `volumes[].configMap.name`, `volumes[].secret.secretName`;
 * - `volumes[].projected.sources[].configMap.name` and `.secret.name`;
 * - `containers[]`, `initContainers[]` and `ephemeralContainers[]`: `envFrom[].configMapRef.name`,
 *   `envFrom[].secretRef.name`, `env[].valueFrom.configMapKeyRef.name` and
 *   `env[].valueFrom.secretKeyRef.name`.
 *
 * `optional` is true only if every reference to the object is `optional: true`; one required
 * reference makes it required. References without a name are skipped; malformed parts (a
 * `volumes` that is not an array, …) are ignored rather than thrown on, since the API server
 * validates pod specs. Not included: `imagePullSecrets` (read by the kubelet, not seen by
 * containers) and secrets of CSI or other volume plugins (`nodePublishSecretRef`, …).
 *
 * @param podSpec A `PodSpec` (a PodTemplateSpec's `spec`); `undefined` gives `[]`.
 * @example
 * ```ts
 * findConfigReferences({
 *   containers: [{ name: "app", image: "app:1", envFrom: [{ secretRef: { name: "db", optional: true } }] }],
 *   volumes: [{ name: "config", configMap: { name: "app-config" } }],
 * });
 * // [{ kind: "ConfigMap", name: "app-config", optional: false },
 * //  { kind: "Secret", name: "db", optional: true }]
 * ```
 */
export function findConfigReferences(podSpec: unknown): ConfigReference[] {
  const found = new Map<string, ConfigReference>();
  const add = (kind: ConfigReference["kind"], source: Json | undefined, nameField: string): void => {
    const name = source?.[nameField];
    if (typeof name !== "string" || name === "") return;
    const optional = source?.optional === true;
    const key = `${kind}/${name}`;
    const previous = found.get(key);
    found.set(key, { kind, name, optional: previous ? previous.optional && optional : optional });
  };

  const spec = asRecord(podSpec);
  for (const volume of records(spec?.volumes)) {
    add("ConfigMap", member(volume, "configMap"), "name");
    add("Secret", member(volume, "secret"), "secretName");
    for (const source of records(member(volume, "projected")?.sources)) {
      add("ConfigMap", member(source, "configMap"), "name");
      add("Secret", member(source, "secret"), "name");
    }
  }
  for (const list of ["initContainers", "containers", "ephemeralContainers"]) {
    for (const container of records(spec?.[list])) {
      for (const envFrom of records(container.envFrom)) {
        add("ConfigMap", member(envFrom, "configMapRef"), "name");
        add("Secret", member(envFrom, "secretRef"), "name");
      }
      for (const env of records(container.env)) {
        const valueFrom = member(env, "valueFrom");
        add("ConfigMap", member(valueFrom, "configMapKeyRef"), "name");
        add("Secret", member(valueFrom, "secretKeyRef"), "name");
      }
    }
  }
  return [...found.values()].sort(compareReferences);
}

/**
 * The key of a reference in the hash map `injectConfigHashes` takes: `"<kind>/<name>"`.
 *
 * @example
 * ```ts
 * const [ref] = findConfigReferences({ volumes: [{ name: "config", configMap: { name: "app-config" } }] });
 * configReferenceKey(ref!); // "ConfigMap/app-config"
 * configReferenceKey({ kind: "Secret", name: "db-credentials" }); // "Secret/db-credentials"
 * ```
 */
export function configReferenceKey(ref: Pick<ConfigReference, "kind" | "name">): string {
  checkObject("configReferenceKey(ref)", "ref", ref, "a config reference ({ kind, name })");
  return `${ref.kind}/${ref.name}`;
}

/** Orders references by kind, then name, by UTF-16 code units. */
function compareReferences(a: ConfigReference, b: ConfigReference): number {
  if (a.kind !== b.kind) return a.kind < b.kind ? -1 : 1;
  if (a.name !== b.name) return a.name < b.name ? -1 : 1;
  return 0;
}

type Json = Record<string, unknown>;

function asRecord(value: unknown): Json | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}

function member(value: Json | undefined, key: string): Json | undefined {
  return asRecord(value?.[key]);
}

function records(value: unknown): Json[] {
  if (!Array.isArray(value)) return [];
  const out: Json[] = [];
  for (const item of value) {
    const record = asRecord(item);
    if (record) out.push(record);
  }
  return out;
}
