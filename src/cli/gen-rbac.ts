/**
 * `operator-runtime gen rbac MODULE`: the ServiceAccount, roles and bindings an operator's
 * controllers need, as YAML, from the Manager its module exports.
 */
import { parseArgs } from "node:util";
import { dump } from "js-yaml";
import type { KubeObject } from "../kinds/kube-object.ts";
import { rbacRules } from "../rbac/rules.ts";
import { rbacManifests } from "../rbac/manifests.ts";
import { OperatorRuntimeError } from "../errors.ts";
import type { GenCommand } from "./gen-command.ts";
import { GenerateError, loadOperatorModule } from "./operator-module.ts";
import type { OperatorModule } from "./operator-module.ts";
import { UsageError } from "./usage-error.ts";
import { registrationsOf, webhookCaPatchRules } from "./gen-manifests-webhooks.ts";

/** `operator-runtime gen rbac --help`. */
export const GEN_RBAC_USAGE = `usage: operator-runtime gen rbac MODULE [--namespace NS] [--name NAME] [--webhook-ca-patch]

Prints the RBAC an operator needs, as YAML: a ServiceAccount, a ClusterRole and
ClusterRoleBinding for its cluster-wide watches, and a Role and RoleBinding in each namespace
with rules of its own (the leader-election Lease's).

MODULE exports the operator's Manager (as \`manager\` or the default export: a Manager, or a
function returning one) with its controllers registered, and optionally \`crds\`, the
CustomResourceDefinitions of its kinds. Importing it must not start the Manager.

Rules: get/list/watch on every watched kind; the verbs each controller declares with
.for/.owns/.watches/.uses options (.owns: the Builder's create/patch/delete by default) and on
status and finalizers subresources; create/patch on events when the Manager records events;
create on leases, get/update on its Lease when leader election is on; get/list/watch/create/
update/delete on leases in the ring's namespace when the Manager is sharded. Admission webhooks
and conversions (mgr.webhook, mgr.conversion) need no rules: the API server calls them.

options:
  --namespace NS  namespace of the ServiceAccount, where the operator runs (default "default")
  --name NAME     name of the ServiceAccount, roles and bindings (default: the Manager's field manager)
  --webhook-ca-patch
                  also let the operator get, patch and update its own webhook configurations
                  (NAME-mutating, NAME-validating) and the CRDs it converts, by name: for an
                  operator that writes their caBundle itself
  -h, --help      print this help`;

/** Options shared by `gen rbac` and `gen manifests`. */
export interface RbacArgs {
  module: string;
  namespace: string;
  name: string | undefined;
  /** `gen rbac --webhook-ca-patch`: rules to write the caBundle of its webhook configurations and converted CRDs. */
  webhookCaPatch?: boolean;
}

/** A DNS-1123 subdomain (names of ServiceAccounts, roles, Deployments) and label (namespaces). */
const SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** Checks `--namespace` and `--name` values; a UsageError naming the option otherwise. */
export function checkNames(namespace: string, name: string | undefined): void {
  if (!LABEL.test(namespace) || namespace.length > 63) {
    throw new UsageError(`--namespace must be a DNS-1123 label (lowercase letters, digits and '-', at most 63), got "${namespace}"`);
  }
  if (name !== undefined && (!SUBDOMAIN.test(name) || name.length > 253)) {
    throw new UsageError(`--name must be a DNS-1123 subdomain (lowercase letters, digits, '-' and '.'), got "${name}"`);
  }
}

/**
 * Reads `gen rbac`'s arguments.
 *
 * @throws {UsageError} for a missing or extra MODULE, an unknown option or a malformed name.
 * @example
 * ```ts
 * parseRbacArgs(["./operator.ts", "--namespace", "operators"]); // { module: "./operator.ts", namespace: "operators", name: undefined, webhookCaPatch: false }
 * ```
 */
export function parseRbacArgs(args: readonly string[]): RbacArgs {
  const { common, flags } = parseModuleArgs(args, {}, ["webhook-ca-patch"]);
  return { ...common, webhookCaPatch: flags["webhook-ca-patch"] };
}

/**
 * Reads `MODULE [--namespace NS] [--name NAME]` plus the string options in `more` (the values
 * of those come back in `values`) and the boolean `flags` (in `flags`, false when absent).
 *
 * @throws {UsageError} for a missing or extra MODULE, an unknown option or a malformed name.
 */
export function parseModuleArgs<K extends string, F extends string = never>(args: readonly string[], more: Readonly<Record<K, { type: "string" }>>,
  flags: readonly F[] = []): { common: RbacArgs; values: Partial<Record<K, string>>; flags: Record<F, boolean> } {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      options: { ...more, ...Object.fromEntries(flags.map((f) => [f, { type: "boolean" as const }])), namespace: { type: "string" }, name: { type: "string" } },
      strict: true, allowPositionals: true,
    });
  } catch (err) {
    throw new UsageError((err as Error).message, { cause: err });
  }
  const { positionals } = parsed;
  const values = parsed.values as Record<string, string | undefined>;
  if (positionals.length !== 1) {
    throw new UsageError(positionals.length ? `one MODULE expected, got ${positionals.length}: ${positionals.join(" ")}` : "MODULE is required");
  }
  const namespace = values.namespace ?? "default";
  const name = values.name;
  checkNames(namespace, name);
  const set = Object.fromEntries(flags.map((f) => [f, (parsed.values as Record<string, unknown>)[f] === true])) as Record<F, boolean>;
  return { common: { module: positionals[0]!, namespace, name }, values: values as Partial<Record<K, string>>, flags: set };
}

/**
 * The RBAC objects of a loaded operator module.
 *
 * @throws {GenerateError} when a kind's resource cannot be told (no CRD for it).
 */
export function rbacObjects(loaded: OperatorModule, namespace: string, name: string, options: { webhookCaPatch?: boolean } = {}): KubeObject[] {
  try {
    const rules = rbacRules(loaded.manager, { crds: loaded.crds });
    if (options.webhookCaPatch) rules.cluster.push(...webhookCaPatchRules(registrationsOf(loaded.manager), name));
    return rbacManifests(rules, { name, namespace });
  } catch (err) {
    if (err instanceof OperatorRuntimeError) throw new GenerateError(err.message, { cause: err });
    throw err;
  }
}

/**
 * `--name`, or the Manager's field manager when it is a valid object name.
 *
 * @throws {GenerateError} when the field manager cannot name objects (`--name` is needed).
 */
export function nameOf(given: string | undefined, loaded: OperatorModule): string {
  if (given !== undefined) return given;
  const fieldManager = loaded.manager.client.fieldManager;
  if (!SUBDOMAIN.test(fieldManager) || fieldManager.length > 253) {
    throw new GenerateError(`the Manager's field manager "${fieldManager}" cannot name the ServiceAccount and roles `
      + "(a DNS-1123 subdomain: lowercase letters, digits, '-' and '.'); pass --name NAME");
  }
  return fieldManager;
}

/** Objects as a multi-document YAML stream. */
export function toYaml(objects: readonly KubeObject[]): string {
  return objects.map((o) => dump(o, { noRefs: true, lineWidth: -1, sortKeys: false })).join("---\n");
}

/** The `gen rbac` command. */
export const genRbac: GenCommand = {
  summary: "print the RBAC (ServiceAccount, roles, bindings) a Manager's controllers need",
  usage: GEN_RBAC_USAGE,
  async run(args) {
    const options = parseRbacArgs(args);
    const loaded = await loadOperatorModule(options.module);
    const name = nameOf(options.name, loaded);
    if (options.webhookCaPatch) {
      const regs = registrationsOf(loaded.manager);
      if (!regs.admission.length && !regs.conversion.length) {
        throw new GenerateError(`${options.module}: --webhook-ca-patch, but the Manager registers no webhooks or conversions (mgr.webhook, mgr.conversion): nothing to patch; drop the option`);
      }
    }
    process.stdout.write(toYaml(rbacObjects(loaded, options.namespace, name, { webhookCaPatch: options.webhookCaPatch ?? false })));
    return 0;
  },
};
