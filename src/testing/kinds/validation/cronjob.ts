/** CronJob validation: `validateCronJobSpec`, in kube-apiserver's order. */
import type { KubeObject } from "../../resource-type.ts";
import type { StatusCause } from "../../status.ts";
import { invalid, nonNegative, notSupported, obj, required, str } from "./field.ts";
import { jobSpecCauses } from "./job.ts";

const DESCRIPTORS = new Set(["@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly"]);
/** The bounds and names of the five standard cron fields. */
const CRON_FIELDS: { min: number; max: number; names?: string[] }[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"] },
  { min: 0, max: 6, names: ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] },
];

function cronValue(text: string, f: { min: number; names?: string[] }): number | string {
  const named = f.names?.indexOf(text.toLowerCase()) ?? -1;
  if (named >= 0) return named + f.min;
  if (!/^\d+$/.test(text)) return `failed to parse int from ${text}: strconv.Atoi: parsing ${JSON.stringify(text)}: invalid syntax`;
  return Number(text);
}

/** The error robfig/cron's `ParseStandard` gives for `schedule`, or undefined when it parses. */
export function cronScheduleError(schedule: string): string | undefined {
  const spec = schedule.trim();
  if (spec.startsWith("@")) {
    if (DESCRIPTORS.has(spec) || /^@every\s+\S+$/.test(spec)) return undefined;
    return `unrecognized descriptor: ${spec}`;
  }
  const fields = spec.split(/\s+/).filter(Boolean);
  if (fields.length !== 5) return `expected exactly 5 fields, found ${fields.length}: [${fields.join(" ")}]`;
  for (let i = 0; i < 5; i++) {
    const f = CRON_FIELDS[i]!;
    for (const part of fields[i]!.split(",")) {
      const [range, step] = part.split("/");
      if (step !== undefined && !/^\d+$/.test(step)) return `failed to parse int from ${step}: strconv.Atoi: parsing ${JSON.stringify(step)}: invalid syntax`;
      if (range === "*" || range === "?") continue;
      const bounds = range!.split("-");
      if (bounds.length > 2) return `too many hyphens: ${part}`;
      const values = bounds.map((b) => cronValue(b, f));
      for (const v of values) if (typeof v === "string") return v;
      const [start, end = start] = values as number[];
      if (start! < f.min) return `beginning of range (${start}) below minimum (${f.min}): ${part}`;
      if (end! > f.max) return `end of range (${end}) above maximum (${f.max}): ${part}`;
      if (start! > end!) return `beginning of range (${start}) beyond end of range (${end}): ${part}`;
    }
  }
  return undefined;
}

const CONCURRENCY = ["Allow", "Forbid", "Replace"];

/** Every cause of a CronJob's spec. */
export function cronJobCauses(o: KubeObject): StatusCause[] {
  const spec = obj(o.spec) ?? {};
  const causes: StatusCause[] = [];
  const schedule = str(spec.schedule);
  if (!schedule) causes.push(required("spec.schedule"));
  else {
    const err = cronScheduleError(schedule);
    if (err) causes.push(invalid("spec.schedule", schedule, err));
    if (schedule.includes("TZ")) causes.push(invalid("spec.schedule", schedule, "cannot use TZ or CRON_TZ in schedule, use timeZone field instead"));
  }
  for (const key of ["startingDeadlineSeconds", "successfulJobsHistoryLimit", "failedJobsHistoryLimit"]) causes.push(...nonNegative(spec[key], `spec.${key}`));
  const policy = spec.concurrencyPolicy;
  if (typeof policy === "string" && policy && !CONCURRENCY.includes(policy)) causes.push(notSupported("spec.concurrencyPolicy", policy, CONCURRENCY));
  causes.push(...jobSpecCauses(obj(obj(spec.jobTemplate)?.spec) ?? {}, "spec.jobTemplate.spec"));
  return causes;
}
