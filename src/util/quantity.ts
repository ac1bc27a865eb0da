/**
 * Parses Kubernetes resource quantities (`10Gi`, `500M`, `250m`, `1e3`) into numbers.
 */

const QUANTITY = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+))(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?\d+)?$/;

const SUFFIXES: Record<string, number> = {
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
};

/**
 * The value of a Kubernetes quantity in base units (bytes for storage), or undefined when the
 * text is not a quantity. Supports binary suffixes (Ki Mi Gi Ti Pi Ei), decimal suffixes
 * (n u m k M G T P E), exponents (`1e3`, `5E-2`) and plain numbers; a JSON number is taken as
 * is. Values past 2^53 lose precision (they are floating-point numbers), which is fine for
 * comparing sizes.
 *
 * @example
 * ```ts
 * parseQuantity("10Gi");  // 10737418240
 * parseQuantity("500M");  // 500000000
 * parseQuantity("250m");  // 0.25
 * parseQuantity("1e3");   // 1000
 * parseQuantity("10 GB"); // undefined
 * ```
 */
export function parseQuantity(quantity: string | number): number | undefined {
  if (typeof quantity === "number") return Number.isFinite(quantity) ? quantity : undefined;
  if (typeof quantity !== "string") return undefined;
  const match = QUANTITY.exec(quantity);
  if (!match) return undefined;
  const amount = Number(match[1]);
  const suffix = match[2];
  if (suffix === undefined) return amount;
  const factor = SUFFIXES[suffix] ?? 10 ** Number(suffix.slice(1));
  const value = amount * factor;
  return Number.isFinite(value) ? value : undefined;
}
