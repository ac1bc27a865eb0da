/**
 * Test helpers: bounded waits (a condition polled until a deadline, a promise within a time
 * limit; no fixed sleeps), raw HTTP against a LocalCluster.
 *
 * Every bound fails the test with the thing awaited in the message. Deadlines use the monotonic
 * clock, and the timers are captured when this module loads, so a test that fakes the global
 * timers (`mock.timers`) keeps its bounds.
 */

const realSetTimeout = globalThis.setTimeout;
const realClearTimeout = globalThis.clearTimeout;
const now = () => performance.now();
const sleep = (ms: number) => new Promise<void>((resolve) => realSetTimeout(resolve, ms));

/** Settles as `promise` does, or resolves `timedOut` after `ms`; the timer never outlives the promise. */
function race<T, U>(promise: PromiseLike<T>, ms: number, timedOut: U): Promise<T | U> {
  return new Promise<T | U>((resolve, reject) => {
    const timer = realSetTimeout(() => resolve(timedOut), ms);
    promise.then(
      (value) => {
        realClearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        realClearTimeout(timer);
        reject(err);
      },
    );
  });
}

const TIMED_OUT: unique symbol = Symbol("timed out");

/**
 * Resolves or rejects as `promise` does, or rejects after `timeoutMs` with
 * "timed out after … ms waiting for <what>".
 */
export async function within<T>(promise: PromiseLike<T>, what: string, timeoutMs = 5000): Promise<T> {
  const v = await race(promise, timeoutMs, TIMED_OUT);
  if (v === TIMED_OUT) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
  return v;
}

/**
 * Polls `check` until it returns a truthy value or the deadline passes; returns the value. A
 * check that throws is retried (its last error ends up in the timeout message); a check that
 * hangs counts against the same deadline.
 */
export async function waitFor<T>(check: () => T | Promise<T>, what: string, timeoutMs = 5000): Promise<NonNullable<T>> {
  const deadline = now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await race(Promise.resolve().then(check), Math.max(1, deadline - now()), TIMED_OUT);
      if (v === TIMED_OUT) last = new Error("the last check had not answered");
      else if (v) return v as NonNullable<T>;
    } catch (err) {
      last = err;
    }
    if (now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${(last as Error).message}` : ""}`);
    }
    await sleep(10);
  }
}

/** How long `raw` waits for a complete answer. */
const RAW_TIMEOUT_MS = 10_000;

/** A raw HTTP request to the cluster: returns code, headers and parsed JSON body (if any). Fails after 10 s without a complete answer. */
export async function raw(
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
  contentType = "application/json",
  headers: Record<string, string> = {},
): Promise<{ code: number; headers: Headers; body: any; text: string }> {
  const init: RequestInit = { method, headers: { ...headers }, signal: AbortSignal.timeout(RAW_TIMEOUT_MS) };
  if (body !== undefined) {
    init.body = typeof body === "string" || body instanceof Uint8Array ? (body as string) : JSON.stringify(body);
    (init.headers as Record<string, string>)["Content-Type"] = contentType;
  }
  let res: Response;
  let text: string;
  try {
    res = await fetch(baseUrl + path, init);
    text = await res.text();
  } catch (err) {
    if ((err as Error).name !== "TimeoutError") throw err;
    throw new Error(`${method} ${path}: no complete answer within ${RAW_TIMEOUT_MS} ms`, { cause: err });
  }
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { code: res.status, headers: res.headers, body: parsed, text };
}
