/**
 * Values a reconcile may throw or a caller may log, each of which once broke a JSON log line
 * (or would take seconds to write without bounds).
 */

/** A fresh set of hostile values, by name. */
export function hostileValues(): Record<string, unknown> {
  const cyclic: Record<string, unknown> = { name: "cyclic" };
  cyclic.self = cyclic;
  const cyclicError = new Error("cyclic cause");
  (cyclicError as { cause?: unknown }).cause = cyclicError;
  const { proxy: revoked, revoke } = Proxy.revocable({}, {});
  revoke();
  let deep: Record<string, unknown> = {};
  for (let i = 0; i < 10_000; i++) deep = { deep };
  return {
    cyclic,
    bigint: 12345678901234567890n,
    symbol: Symbol("thrown"),
    throwingGetter: Object.defineProperty({}, "boom", { enumerable: true, get: () => { throw new Error("getter says no"); } }),
    throwingToJSON: { toJSON: () => { throw new Error("toJSON says no"); } },
    trappingProxy: new Proxy({}, { ownKeys: () => { throw new Error("no keys"); }, getPrototypeOf: () => { throw new Error("no prototype"); } }),
    revokedProxy: revoked,
    nullPrototype: Object.create(null),
    hugeString: "x".repeat(5_000_000),
    hugeArray: Array.from({ length: 100_000 }, (_, i) => ({ i, big: BigInt(i) })),
    deep,
    cyclicError,
    notANumber: Number.NaN,
    func: function namedFunction() {},
  };
}
