/**
 * Secret validation by `type` (`ValidateSecret`): the keys each built-in type requires. Data
 * keys and the size limit are checked in metadata-validation.ts.
 */
import type { KubeObject } from "../../resource-type.ts";
import type { StatusCause } from "../../status.ts";
import { obj, required, str } from "./field.ts";

/** Every cause of a Secret's type-specific content. */
export function secretCauses(o: KubeObject): StatusCause[] {
  const data = obj(o.data) ?? {};
  const has = (k: string): boolean => Object.hasOwn(data, k);
  switch (str(o.type)) {
    case "kubernetes.io/service-account-token":
      return str(o.metadata?.annotations?.["kubernetes.io/service-account.name"]) ? [] : [required("metadata.annotations[kubernetes.io/service-account.name]")];
    case "kubernetes.io/dockercfg":
      return has(".dockercfg") ? [] : [required("data[.dockercfg]")];
    case "kubernetes.io/dockerconfigjson":
      return has(".dockerconfigjson") ? [] : [required("data[.dockerconfigjson]")];
    case "kubernetes.io/basic-auth":
      return has("username") || has("password") ? [] : [required("data[username]"), required("data[password]")];
    case "kubernetes.io/ssh-auth":
      return str(data["ssh-privatekey"]) ? [] : [required("data[ssh-privatekey]")];
    case "kubernetes.io/tls":
      return [...(has("tls.crt") ? [] : [required("data[tls.crt]")]), ...(has("tls.key") ? [] : [required("data[tls.key]")])];
    default:
      return [];
  }
}
