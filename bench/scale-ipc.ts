/**
 * The scale benchmark's process plumbing: the parent forks each child (LocalCluster, operator)
 * with an IPC channel and calls it like a function; children answer calls and push events.
 *
 * Guarantees: every wait is bounded and its error names the child, the call and the timeout;
 * every forked child is killed (SIGKILL) when the parent exits, is interrupted or fails, and a
 * child exits on its own as soon as its parent's channel closes.
 */
import { fork } from "node:child_process";
import type { ChildProcess } from "node:child_process";

/** Epoch milliseconds with sub-millisecond resolution, comparable across processes on one machine. */
export function epochMs(): number {
  return performance.timeOrigin + performance.now();
}

/** CPU of this process in milliseconds (user + system, all threads). */
export function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** A message a child sends without being asked. */
export interface ChildEvent {
  event: string;
  [field: string]: unknown;
}

type Reply = { id: number; result?: unknown; error?: string };

const live = new Set<ChildProcess>();
let hooked = false;

function killAll(): void {
  for (const c of live) c.kill("SIGKILL");
  live.clear();
}

function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.on("exit", killAll);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      killAll();
      process.exit(130);
    });
  }
}

/** A forked child: `call` a command and await its answer, or `next` event it pushes. */
export class Child {
  readonly name: string;
  readonly #proc: ChildProcess;
  readonly #pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  readonly #events: ChildEvent[] = [];
  readonly #eventWaiters = new Set<() => void>();
  #nextId = 1;
  #exit: string | undefined;

  private constructor(name: string, proc: ChildProcess) {
    this.name = name;
    this.#proc = proc;
    proc.on("message", (m: Reply | ChildEvent) => {
      if ("event" in m) {
        this.#events.push(m);
        for (const w of this.#eventWaiters) w();
        return;
      }
      const p = this.#pending.get(m.id);
      if (!p) return;
      this.#pending.delete(m.id);
      if (m.error !== undefined) p.reject(new Error(`${this.name}: ${m.error}`));
      else p.resolve(m.result);
    });
    proc.on("exit", (code, signal) => {
      live.delete(proc);
      this.#exit = `${this.name} exited (${signal ?? `code ${code}`})`;
      for (const p of this.#pending.values()) p.reject(new Error(this.#exit));
      this.#pending.clear();
      for (const w of this.#eventWaiters) w();
    });
  }

  /** Forks `file` (a module next to this one) with `--expose-gc` and `extraArgv`; stdout is dropped, stderr shown. */
  static fork(name: string, file: string, args: string[] = [], extraArgv: readonly string[] = []): Child {
    hookExit();
    const proc = fork(new URL(file, import.meta.url), args, {
      // The environment's options come last: they win over the bench's own.
      execArgv: ["--expose-gc", ...extraArgv, ...(process.env.SCALE_CHILD_NODE_OPTIONS?.split(" ").filter(Boolean) ?? []),
        ...(name === "operator" ? process.env.SCALE_OPERATOR_NODE_OPTIONS?.split(" ").filter(Boolean) ?? [] : [])],
      stdio: ["ignore", "ignore", "inherit", "ipc"],
    });
    live.add(proc);
    return new Child(name, proc);
  }

  /** Sends a command; rejects when the child fails it, exits, or does not answer in `timeoutMs`. */
  call<T = unknown>(cmd: string, args: unknown = {}, timeoutMs = 30_000): Promise<T> {
    if (this.#exit) return Promise.reject(new Error(`${this.#exit} before "${cmd}"`));
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new Error(`${this.name}: "${cmd}" got no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#pending.set(id, {
        resolve: (v) => { clearTimeout(timer); resolve(v as T); },
        reject: (e) => { clearTimeout(timer); reject(e); },
      });
      this.#proc.send({ id, cmd, args });
    });
  }

  /**
   * The first pushed event named `event` (and matching `match`) not taken yet. Rejects after
   * `timeoutMs` with `why()` in the message, or when the child exits.
   */
  async next(event: string, timeoutMs: number, match: (e: ChildEvent) => boolean = () => true, why: () => Promise<string> | string = () => ""): Promise<ChildEvent> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const i = this.#events.findIndex((e) => e.event === event && match(e));
      if (i >= 0) return this.#events.splice(i, 1)[0]!;
      if (this.#exit) throw new Error(`${this.#exit} while waiting for "${event}"`);
      const left = deadline - performance.now();
      if (left <= 0) {
        const detail = await Promise.resolve(why()).catch((e: Error) => `(no detail: ${e.message})`);
        throw new Error(`${this.name}: no "${event}" within ${(timeoutMs / 1000).toFixed(1)} s${detail ? `: ${detail}` : ""}`);
      }
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(t);
          this.#eventWaiters.delete(wake);
          resolve();
        };
        const t = setTimeout(wake, left);
        this.#eventWaiters.add(wake);
      });
    }
  }

  /** Asks the child to stop; kills it if it has not exited within `timeoutMs`. */
  async stop(timeoutMs = 5000): Promise<void> {
    if (this.#exit) return;
    const exited = new Promise<void>((r) => this.#proc.once("exit", () => r()));
    this.#proc.send({ id: 0, cmd: "stop", args: {} });
    const timer = setTimeout(() => this.#proc.kill("SIGKILL"), timeoutMs);
    await exited;
    clearTimeout(timer);
  }

  /** Kills the child at once. */
  kill(): void {
    if (!this.#exit) this.#proc.kill("SIGKILL");
  }
}

/** In a child: answers the parent's commands with `handlers` and exits when the parent goes away. */
export function serve(handlers: Record<string, (args: never) => unknown>, onStop: () => Promise<void>): void {
  const send = (m: unknown) => process.send?.(m);
  process.on("disconnect", () => process.exit(0));
  process.on("message", (m: { id: number; cmd: string; args: unknown }) => {
    if (m.cmd === "stop") {
      void onStop().finally(() => process.exit(0));
      return;
    }
    const handler = handlers[m.cmd];
    if (!handler) {
      send({ id: m.id, error: `unknown command "${m.cmd}"` });
      return;
    }
    Promise.resolve()
      .then(() => handler(m.args as never))
      .then((result) => send({ id: m.id, result }), (err: Error) => send({ id: m.id, error: err?.stack ?? String(err) }));
  });
}

/** In a child: pushes an event to the parent. */
export function emit(event: ChildEvent): void {
  process.send?.(event);
}
