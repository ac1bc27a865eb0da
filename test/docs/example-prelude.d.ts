/**
 * What a TSDoc `@example` may assume without declaring it.
 *
 * Every ```ts block under an `@example` tag in `src/` and `builders/` is type-checked as a
 * module by `tsdoc-examples.test.ts`. In scope, besides what the example imports or declares:
 *
 * 1. the names below — the objects an operator author has in hand in any program: the
 *    connection, the manager and its cache, a logger, an event recorder, an abort signal, a
 *    LocalCluster in tests, and the Greeting/Person custom resources of `examples/greeting`
 *    with one Greeting being reconciled (`owner`);
 * 2. the exports of the file the example documents, when the example uses them (an example of
 *    `rendezvousScore` calls `rendezvousScore` without importing it).
 *
 * Anything else — another export of the package, a third-party package, a variable — the
 * example imports or declares itself, e.g. `import { ConfigMap } from "operator-runtime";` or
 * `declare const pods: Pod[];`. An example that declares a name below shadows it.
 *
 * This file is a module (so the repo's own type check gains no globals from it); the harness
 * makes each exported `declare const` and type a global of the example project.
 */
import type { CustomResource, EventRecorder, KubeConfig, Kind, Logger, Manager, ResourceClient } from "operator-runtime";
import type { Cache } from "operator-runtime/cache";
import type { LocalCluster } from "operator-runtime/testing";

/** The cluster connection: `new KubeConfig()` then `loadFromDefault()` or `loadFromCluster()`. */
export declare const kubeConfig: KubeConfig;
/** A typed client on `kubeConfig` (`new ResourceClient({ kubeConfig, fieldManager })`). */
export declare const client: ResourceClient;
/** The operator's manager (`new Manager({ kubeConfig, ... })`). */
export declare const mgr: Manager;
/** The manager's shared cache (`mgr.cache`). */
export declare const cache: Cache;
/** A logger (`createLogger(...)`, or `ctx.log` in a reconcile). */
export declare const log: Logger;
/** An event recorder (`new EventRecorder({ sink: clientEventSink(client), controller })`). */
export declare const recorder: EventRecorder;
/** Aborted when the program shuts down (a reconcile's `ctx.signal`, or a SIGTERM handler's). */
export declare const signal: AbortSignal;
/** A started LocalCluster (tests): `await LocalCluster.start()`. */
export declare const cluster: LocalCluster;

/** The Greeting custom resource of `examples/greeting`: `spec.name` or `spec.surname`. */
export declare const Greeting: Kind<Greeting>;
/** A Greeting object. */
export type Greeting = CustomResource<{ name?: string; surname?: string }, { message?: string; people?: string[]; observedGeneration?: number }>;
/** The Person custom resource of `examples/greeting`. */
export declare const Person: Kind<Person>;
/** A Person object. */
export type Person = CustomResource<{ firstName: string; surname: string }>;
/** The Greeting being reconciled: the owner of the children an example writes. */
export declare const owner: Greeting;
