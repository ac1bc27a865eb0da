/**
 * The first step of a Builder pass: every check that needs no request — the owner, the
 * options, each object as JSON (finite numbers, no cycles), its kind and fields, duplicates, and where children of a known kind may
 * live — collected so that one error lists every problem.
 */
import type { KubeObject } from "../client/types.ts";
import { BuilderValidationError } from "../errors.ts";
import { DesiredInventory } from "./desired-inventory.ts";
import { checkJson, checkLabels, labelValue, problem } from "../../builders/index.ts";
import type { BuilderEntry, BuilderOptions } from "./options.ts";
import { controllerReference } from "./desired.ts";
import { knownScope, namespaceOptionProblems, placementProblems } from "./ownership.ts";

/** The Builder method of each kind it has one for, to name in fixes. */
const METHODS: Readonly<Record<string, string>> = {
  ConfigMap: "configMap", Secret: "secret", Deployment: "deployment", StatefulSet: "statefulSet", Service: "service", PersistentVolumeClaim: "storage",
};

/**
 * The entries with apiVersion and kind filled in by their method, and every problem found.
 * Never throws and never calls the API, whatever an untyped caller passed.
 */
export function validateEntries(options: BuilderOptions, entries: readonly BuilderEntry[]): { entries: BuilderEntry[]; problems: BuilderValidationError[] } {
  const problems: BuilderValidationError[] = [];
  const ownerRef = controllerReference(options.owner);
  if (ownerRef instanceof BuilderValidationError) problems.push(ownerRef);
  problems.push(...namespaceOptionProblems(options.owner, options.namespace));
  // Common labels land on every object: a bad one would fail every write, so it is misuse too.
  const labelProblems: BuilderValidationError[] = [];
  checkLabels({ list: labelProblems, add: (field, why, fix) => void labelProblems.push(new BuilderValidationError("Builder", field, why, fix)) }, "labels", options.labels);
  problems.push(...labelProblems);
  if (options.component !== undefined) {
    const why = typeof options.component !== "string" ? `is ${JSON.stringify(options.component) ?? typeof options.component}, not a string` : options.component === "" ? "is empty" : labelValue(options.component);
    if (why) problems.push(new BuilderValidationError("Builder", "component", why, 'name the component with a label value such as "broker", or leave the option out'));
  }
  if (options.concurrency !== undefined && !(Number.isInteger(options.concurrency) && options.concurrency >= 1)) {
    problems.push(new BuilderValidationError("Builder", "concurrency", `is ${JSON.stringify(options.concurrency) ?? typeof options.concurrency}, not an integer >= 1`,
      "pass how many objects of a phase to write at once, e.g. 8, or 1 for one after another"));
  }
  const namespace = options.namespace ?? options.owner.metadata?.namespace;
  const store = new DesiredInventory();
  const filled: BuilderEntry[] = [];
  for (const e of entries) {
    if (typeof e.object !== "object" || e.object === null || Array.isArray(e.object)) {
      problems.push(new BuilderValidationError(`Builder.${e.method}()`, "object", `is ${e.object === null ? "null" : Array.isArray(e.object) ? "an array" : typeof e.object}, not an object`,
        `pass one Kubernetes object, e.g. .${e.method}({ metadata: { name: "my-app" }, … })`));
      continue;
    }
    // JSON first: a cycle or a bigint would make the checks below throw while formatting values.
    const json = checkJson(e.object, e.rules.phase === "custom" ? "Object" : e.rules.kind);
    if (!json.readable) {
      problems.push(...json.problems);
      continue;
    }
    const own: BuilderValidationError[] = [...json.problems];
    const object = withKind(e, own);
    // A field JSON already refused (NaN replicas) is named once.
    const refused = new Set(json.problems.map((j) => j.field));
    own.push(...e.rules.validate(object).filter((v) => !refused.has(v.field)));
    const entry = { ...e, object };
    filled.push(entry);
    problems.push(...own);
    // An invalid object may lack the fields the checks below rely on; its problems are enough.
    if (own.length) continue;
    if (!store.add({ ...object, metadata: { ...object.metadata, namespace: object.metadata?.namespace ?? namespace } })) {
      problems.push(problem(object, "metadata.name", "the same object was added twice", "add each object once (names must be unique per kind and namespace)"));
    }
    const namespaced = knownScope(object);
    if (namespaced !== undefined) problems.push(...placementProblems(options.owner, object, namespaced, options.namespace));
  }
  return { entries: filled, problems };
}

/**
 * The object with its method's apiVersion and kind (which may be left out). A different
 * value is a problem: `kind` when the kind differs (its apiVersion then follows the kind),
 * else `apiVersion`. `.object()` entries are returned as they are: their rules check both.
 */
function withKind(e: BuilderEntry, problems: BuilderValidationError[]): KubeObject {
  const obj = e.object;
  if (e.rules.phase === "custom") return obj;
  const want = { apiVersion: e.rules.apiVersion, kind: e.rules.kind };
  const filled = { ...obj, ...want };
  const given = (value: unknown) => value !== undefined && value !== null && value !== "";
  const takes = `.${e.method}() takes a ${want.kind} (apiVersion ${JSON.stringify(want.apiVersion)})`;
  if (given(obj.kind) && obj.kind !== want.kind) {
    const method = typeof obj.kind === "string" ? METHODS[obj.kind] : undefined;
    problems.push(problem(filled, "kind", `is ${JSON.stringify(obj.kind)}, but ${takes}`,
      `${method ? `add a ${obj.kind} with .${method}()` : "add other kinds with .object()"}, or leave kind out: .${e.method}() sets it`));
  } else if (given(obj.apiVersion) && obj.apiVersion !== want.apiVersion) {
    problems.push(problem(filled, "apiVersion", `is ${JSON.stringify(obj.apiVersion)}, but ${takes}`,
      `set apiVersion: ${JSON.stringify(want.apiVersion)}, or leave it out: .${e.method}() sets it`));
  }
  return filled;
}
