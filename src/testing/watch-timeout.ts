/**
 * A watch's `timeoutSeconds`: parsed as kube-apiserver parses it, and a timer that honours any
 * length without overflowing Node's 2^31−1 ms timer limit.
 */
import { badRequest } from "./status.ts";

/** The longest delay one Node timer takes (longer ones fire after 1 ms with a warning). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * `timeoutSeconds` as kube-apiserver reads it (Go's `strconv.ParseInt(s, 10, 64)` after
 * trimming): absent or empty → 0 (no timeout); an int64 otherwise (a sign allowed), else 400
 * with Go's message (`invalid syntax`, `value out of range`). A negative value is accepted and
 * ends the watch at once, as kube-apiserver's already-expired timer does.
 */
export function parseTimeoutSeconds(query: URLSearchParams): number {
  const raw = query.get("timeoutSeconds");
  const text = (raw ?? "").trim();
  if (text === "") return 0;
  if (!/^[+-]?\d+$/.test(text)) throw badRequest(`strconv.ParseInt: parsing ${JSON.stringify(text)}: invalid syntax`);
  const n = BigInt(text);
  if (n < INT64_MIN || n > INT64_MAX) throw badRequest(`strconv.ParseInt: parsing ${JSON.stringify(text)}: value out of range`);
  return Number(n);
}

/**
 * Calls `fn` once after `ms` (any length: longer than {@link MAX_TIMER_MS} is a chain of
 * timers, so the meaning is kept and no timer overflows); returns the cancel function. The
 * timers are unref'd: an open watch does not keep the process alive by itself.
 */
export function setLongTimeout(fn: () => void, ms: number): () => void {
  const deadline = performance.now() + Math.max(0, ms);
  let timer: NodeJS.Timeout;
  const arm = () => {
    const left = deadline - performance.now();
    if (left <= 0) {
      fn();
      return;
    }
    timer = setTimeout(arm, Math.min(left, MAX_TIMER_MS));
    timer.unref();
  };
  timer = setTimeout(arm, Math.min(Math.max(0, ms), MAX_TIMER_MS));
  timer.unref();
  return () => clearTimeout(timer);
}
