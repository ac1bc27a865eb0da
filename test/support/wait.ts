/**
 * Test helpers: wait on a condition with a deadline (no fixed sleeps), raw HTTP against a
 * LocalCluster.
 */

/** Polls `check` until it returns a truthy value or the deadline passes; returns the value. */
export async function waitFor<T>(check: () => T | Promise<T>, what: string, timeoutMs = 5000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v) return v as NonNullable<T>;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${(last as Error).message}` : ""}`);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A raw HTTP request to the cluster: returns code, headers and parsed JSON body (if any). */
export async function raw(
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
  contentType = "application/json",
  headers: Record<string, string> = {},
): Promise<{ code: number; headers: Headers; body: any; text: string }> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = typeof body === "string" || body instanceof Uint8Array ? (body as string) : JSON.stringify(body);
    (init.headers as Record<string, string>)["Content-Type"] = contentType;
  }
  const res = await fetch(baseUrl + path, init);
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { code: res.status, headers: res.headers, body: parsed, text };
}
