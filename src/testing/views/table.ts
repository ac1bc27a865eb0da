/**
 * Server-side printing: turns objects into the `meta.k8s.io/v1` Table that `kubectl get` asks for.
 *
 * Behaves like kube-apiserver: CRD kinds get `Name` plus their `additionalPrinterColumns`
 * (a kind without columns gets `Name` and `Age`), evaluated with a small JSONPath and converted
 * per column type — `date` cells are already human ages ("5m", "3d") like the apiextensions
 * server sends, a missing value is a `null` cell. Built-in kinds use {@link builtinColumns},
 * a small imitation of kube-apiserver's printers. kubectl only lays out the cells it receives,
 * hiding columns with `priority > 0` unless `-o wide`.
 *
 * Caveats: JSONPath supports `.a.b`, `['a.b']`, `[0]`, `[-1]`, `[*]` and simple filters
 * `[?(@.type=="Ready")]`, not recursive descent or slices (those cells are `null`).
 */
import type { KubeObject, PrinterColumn, ResourceType } from "../resource-type.ts";
import { OBJECT_META_CREATION_TIMESTAMP_DESCRIPTION, OBJECT_META_NAME_DESCRIPTION, printers, shortHumanDuration } from "./table-printers.ts";
import type { BuiltinPrinter, TableColumnDefinition } from "./table-printers.ts";

export type { BuiltinPrinter, TableColumnDefinition } from "./table-printers.ts";
export { humanDuration, shortHumanDuration } from "./table-printers.ts";

/**
 * What each row's `object` holds (the `includeObject` query parameter; default `Metadata`):
 * `None` gives `object: null`, as the apiserver sends.
 */
export type IncludeObject = "Metadata" | "Object" | "None";

const NAME_COLUMN: TableColumnDefinition = {
  name: "Name",
  type: "string",
  format: "name",
  description: OBJECT_META_NAME_DESCRIPTION,
  priority: 0,
};

const AGE_COLUMN: PrinterColumn = {
  name: "Age",
  type: "date",
  jsonPath: ".metadata.creationTimestamp",
  description: OBJECT_META_CREATION_TIMESTAMP_DESCRIPTION,
};

/**
 * The printer kube-apiserver would use for a built-in kind, or `undefined` if LocalCluster has
 * none. Known: ConfigMap, Secret, Deployment, StatefulSet, ReplicaSet, Pod, Service,
 * ServiceAccount, PersistentVolumeClaim, Namespace, Event, Lease, CustomResourceDefinition, Role,
 * ClusterRole, RoleBinding, ClusterRoleBinding.
 *
 * @example
 * ```ts
 * builtinColumns("ConfigMap")?.columns.map((c) => c.name); // → ["Name", "Data", "Age"]
 * ```
 */
export function builtinColumns(kind: string): BuiltinPrinter | undefined {
  return Object.hasOwn(printers, kind) ? printers[kind] : undefined;
}

/**
 * Builds the `meta.k8s.io/v1` Table for a list (or one object: pass `[obj]` and its
 * resourceVersion). Columns: `type.printerColumns` when present; else the built-in printer for
 * built-in kinds; else Name and Age.
 *
 * @example
 * ```ts
 * import type { KubeObject, ResourceType } from "../resource-type.ts";
 *
 * declare const widgetType: ResourceType, widget: KubeObject;
 * const table = toTable(widgetType, [widget], "42", new Date());
 * table.rows; // → [{ cells: ["w1", "3m"], object: { kind: "PartialObjectMetadata", … } }]
 * ```
 */
export function toTable(
  type: ResourceType,
  objects: KubeObject[],
  listResourceVersion: string,
  now: Date,
  includeObject: IncludeObject = "Metadata",
): KubeObject {
  const builtin = type.printerColumns.length === 0 && type.builtin ? builtinColumns(type.kind) : undefined;
  let columnDefinitions: TableColumnDefinition[];
  let cellsOf: (obj: KubeObject) => unknown[];
  if (builtin) {
    columnDefinitions = builtin.columns;
    cellsOf = (obj) => builtin.cells(obj, now);
  } else {
    const columns = type.printerColumns.length > 0 ? type.printerColumns : [AGE_COLUMN];
    columnDefinitions = [NAME_COLUMN, ...columns.map(definitionOf)];
    cellsOf = (obj) => [obj.metadata?.name ?? "", ...columns.map((c) => cellFor(c, obj, now))];
  }
  const rows = objects.map((obj) => {
    const row: Record<string, unknown> = { cells: cellsOf(obj) };
    // includeObject=None still sends the member: the apiserver's empty RawExtension is `null`.
    if (includeObject === "None") row.object = null;
    if (includeObject === "Object") row.object = structuredClone(obj);
    if (includeObject === "Metadata") {
      row.object = {
        kind: "PartialObjectMetadata",
        apiVersion: "meta.k8s.io/v1",
        metadata: structuredClone(obj.metadata ?? {}),
      };
    }
    return row;
  });
  return {
    kind: "Table",
    apiVersion: "meta.k8s.io/v1",
    metadata: { resourceVersion: listResourceVersion },
    columnDefinitions: structuredClone(columnDefinitions),
    rows,
  };
}

/**
 * True when an `Accept` header asks for a Table (`as=Table;g=meta.k8s.io;v=v1|v1beta1` on a
 * JSON media type), as kubectl's `get` sends:
 * `application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json`.
 *
 * @example
 * ```ts
 * wantsTable("application/json;as=Table;v=v1;g=meta.k8s.io,application/json"); // → true
 * wantsTable("application/json"); // → false
 * ```
 */
export function wantsTable(acceptHeader: string | undefined): boolean {
  if (!acceptHeader) return false;
  return acceptHeader.split(",").some((range) => {
    const [mediaType = "", ...rawParams] = range.split(";").map((s) => s.trim());
    const params = new Map<string, string>();
    for (const p of rawParams) {
      const eq = p.indexOf("=");
      if (eq > 0) params.set(p.slice(0, eq).trim().toLowerCase(), p.slice(eq + 1).trim().replace(/^"(.*)"$/, "$1"));
    }
    const jsonLike = ["application/json", "application/*", "*/*"].includes(mediaType.toLowerCase());
    const version = params.get("v");
    return (
      jsonLike &&
      params.get("as") === "Table" &&
      params.get("g") === "meta.k8s.io" &&
      (version === "v1" || version === "v1beta1") &&
      params.get("q") !== "0"
    );
  });
}

/**
 * Evaluates a simple JSONPath (as CRD printer columns use) against an object. Returns every
 * match (empty when a key is missing), or `undefined` if the path is not supported.
 *
 * @example
 * ```ts
 * evaluateJsonPath({ spec: { ports: [{ port: 80 }] } }, ".spec.ports[0].port"); // → [80]
 * ```
 */
export function evaluateJsonPath(obj: unknown, path: string): unknown[] | undefined {
  const segments = parseJsonPath(path);
  if (!segments) return undefined;
  let current: unknown[] = [obj];
  for (const seg of segments) current = current.flatMap((v) => step(v, seg));
  return current;
}

type Segment =
  | { key: string }
  | { index: number }
  | { all: true }
  | { filter: string[]; op: "==" | "!=" | "exists"; literal: unknown };

function parseJsonPath(raw: string): Segment[] | undefined {
  let path = raw.trim();
  if (path.startsWith("{") && path.endsWith("}")) path = path.slice(1, -1).trim();
  if (path.startsWith("$")) path = path.slice(1);
  const segments: Segment[] = [];
  let i = 0;
  while (i < path.length) {
    if (path.startsWith("..", i)) return undefined;
    if (path[i] === ".") {
      const m = /^[^.[\]]+/.exec(path.slice(i + 1));
      if (!m) return undefined;
      segments.push(m[0] === "*" ? { all: true } : { key: m[0] });
      i += 1 + m[0].length;
    } else if (path[i] === "[") {
      const end = closingBracket(path, i);
      if (end < 0) return undefined;
      const seg = parseBracket(path.slice(i + 1, end).trim());
      if (!seg) return undefined;
      segments.push(seg);
      i = end + 1;
    } else if (i === 0) {
      path = `.${path}`;
    } else {
      return undefined;
    }
  }
  return segments;
}

function closingBracket(path: string, open: number): number {
  let quote = "";
  for (let i = open + 1; i < path.length; i++) {
    const ch = path[i]!;
    if (quote) {
      if (ch === quote) quote = "";
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === "]") return i;
  }
  return -1;
}

function parseBracket(inner: string): Segment | undefined {
  if (inner === "*") return { all: true };
  if (/^-?\d+$/.test(inner)) return { index: Number(inner) };
  const quoted = /^(['"])(.*)\1$/.exec(inner);
  if (quoted) return { key: quoted[2]! };
  const filter = /^\?\(\s*@((?:\.[^.=!\s)]+)+)\s*(?:(==|!=)\s*(.+?))?\s*\)$/.exec(inner);
  if (!filter) return undefined;
  const keys = filter[1]!.slice(1).split(".");
  if (!filter[2]) return { filter: keys, op: "exists", literal: undefined };
  const text = filter[3]!;
  const str = /^(['"])(.*)\1$/.exec(text);
  let literal: unknown;
  if (str) literal = str[2];
  else if (text === "true" || text === "false") literal = text === "true";
  else if (!Number.isNaN(Number(text))) literal = Number(text);
  else return undefined;
  return { filter: keys, op: filter[2] as "==" | "!=", literal };
}

function step(value: unknown, seg: Segment): unknown[] {
  if ("key" in seg) return isRecord(value) && Object.hasOwn(value, seg.key) ? [value[seg.key]] : [];
  if ("index" in seg) {
    if (!Array.isArray(value)) return [];
    const i = seg.index < 0 ? value.length + seg.index : seg.index;
    return i >= 0 && i < value.length ? [value[i]] : [];
  }
  if ("all" in seg) return Array.isArray(value) ? value : isRecord(value) ? Object.values(value) : [];
  if (!Array.isArray(value)) return [];
  return value.filter((item) => {
    let found: unknown[] = [item];
    for (const key of seg.filter) found = found.flatMap((v) => step(v, { key }));
    if (seg.op === "exists") return found.length > 0;
    const equal = found.length > 0 && found[0] === seg.literal;
    return seg.op === "==" ? equal : found.length > 0 && !equal;
  });
}

function definitionOf(c: PrinterColumn): TableColumnDefinition {
  return {
    name: c.name,
    type: c.type,
    format: c.format ?? "",
    description: c.description || `Custom resource definition column (in JSONPath format): ${c.jsonPath}`,
    priority: c.priority ?? 0,
  };
}

/** One CRD printer-column cell, converted like the apiextensions server's table convertor. */
function cellFor(column: PrinterColumn, obj: KubeObject, now: Date): unknown {
  const results = evaluateJsonPath(obj, column.jsonPath);
  const value = results?.[0];
  if (value === undefined || value === null) return null;
  switch (column.type) {
    case "string":
      return typeof value === "object" ? JSON.stringify(value) : String(value);
    case "integer":
      return typeof value === "number" ? Math.trunc(value) : null;
    case "number":
      return typeof value === "number" ? value : null;
    case "boolean":
      return typeof value === "boolean" ? value : null;
    case "date": {
      if (typeof value !== "string") return null;
      const ms = parseRfc3339(value);
      return ms === undefined ? "<invalid>" : shortHumanDuration(now.getTime() - ms);
    }
    default:
      return null;
  }
}

function parseRfc3339(value: string): number | undefined {
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/i.test(value)) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
