/**
 * A small closed-loop HTTP load generator over keep-alive connections (node:http), used to
 * compare LocalCluster with a bare node:http server in the same process.
 */
import http from "node:http";

/** Action of one load run. */
export interface LoadResult {
  requests: number;
  seconds: number;
  perSecond: number;
  errors: number;
}

/**
 * Sends requests from `concurrency` loops until `durationMs` has passed (bounded also by
 * `maxRequests`), each waiting for its response before sending the next.
 */
export async function load(options: {
  url: string;
  method?: string;
  body?: (i: number) => string | undefined;
  path: (i: number) => string;
  concurrency?: number;
  durationMs?: number;
  maxRequests?: number;
  expect?: number;
}): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency ?? 16 });
  const base = new URL(options.url);
  const deadline = performance.now() + (options.durationMs ?? 2000);
  const max = options.maxRequests ?? 1_000_000;
  let issued = 0;
  let done = 0;
  let errors = 0;
  const one = (i: number) =>
    new Promise<void>((resolve) => {
      const body = options.body?.(i);
      const req = http.request(
        {
          agent,
          host: base.hostname,
          port: base.port,
          method: options.method ?? "GET",
          path: options.path(i),
          headers: body !== undefined ? { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) } : {},
        },
        (res) => {
          if (options.expect !== undefined && res.statusCode !== options.expect) errors++;
          res.resume();
          res.on("end", () => resolve());
        },
      );
      req.on("error", () => {
        errors++;
        resolve();
      });
      req.end(body);
    });
  const start = performance.now();
  const loop = async () => {
    while (performance.now() < deadline && issued < max) {
      await one(issued++);
      done++;
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 16 }, loop));
  const seconds = (performance.now() - start) / 1000;
  agent.destroy();
  return { requests: done, seconds, perSecond: done / seconds, errors };
}
