/**
 * Reads a watch over raw HTTP: every newline-delimited event is parsed and collected until the
 * stream ends or the test stops it.
 */
import { within } from "./wait.ts";

/** An open raw watch: its response, the events so far, and a way to stop it. */
export interface RawWatch {
  res: Response;
  events: any[];
  stop(): void;
  done: Promise<void>;
  isEnded(): boolean;
}

/**
 * Opens `url + path` and collects its events; waits at most `timeoutMs` for the response
 * headers. A response other than 200 collects nothing (read `res` for its status).
 */
export async function openWatch(url: string, path: string, timeoutMs = 5000): Promise<RawWatch> {
  const controller = new AbortController();
  const res = await within(fetch(url + path, { signal: controller.signal }), `the response headers of ${path}`, timeoutMs);
  const events: any[] = [];
  let ended = false;
  const done = (async () => {
    if (res.status !== 200) return;
    const decoder = new TextDecoder();
    let buf = "";
    try {
      for await (const chunk of res.body as any) {
        buf += decoder.decode(chunk, { stream: true });
        let i: number;
        while ((i = buf.indexOf("\n")) >= 0) {
          events.push(JSON.parse(buf.slice(0, i)));
          buf = buf.slice(i + 1);
        }
      }
    } catch {
      // aborted by stop()
    }
    ended = true;
  })();
  return { res, events, stop: () => controller.abort(), done, isEnded: () => ended };
}
