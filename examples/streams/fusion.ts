/**
 * From an application to processing elements: fusion (operators with the same partition tag
 * share a PE), parallel regions (an operator of width n runs as n channels, each fused group
 * once per channel) and placement (most restrictive PE first). A pure function: the job
 * controller creates what it returns, tests check it directly.
 */
import type { Job, OperatorSpec, PeOperator, Placement, ProcessingElementSpec } from "./kinds.ts";
import { DEFAULT_IMAGE, JOB_LABEL, PE_LABEL } from "./kinds.ts";

/** One PE as the job controller creates it. */
export interface PlannedPe {
  name: string;
  labels: Record<string, string>;
  spec: ProcessingElementSpec;
  /** How restrictive its placement is (higher: fewer nodes fit); PEs come sorted by it. */
  restrictiveness: number;
}

/** The PEs of a Job, or why its application cannot run. */
export type FusionResult = { ok: true; pes: PlannedPe[] } | { ok: false; problems: string[] };

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/**
 * How much a placement narrows where a pod may run: host isolation 100, a host exlocation 10,
 * each node selector label 1. The Streams design notes' rule is only "most restrictive first"; these weights
 * say isolation beats exlocation beats a host pool.
 */
export function restrictiveness(p: Placement): number {
  return (p.hostIsolation ? 100 : 0) + (p.hostExlocation ? 10 : 0) + Object.keys(p.nodeSelector ?? {}).length;
}

/**
 * The processing elements of `job`: one per fusion group and channel, named
 * `<job>-<group>-<channel>`, sorted most restrictive placement first (ties keep the order of
 * the application's operators, then channels).
 *
 * A group is an operator's `partition` tag, or the operator's own name. Operators of one group
 * must have the same width, and their placements merge (node selectors must agree). An
 * operator reads channel i of an upstream operator of the same width (a parallel pipeline), and
 * every channel otherwise (fan-in and fan-out).
 *
 * @example
 * ```ts
 * const r = computeProcessingElements(job);
 * if (r.ok) for (const pe of r.pes) console.log(pe.name, pe.restrictiveness);
 * ```
 */
export function computeProcessingElements(job: Job): FusionResult {
  const jobName = job.metadata?.name ?? "";
  const ops = job.spec.application?.operators ?? [];
  const problems: string[] = [];
  const byName = new Map<string, OperatorSpec>();
  for (const op of ops) {
    if (!DNS_LABEL.test(op.name)) problems.push(`operator ${JSON.stringify(op.name)}: the name must be a DNS-1123 label (lower-case letters, digits, '-')`);
    if (byName.has(op.name)) problems.push(`operator ${JSON.stringify(op.name)} is defined twice`);
    byName.set(op.name, op);
    const w = op.width ?? 1;
    if (!Number.isInteger(w) || w < 1) problems.push(`operator ${op.name}: width ${w} must be an integer >= 1`);
    for (const input of op.inputs ?? []) if (!byName.has(input) && !ops.some((o) => o.name === input)) problems.push(`operator ${op.name}: input ${JSON.stringify(input)} is not an operator of the application`);
    if (op.partition !== undefined && !DNS_LABEL.test(op.partition)) problems.push(`operator ${op.name}: partition ${JSON.stringify(op.partition)} must be a DNS-1123 label`);
  }
  if (ops.length === 0) problems.push("the application has no operators");

  // Fusion groups, in the order their first operator appears.
  const groups = new Map<string, OperatorSpec[]>();
  for (const op of ops) {
    const key = op.partition ?? op.name;
    groups.set(key, [...(groups.get(key) ?? []), op]);
  }
  const groupOf = (op: OperatorSpec) => op.partition ?? op.name;
  const widthOf = (op: OperatorSpec) => op.width ?? 1;
  const peName = (group: string, channel: number) => `${jobName}-${group}-${channel}`;

  const planned: (PlannedPe & { order: number })[] = [];
  let order = 0;
  for (const [group, members] of groups) {
    const width = widthOf(members[0]!);
    if (members.some((m) => widthOf(m) !== width)) {
      problems.push(`partition ${group}: fused operators must have the same width (${members.map((m) => `${m.name}=${widthOf(m)}`).join(", ")})`);
      continue;
    }
    const placement = mergePlacement(group, members, problems);
    for (let channel = 0; channel < width; channel++) {
      const name = peName(group, channel);
      if (name.length > 63) problems.push(`PE ${name}: the name is longer than 63 characters; shorten the job, operator or partition name`);
      const operators: PeOperator[] = members.map((op) => ({
        name: op.name, kind: op.kind ?? "Operator", channel, width,
        inputs: [...new Set((op.inputs ?? []).flatMap((input) => {
          const up = byName.get(input);
          if (!up) return [];
          const upWidth = widthOf(up);
          const channels = upWidth === width && width > 1 ? [channel] : [...Array(upWidth).keys()];
          return channels.map((c) => peName(groupOf(up), c));
        }))].filter((n) => n !== name),
        params: op.params ?? {},
      }));
      planned.push({
        name, order: order++,
        labels: { [JOB_LABEL]: jobName, [PE_LABEL]: name },
        restrictiveness: restrictiveness(placement),
        spec: {
          jobName, group, channel, image: job.spec.image ?? DEFAULT_IMAGE,
          restartPolicy: job.spec.restartPolicy ?? "Always", placement, operators,
        },
      });
    }
  }
  if (problems.length) return { ok: false, problems };
  planned.sort((a, b) => b.restrictiveness - a.restrictiveness || a.order - b.order);
  return { ok: true, pes: planned.map(({ order: _order, ...pe }) => pe) };
}

function mergePlacement(group: string, members: OperatorSpec[], problems: string[]): Placement {
  const nodeSelector: Record<string, string> = {};
  let hostIsolation = false;
  let hostExlocation: string | undefined;
  for (const op of members) {
    const p = op.placement ?? {};
    for (const [k, v] of Object.entries(p.nodeSelector ?? {})) {
      if (nodeSelector[k] !== undefined && nodeSelector[k] !== v) problems.push(`partition ${group}: fused operators ask for node label ${k}=${nodeSelector[k]} and ${k}=${v}`);
      nodeSelector[k] = v;
    }
    hostIsolation ||= p.hostIsolation === true;
    if (p.hostExlocation !== undefined) {
      if (hostExlocation !== undefined && hostExlocation !== p.hostExlocation) problems.push(`partition ${group}: fused operators ask for host exlocations ${hostExlocation} and ${p.hostExlocation}; a PE has one`);
      hostExlocation = p.hostExlocation;
    }
  }
  return {
    ...(Object.keys(nodeSelector).length ? { nodeSelector } : {}),
    ...(hostIsolation ? { hostIsolation } : {}),
    ...(hostExlocation !== undefined ? { hostExlocation } : {}),
  };
}
