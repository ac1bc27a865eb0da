/**
 * Field paths of custom-resource values as validation errors print them (`spec.items[0].name`).
 */

/**
 * The field path of an object member: `spec` + `size` → `spec.size`; the root has path "".
 *
 * @example
 * ```ts
 * childPath("spec", "size"); // → "spec.size"
 * childPath("", "spec");     // → "spec"
 * ```
 */
export function childPath(parent: string, key: string): string {
  return parent === "" ? key : `${parent}.${key}`;
}

/**
 * The field path of a list element: `spec.items` + 0 → `spec.items[0]`.
 *
 * @example
 * ```ts
 * indexPath("spec.items", 0); // → "spec.items[0]"
 * ```
 */
export function indexPath(parent: string, index: number): string {
  return `${parent}[${index}]`;
}
