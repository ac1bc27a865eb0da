/** Ingress validation: `ValidateIngressSpec` (networking.k8s.io/v1), in kube-apiserver's order. */
import type { KubeObject } from "../../resource-type.ts";
import type { StatusCause } from "../../status.ts";
import { dns1035LabelErrors, dns1123SubdomainErrors } from "../../names.ts";
import { invalid, list, notSupported, num, obj, portNameErrors, portNumErrors, required, str } from "./field.ts";

const PATH_TYPES = ["Exact", "ImplementationSpecific", "Prefix"];

function backendCauses(raw: unknown, at: string): StatusCause[] {
  const b = obj(raw) ?? {};
  const service = obj(b.service);
  const resource = obj(b.resource);
  if (service && resource) return [invalid(at, "", "cannot set both resource and service backends")];
  if (resource) return [];
  if (!service) return [invalid(at, "", "resource or service backend is required")];
  const causes: StatusCause[] = [];
  const name = str(service.name);
  if (!name) causes.push(required(`${at}.service.name`));
  else causes.push(...dns1035LabelErrors(name).map((m) => invalid(`${at}.service.name`, name, m)));
  const port = obj(service.port) ?? {};
  const portName = str(port.name);
  const number = num(port.number) ?? 0;
  if (portName && number) causes.push(invalid(`${at}.service.port`, port, "cannot set both port name & port number"));
  else if (portName) causes.push(...portNameErrors(portName).map((m) => invalid(`${at}.service.port.name`, portName, m)));
  else if (number) causes.push(...portNumErrors(number).map((m) => invalid(`${at}.service.port.number`, number, m)));
  else causes.push(required(`${at}.service.port`, "port name or number is required"));
  return causes;
}

function hostCauses(host: string, at: string): StatusCause[] {
  if (/^\d+\.\d+\.\d+\.\d+$/.test(host) || host.includes(":")) return [invalid(at, host, "must be a DNS name, not an IP address")];
  const name = host.startsWith("*.") ? host.slice(2) : host;
  return dns1123SubdomainErrors(name).map((m) => invalid(at, host, m));
}

/** Every cause of an Ingress's spec. */
export function ingressCauses(o: KubeObject): StatusCause[] {
  const spec = obj(o.spec) ?? {};
  const causes: StatusCause[] = [];
  const rules = list(spec.rules);
  if (rules.length === 0 && !obj(spec.defaultBackend)) causes.push(invalid("spec.rules", spec.rules ?? null, "either `defaultBackend` or `rules` must be specified"));
  if (obj(spec.defaultBackend)) causes.push(...backendCauses(spec.defaultBackend, "spec.defaultBackend"));
  rules.forEach((rawRule, i) => {
    const rule = obj(rawRule) ?? {};
    const at = `spec.rules[${i}]`;
    if (str(rule.host)) causes.push(...hostCauses(str(rule.host), `${at}.host`));
    const http = obj(rule.http);
    if (!http) return;
    const paths = list(http.paths);
    if (paths.length === 0) causes.push(required(`${at}.http.paths`));
    paths.forEach((rawPath, j) => {
      const p = obj(rawPath) ?? {};
      const pa = `${at}.http.paths[${j}]`;
      const type = str(p.pathType);
      if (!type) causes.push(required(`${pa}.pathType`, "pathType must be specified"));
      else if (!PATH_TYPES.includes(type)) causes.push(notSupported(`${pa}.pathType`, type, PATH_TYPES));
      else if (type !== "ImplementationSpecific" && !str(p.path).startsWith("/")) causes.push(invalid(`${pa}.path`, str(p.path), "must be an absolute path"));
      causes.push(...backendCauses(p.backend, `${pa}.backend`));
    });
  });
  list(spec.tls).forEach((rawTls, i) => {
    list(obj(rawTls)?.hosts).forEach((h, j) => causes.push(...hostCauses(str(h), `spec.tls[${i}].hosts[${j}]`)));
  });
  return causes;
}
