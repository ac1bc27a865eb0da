/** The conversion the conversion tests' webhooks perform: v1alpha1 `spec.name` ⇄ v1 `spec.firstName`. */
export function convertRenamed(obj: any, desired: string): any {
  const out = structuredClone(obj);
  out.apiVersion = desired;
  const spec = out.spec ?? {};
  if (desired.endsWith("/v1")) {
    if ("name" in spec) spec.firstName = spec.name;
    delete spec.name;
  } else {
    if ("firstName" in spec) spec.name = spec.firstName;
    delete spec.firstName;
  }
  return out;
}
