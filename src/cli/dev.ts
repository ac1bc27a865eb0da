/**
 * `operator-runtime dev <operator-module>`: runs the user's operator for development, against a
 * LocalCluster (by default) or an existing cluster, with the live dashboard on, until SIGINT
 * (Ctrl-C) or SIGTERM.
 */
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { KubeConfig } from "@kubernetes/client-node";
import type { DashboardOptions } from "../dashboard/server.ts";
import type { KubeObject } from "../kinds/kube-object.ts";
import type { Manager } from "../manager/manager.ts";
import { AlreadyExistsError, NotFoundError, OperatorRuntimeError } from "../errors.ts";
import { loadOperatorModule } from "./operator-module.ts";
import { UsageError } from "./usage-error.ts";

/**
 * `operator-runtime dev --help`.
 *
 * @example
 * ```ts
 * console.log(DEV_USAGE); // usage: operator-runtime dev <operator-module> [--dashboard-port N] …
 * ```
 */
export const DEV_USAGE = `usage: operator-runtime dev <operator-module> [--dashboard-port N] [--kubeconfig PATH | --cluster existing] [--install-crds]

Runs your operator for development with the live dashboard on, until Ctrl-C (SIGINT) or SIGTERM:
starts LocalCluster (an embedded Kubernetes API server on 127.0.0.1, Pods run and workloads
report ready), writes its kubeconfig to ./.tmp/dev-kubeconfig, installs the CRDs the module exports,
builds the Manager from the module, starts it and prints "dashboard: <url>".

<operator-module> (.ts, .js or .mjs) exports its Manager as \`manager\` or default (a Manager, or
a function returning one; it must not start it) and may export \`crds\` (CustomResourceDefinition
objects). KUBECONFIG is set to the cluster's kubeconfig before the module is imported, so a
Manager whose KubeConfig comes from \`kubeConfig.loadFromDefault()\` talks to that cluster.

options:
  --dashboard-port N  the dashboard's port on 127.0.0.1, 0 to 65535 (default: the port the
                      module's Manager set with dashboard(), else 8089; 0: a free port)
  --kubeconfig PATH   run against the cluster of this kubeconfig instead of LocalCluster
                      (KUBECONFIG is set to PATH); its CRDs are left alone unless --install-crds
  --cluster existing  run against the cluster of $KUBECONFIG (else ~/.kube/config) instead of
                      LocalCluster; --cluster local is the default
  --install-crds      with an existing cluster, apply the module's crds first (server-side apply)
  -h, --help          print this help`;

/**
 * What `operator-runtime dev` was asked to do ({@link parseDevArgs} reads it from the command line).
 *
 * @example
 * ```ts
 * const options: DevCommandOptions = { module: "./operator.ts", dashboardPort: 0, cluster: "local",
 *   installCrds: true, localKubeconfigPath: "/home/me/op/.tmp/dev-kubeconfig" };
 * ```
 */
export interface DevCommandOptions {
  /** The operator module's path, as given. */
  module: string;
  /** The dashboard's port; undefined keeps the module's (else the default, 8089). */
  dashboardPort?: number;
  /** `local`: a LocalCluster this command starts; `existing`: the cluster of a kubeconfig. */
  cluster: "local" | "existing";
  /** With `existing`: the kubeconfig's absolute path (undefined: $KUBECONFIG, else ~/.kube/config). */
  kubeconfig?: string;
  /** Whether the module's CRDs are installed (always with `local`). */
  installCrds: boolean;
  /** With `local`: the absolute path LocalCluster's kubeconfig is written to. */
  localKubeconfigPath: string;
}

/**
 * A failure of `operator-runtime dev` that is not the command line's fault (the dashboard's
 * port taken, a CRD refused): the CLI prints the message alone and exits 1.
 *
 * @example
 * ```ts
 * throw new DevError("the dashboard's port 8089 is in use: pass --dashboard-port 0 for a free port");
 * ```
 */
export class DevError extends OperatorRuntimeError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "DevError";
  }
}

/**
 * Reads `dev`'s arguments (those after the command name); `undefined` when `--help` asks for the
 * usage instead.
 *
 * @throws {UsageError} for a missing or extra module path, a module file that does not exist, an
 *   unknown option, a `--dashboard-port` that is not an integer from 0 to 65535, a `--cluster`
 *   other than `local` or `existing`, or `--cluster local` with `--kubeconfig`.
 * @example
 * ```ts
 * parseDevArgs(["./operator.ts", "--dashboard-port", "0"]);
 * // { module: "./operator.ts", dashboardPort: 0, cluster: "local", installCrds: true,
 * //   localKubeconfigPath: "/current/dir/.tmp/dev-kubeconfig" }
 * ```
 */
export function parseDevArgs(args: readonly string[]): DevCommandOptions | undefined {
  let values;
  let positionals;
  try {
    ({ values, positionals } = parseArgs({
      args: [...args],
      options: {
        "dashboard-port": { type: "string" },
        kubeconfig: { type: "string" },
        cluster: { type: "string" },
        "install-crds": { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
      strict: true,
      allowPositionals: true,
    }));
  } catch (err) {
    throw new UsageError((err as Error).message, { cause: err });
  }
  if (values.help) return undefined;
  const [module, ...extra] = positionals;
  if (module === undefined) throw new UsageError("dev needs the operator module: operator-runtime dev ./operator.ts (the file that exports your Manager)");
  if (extra.length) throw new UsageError(`dev takes one operator module, got also ${extra.map((e) => `"${e}"`).join(", ")}; put options before or after it`);
  if (!existsSync(resolve(module))) throw new UsageError(`operator module "${module}": no such file (give the path of the module that exports your Manager)`);
  const cluster = values.cluster ?? (values.kubeconfig !== undefined ? "existing" : "local");
  if (cluster !== "local" && cluster !== "existing") throw new UsageError(`--cluster must be "local" (a LocalCluster, the default) or "existing" (the cluster of a kubeconfig), got "${cluster}"`);
  if (cluster === "local" && values.kubeconfig !== undefined) {
    throw new UsageError("--kubeconfig names an existing cluster, --cluster local starts one: drop one of them");
  }
  if (values.kubeconfig !== undefined && !existsSync(resolve(values.kubeconfig))) {
    throw new UsageError(`--kubeconfig "${values.kubeconfig}": no such file (give an existing cluster's kubeconfig, or drop it to run LocalCluster)`);
  }
  return {
    module,
    ...(values["dashboard-port"] !== undefined ? { dashboardPort: parsePort("--dashboard-port", values["dashboard-port"]) } : {}),
    cluster,
    ...(values.kubeconfig !== undefined ? { kubeconfig: resolve(values.kubeconfig) } : {}),
    installCrds: cluster === "local" || values["install-crds"],
    localKubeconfigPath: resolve(".tmp/dev-kubeconfig"),
  };
}

/** A port option's value, or a UsageError naming the option. */
function parsePort(option: string, text: string): number {
  const port = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(port) || port > 65535) throw new UsageError(`${option} must be an integer from 0 to 65535 (0: a free port), got "${text}"`);
  return port;
}

/** The dashboard's default port (`DEFAULT_DASHBOARD_PORT`; not imported, to keep `--help` light). */
const DEFAULT_DASHBOARD_PORT = 8089;

/** How long an installed CRD may take to be Established. */
const CRD_ESTABLISHED_TIMEOUT_MS = 30_000;

/**
 * Runs the operator until SIGINT or SIGTERM (see {@link DEV_USAGE}): the cluster (LocalCluster,
 * its kubeconfig written, or an existing one), the module's CRDs, its Manager with the dashboard
 * on; prints the banner, `dashboard: <url>` once the Manager runs, and on the first signal stops
 * the Manager, then the cluster. A second signal while stopping exits at once (130).
 *
 * @param print where the banner goes, one line per call (default `console.log`).
 * @returns the exit code: 0 after a signal; 1 when leadership was lost or a controller could not start.
 * @throws {GenerateError} when the module cannot be loaded or exports no Manager.
 * @throws {DevError} when the dashboard's port is taken or a CRD cannot be installed.
 * @example
 * ```ts
 * const options = parseDevArgs(["./operator.ts", "--dashboard-port", "0"]);
 * if (options) process.exitCode = await runDev(options);
 * ```
 */
export async function runDev(options: DevCommandOptions, print: (line: string) => void = console.log): Promise<number> {
  const signals = listenForSignals();
  const running: { cluster?: { stop(): Promise<void> }; manager?: Manager } = {};
  try {
    const startup = start(options, print, running);
    const first = await Promise.race([startup.then(() => undefined), signals.first]);
    if (first) {
      startup.catch(() => undefined); // abandoned: the process exits once stopped
      print(`\n${first}: stopping`);
      return 0;
    }
    const mgr = running.manager!;
    print(`dashboard: ${mgr.dashboardUrl}`);
    print("Ctrl-C stops it.");
    const why = await Promise.race([
      signals.first,
      mgr.lost.then(() => "leadership lost"),
      mgr.failed.then((err) => `a controller failed to start: ${(err as Error)?.message ?? String(err)}`),
    ]);
    if (why === "SIGINT" || why === "SIGTERM") {
      print(`\n${why}: stopping the Manager${running.cluster ? " and LocalCluster" : ""}`);
      return 0;
    }
    console.error(`operator-runtime: ${why}; stopping`);
    return 1;
  } finally {
    try {
      await running.manager?.stop();
    } finally {
      await running.cluster?.stop();
      signals.dispose();
    }
  }
}

/** Brings everything up, recording in `running` what must be stopped. */
async function start(options: DevCommandOptions, print: (line: string) => void, running: { cluster?: { stop(): Promise<void> }; manager?: Manager }): Promise<void> {
  let kubeConfig: KubeConfig;
  let local: { requests: { total: number } } | undefined;
  if (options.cluster === "local") {
    // Loaded here, through the testing entry point: the SDK never pulls in LocalCluster.
    const { LocalCluster } = await import("../testing/index.ts");
    const path = options.localKubeconfigPath;
    await mkdir(dirname(path), { recursive: true });
    const cluster = await LocalCluster.start({ kubeconfigPath: path, simulate: true });
    running.cluster = cluster;
    process.env.KUBECONFIG = path;
    kubeConfig = cluster.kubeConfig;
    local = cluster;
    print(`LocalCluster listening on ${cluster.url} (workloads simulated)`);
    print(`kubeconfig: ${path}`);
    print(`try: export KUBECONFIG=${path}; kubectl get namespaces`);
  } else {
    if (options.kubeconfig !== undefined) process.env.KUBECONFIG = options.kubeconfig;
    const { KubeConfig } = await import("../client/kube-config.ts");
    kubeConfig = new KubeConfig();
    try {
      kubeConfig.loadFromDefault();
    } catch (err) {
      throw new DevError(`cannot load the kubeconfig ${options.kubeconfig ?? process.env.KUBECONFIG ?? "~/.kube/config"}: ${(err as Error).message}`, { cause: err });
    }
    const server = kubeConfig.getCurrentCluster()?.server;
    if (!server) throw new DevError(`the kubeconfig ${options.kubeconfig ?? process.env.KUBECONFIG ?? "~/.kube/config"} has no current cluster; pick a context (kubectl config use-context) or pass --kubeconfig PATH`);
    print(`cluster: ${server} (context ${kubeConfig.getCurrentContext()}${options.kubeconfig ? `, from ${options.kubeconfig}` : ""})`);
  }

  const loaded = await loadOperatorModule(options.module);
  const mgr = loaded.manager;
  await checkReachesCluster(mgr, options.module, local);
  const { ResourceClient } = await import("../client/resource-client.ts");
  const client = new ResourceClient({ kubeConfig, fieldManager: "operator-runtime-dev" });
  if (options.installCrds && loaded.crds.length) {
    await installCrds(client, loaded.crds);
    print(`CRDs installed: ${loaded.crds.map((c) => c.metadata!.name).join(", ")}`);
  } else if (loaded.crds.length) {
    print(`CRDs not installed (the module exports ${loaded.crds.length}; pass --install-crds to apply them)`);
  }
  // The Lease's namespace must exist for the Manager to lead (or join its ring). LocalCluster
  // has only default, kube-system, kube-public and kube-node-lease: made here; an existing
  // cluster is not changed, a warning says what to do.
  for (const ns of new Set([mgr.leaderElection?.namespace, mgr.sharding?.namespace])) {
    if (!ns) continue;
    if (local) await ensureNamespace(client, ns);
    else if (!(await namespaceExists(client, ns))) {
      console.error(`operator-runtime: warning: namespace ${ns} (of the Manager's Lease) does not exist on this cluster; `
        + `the Manager will not reconcile until it does (kubectl create namespace ${ns})`);
    }
  }

  const configured = configuredDashboard(mgr);
  const port = options.dashboardPort ?? configured?.port ?? DEFAULT_DASHBOARD_PORT;
  mgr.dashboard({ ...configured, port });
  print(`operator: ${options.module} (controllers: ${mgr.controllers().map((c) => c.name).join(", ") || "none"})`);
  running.manager = mgr;
  try {
    await mgr.start();
  } catch (err) {
    const code = ((err as { cause?: { code?: unknown } }).cause)?.code;
    if (code === "EADDRINUSE") {
      throw new DevError(`the dashboard's port ${port} is in use (another operator-runtime dev, or another program): `
        + "pass --dashboard-port 0 for a free port, or --dashboard-port N for another one", { cause: err });
    }
    throw err;
  }
}

/**
 * Reads namespace \`default\` through the Manager's own client: fails clearly when its KubeConfig
 * has no cluster, or (with LocalCluster) points at another cluster than the one started here.
 */
async function checkReachesCluster(mgr: Manager, module: string, local: { requests: { total: number } } | undefined): Promise<void> {
  const before = local?.requests.total ?? 0;
  const fix = "load its KubeConfig with kubeConfig.loadFromDefault(), which reads KUBECONFIG";
  try {
    await mgr.client.get({ apiVersion: "v1", kind: "Namespace", name: "default" }, { timeoutMs: 10_000 });
  } catch (err) {
    throw new DevError(`${module}: its Manager cannot reach the cluster (${(err as Error).message}); ${fix}`, { cause: err });
  }
  if (local && local.requests.total === before) {
    throw new DevError(`${module}: its Manager talks to another cluster than LocalCluster (its KubeConfig does not come from KUBECONFIG); ${fix}`);
  }
}

/** The dashboard options the module's Manager set, when the Manager tells (`dashboardOptions`). */
function configuredDashboard(mgr: Manager): DashboardOptions | undefined {
  const options = (mgr as unknown as { dashboardOptions?: unknown }).dashboardOptions;
  return typeof options === "object" && options !== null ? options as DashboardOptions : undefined;
}

type Client = InstanceType<typeof import("../client/resource-client.ts").ResourceClient>;

/** Applies each CRD (server-side apply, forced) and waits until every one is Established. */
async function installCrds(client: Client, crds: readonly KubeObject[]): Promise<void> {
  for (const crd of crds) {
    try {
      await client.apply(crd, { force: true });
    } catch (err) {
      throw new DevError(`cannot install the CRD ${crd.metadata!.name}: ${(err as Error).message}`, { cause: err });
    }
  }
  const deadline = Date.now() + CRD_ESTABLISHED_TIMEOUT_MS;
  for (const crd of crds) {
    for (;;) {
      const current = await client.get({ apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition", name: crd.metadata!.name! });
      const conditions = ((current as { status?: { conditions?: { type?: string; status?: string }[] } }).status?.conditions) ?? [];
      if (conditions.some((c) => c.type === "Established" && c.status === "True")) break;
      if (Date.now() > deadline) {
        throw new DevError(`the CRD ${crd.metadata!.name} is not Established after ${CRD_ESTABLISHED_TIMEOUT_MS / 1000} s; see kubectl describe crd ${crd.metadata!.name}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/** Whether the namespace `name` exists (true when that cannot be told: the Manager will say). */
async function namespaceExists(client: Client, name: string): Promise<boolean> {
  try {
    await client.get({ apiVersion: "v1", kind: "Namespace", name });
    return true;
  } catch (err) {
    return !(err instanceof NotFoundError);
  }
}

/** Creates the namespace `name` unless it exists. */
async function ensureNamespace(client: Client, name: string): Promise<void> {
  try {
    await client.create({ apiVersion: "v1", kind: "Namespace", metadata: { name } });
  } catch (err) {
    if (!(err instanceof AlreadyExistsError)) throw err;
  }
}

/**
 * SIGINT and SIGTERM from now on: `first` resolves with the first; a second exits the process
 * at once (130), for a stop that hangs.
 */
function listenForSignals(): { first: Promise<NodeJS.Signals>; dispose(): void } {
  let received: NodeJS.Signals | undefined;
  let resolveFirst!: (signal: NodeJS.Signals) => void;
  const first = new Promise<NodeJS.Signals>((r) => (resolveFirst = r));
  const onSignal = (signal: NodeJS.Signals) => {
    if (received) {
      console.error(`\n${signal} again: exiting without waiting for the stop`);
      process.exit(130);
    }
    received = signal;
    resolveFirst(signal);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  return {
    first,
    dispose: () => {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    },
  };
}
