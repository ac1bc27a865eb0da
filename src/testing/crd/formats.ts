/**
 * The OpenAPI string `format`s the apiserver checks in custom resources (a basic subset).
 */
import { isIP } from "node:net";

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:?\d{2})$/;
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const HOSTNAME = /^(?=.{1,253}$)[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?(\.[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)*\.?$/i;
const EMAIL = /^[^\s@]+@[^\s@]+$/;
const MAC = /^([0-9a-f]{2}[:-]){5}[0-9a-f]{2}$|^([0-9a-f]{4}\.){2}[0-9a-f]{4}$/i;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const DURATION = /^([0-9]+(\.[0-9]+)?\s*(ns|us|µs|ms|s|m|h|d|w)\s*)+$/;
const URI = /^[a-z][a-z0-9+.-]*:[^\s]*$/i;

function validDate(y: string, m: string, d: string): boolean {
  const month = Number(m);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(Number(y), month, 0)).getUTCDate();
}

function validCidr(value: string): boolean {
  const slash = value.indexOf("/");
  if (slash < 0) return false;
  const family = isIP(value.slice(0, slash));
  const bits = value.slice(slash + 1);
  if (family === 0 || !/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

const CHECKS: Record<string, (value: string) => boolean> = {
  date: (v) => {
    const m = DATE.exec(v);
    return m !== null && validDate(m[1]!, m[2]!, m[3]!);
  },
  "date-time": (v) => {
    const m = DATE_TIME.exec(v);
    return m !== null && validDate(m[1]!, m[2]!, m[3]!) && Number(m[4]) < 24 && Number(m[5]) < 60 && Number(m[6]) < 61;
  },
  uuid: (v) => UUID.test(v),
  uuid3: (v) => UUID.test(v),
  uuid4: (v) => UUID.test(v),
  uuid5: (v) => UUID.test(v),
  ipv4: (v) => isIP(v) === 4,
  ipv6: (v) => isIP(v) === 6,
  cidr: validCidr,
  hostname: (v) => HOSTNAME.test(v),
  email: (v) => EMAIL.test(v),
  mac: (v) => MAC.test(v),
  byte: (v) => BASE64.test(v),
  duration: (v) => DURATION.test(v),
  uri: (v) => URI.test(v),
  "int-or-string": () => true,
};
CHECKS["datetime"] = CHECKS["date-time"]!;

/**
 * True when `value` satisfies the string `format`, or when the format is not one LocalCluster
 * checks (the apiserver, too, ignores formats it does not know).
 *
 * Checked: `date`, `date-time`/`datetime`, `uuid`(3/4/5), `ipv4`, `ipv6`, `cidr`, `hostname`,
 * `email`, `mac`, `byte` (base64), `duration` (Go style, e.g. `1h30m`), `uri`, `int-or-string`.
 *
 * @example
 * ```ts
 * matchesFormat("date-time", "2024-05-01T10:00:00Z"); // → true
 * matchesFormat("ipv4", "300.1.1.1");                  // → false
 * matchesFormat("password", "anything");               // → true (not checked)
 * ```
 */
export function matchesFormat(format: string, value: string): boolean {
  const check = Object.hasOwn(CHECKS, format) ? CHECKS[format] : undefined;
  return check === undefined ? true : check(value);
}
