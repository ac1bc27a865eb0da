/**
 * `Runnable`: all the Manager knows about the parts it runs (caches, controllers, the leader
 * elector, the metrics server).
 */

/** Something the Manager starts and stops. */
export interface Runnable {
  /** A name for logs and errors. */
  readonly name: string;
  /**
   * Starts the part. Resolves once it is running (a cache: once synced); must not block until
   * stop. `signal` aborts a start in progress.
   */
  start(signal: AbortSignal): Promise<void>;
  /** Stops the part and releases what it holds; resolves when stopped (drained). */
  stop(): Promise<void>;
  /** Run only while this process leads (controllers). Default false (caches, servers). */
  readonly needsLeaderElection?: boolean;
}
