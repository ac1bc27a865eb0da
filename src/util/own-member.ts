/**
 * Reading and writing object members named by untrusted input (request bodies, user data),
 * so that a key such as `__proto__`, `constructor` or `prototype` is only ever plain data: a
 * read never reaches the prototype chain and a write never changes a prototype.
 *
 * @module
 */

/**
 * `obj[key]` if `obj` has it as an own member, else `undefined`.
 *
 * @example
 * ```ts
 * getMember({}, "constructor");                  // undefined (not Object)
 * getMember(JSON.parse('{"__proto__":1}'), "__proto__"); // 1
 * ```
 */
export function getMember(obj: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/**
 * Sets `obj[key] = value` as an own, enumerable data member, also for the key `__proto__`
 * (which a plain assignment would turn into a prototype change).
 *
 * @example
 * ```ts
 * const out: Record<string, unknown> = {};
 * setMember(out, "__proto__", 1); // Object.keys(out) → ["__proto__"]
 * ```
 */
export function setMember(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    obj[key] = value;
  }
}
