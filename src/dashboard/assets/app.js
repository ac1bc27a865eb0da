/**
 * operator-runtime dashboard: the page. Plain ES module, no framework, no build step, no
 * requests but same-origin GETs. It reads the wire contract of `src/dashboard/types.ts`:
 * `GET /api/state|owners|timeline|plan` and the server-sent events of `GET /api/stream`.
 *
 * Every text that comes from the server is set with `textContent` (object names are user data).
 * Long lists (timeline, owners tree, events, log) are virtualized: fixed row height, a spacer,
 * only the visible rows in the DOM.
 */

const PROTOCOL = 1;
const LIMITS = { timeline: 5000, events: 2000, logs: 2000 };
const VIEWS = ["owners", "timeline", "queue", "events", "plan", "ownership"];
const LEVELS = ["debug", "info", "warn", "error"];
const OWNERS_REFETCH_MS = 300;

// ---------------------------------------------------------------------------------------------
// DOM and formatting helpers

/**
 * Creates an element. `attrs`: `class`, `on<event>` listeners, other keys as attributes
 * (`undefined`, `null` and `false` leave the attribute out). Children: nodes or text.
 * @param {string} tag
 * @param {Record<string, any> | null} [attrs]
 * @param {...any} children
 * @returns {HTMLElement}
 */
function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "class") el.className = String(v);
      else if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
      else el.setAttribute(k, v === true ? "" : String(v));
    }
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : String(c));
  }
  return el;
}

/** @param {string} text @param {string} kind @param {string} [testid] */
function badge(text, kind, testid) {
  return h("span", { class: `badge b-${kind}`, "data-testid": testid }, text);
}

/** @param {number} n @param {number} [w] */
const pad = (n, w = 2) => String(n).padStart(w, "0");

/** @param {number | undefined} ms */
function fmtTime(ms) {
  if (ms === undefined || ms === null) return "—";
  const d = new Date(ms);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

/** @param {number | undefined} ms */
function fmtMs(ms) {
  return ms === undefined || ms === null ? "—" : `${Math.round(ms)} ms`;
}

/** @param {number | undefined} ms */
function fmtAge(ms) {
  if (ms === undefined || ms === null || Number.isNaN(ms)) return "—";
  const s = Math.max(0, ms) / 1000;
  if (s < 60) return `${s < 10 ? s.toFixed(1) : Math.round(s)}s ago`;
  if (s < 3600) return `${Math.floor(s / 60)}m ago`;
  return `${Math.floor(s / 3600)}h ago`;
}

/** @param {number} n */
function fmtBytes(n) {
  if (!(n > 0)) return "0 B";
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1048576).toFixed(1)} MiB`;
}

/** @param {{ namespace?: string, name?: string }} o */
function objName(o) {
  return o.namespace ? `${o.namespace}/${o.name}` : String(o.name ?? "");
}

/** @param {unknown} v */
function json(v) {
  try {
    const s = JSON.stringify(v);
    return s === undefined ? "undefined" : s;
  } catch {
    return String(v);
  }
}

/**
 * The one-line trigger summary, as `describeTrigger` of src/controller/triggers.ts.
 * @param {any} t
 */
function describeTrigger(t) {
  if (!t) return "—";
  if (t.reason !== "event") return t.delayMs !== undefined ? `${t.reason} ${t.delayMs} ms` : String(t.reason);
  const name = t.namespace ? `${t.namespace}/${t.name}` : t.name;
  const changed = t.changed?.length ? ` (${t.changed.join(", ")})` : "";
  const initial = t.initial ? " (initial list)" : "";
  const self = t.self ? " [own write]" : "";
  return `${t.kind} ${name} ${t.event}${changed}${initial}${self}`;
}

/** `0-3, 7, 9-10` @param {number[]} nums */
function ranges(nums) {
  const s = [...nums].sort((a, b) => a - b);
  const out = [];
  for (let i = 0; i < s.length; i++) {
    let j = i;
    while (j + 1 < s.length && s[j + 1] === s[j] + 1) j++;
    out.push(j > i ? `${s[i]}-${s[j]}` : String(s[i]));
    i = j;
  }
  return out.join(", ") || "none";
}

/** @param {string} outcome */
function outcomeBadge(outcome) {
  const kind = outcome === "done" ? "ok" : outcome === "running" ? "run" : outcome === "error" || outcome === "terminal" ? "bad" : "warn";
  return badge(outcome, kind, "outcome");
}

/** @param {string} state */
function stateBadge(state) {
  const kind = state === "ready" ? "ok" : state === "failed" ? "bad" : state === "progressing" || state === "deleting" ? "warn" : "muted";
  return badge(state, kind);
}

/** @param {string} action */
function actionBadge(action) {
  return badge(action, `act-${action}`, "action");
}

/**
 * A write's diff: `- path: old` / `+ path: value` lines.
 * @param {any[] | null | undefined} diff
 */
function renderDiff(diff) {
  const pre = h("pre", { class: "diff", "data-testid": "diff" });
  if (!Array.isArray(diff)) {
    pre.append(h("span", { class: "muted" }, "(diff unknown)"));
    return pre;
  }
  if (diff.length === 0) {
    pre.append(h("span", { class: "muted" }, "(no changes)"));
    return pre;
  }
  for (const op of diff) {
    if (op.op !== "add") pre.append(h("span", { class: "del" }, `- ${op.path}: ${json(op.old)}`), "\n");
    if (op.op !== "remove") pre.append(h("span", { class: "ins" }, `+ ${op.path}: ${json(op.value)}`), "\n");
  }
  return pre;
}

/** @param {any} w @param {string} testid */
function renderWrite(w, testid) {
  const verb = w.subresource ? `${w.verb} ${w.subresource}` : w.verb;
  return h(
    "div",
    { class: "write", "data-testid": testid, "data-verb": w.verb, "data-kind": w.kind, "data-name": w.name },
    h(
      "div",
      { class: "write-head" },
      badge(verb, w.error ? "bad" : "verb"),
      h("span", { class: "mono" }, `${w.kind} ${objName(w)}`),
      w.dryRun ? badge("dry run", "muted") : null,
      w.resourceVersion ? h("span", { class: "muted mono" }, `rv ${w.resourceVersion}`) : null,
    ),
    w.error ? h("div", { class: "error" }, w.error) : null,
    renderDiff(w.diff),
  );
}

/**
 * Fills a `<select>` with names, keeping `desired` selected (added when unknown).
 * @param {HTMLSelectElement} select @param {string[]} names @param {string} desired @param {string} [allLabel]
 */
function fillSelect(select, names, desired, allLabel) {
  const values = allLabel !== undefined ? ["", ...names] : [...names];
  if (desired && !values.includes(desired)) values.push(desired);
  const same = select.options.length === values.length && values.every((v, i) => select.options[i].value === v);
  if (!same) {
    select.replaceChildren(...values.map((v) => h("option", { value: v }, v === "" ? allLabel : v)));
  }
  if (select.value !== desired) select.value = desired;
}

/**
 * GETs JSON; a non-2xx answer throws its `error` field.
 * @param {string} url @param {AbortSignal} [signal]
 */
async function getJSON(url, signal) {
  const res = await fetch(url, { signal, headers: { accept: "application/json" } });
  let body = null;
  try {
    body = await res.json();
  } catch {
    body = null;
  }
  if (!res.ok) throw new Error(body && typeof body.error === "string" ? body.error : `HTTP ${res.status} ${res.statusText}`);
  return body;
}

/**
 * The key filter: a text that is exactly one of `keys` matches that key only (so
 * `default/web` does not also show `default/web-2`); any other text matches keys containing it
 * (case-insensitive). An empty filter matches everything.
 * @param {string} filter @param {Iterable<string | undefined>} keys
 * @returns {(key: string | undefined) => boolean}
 */
function keyMatcher(filter, keys) {
  if (!filter) return () => true;
  for (const k of keys) if (k === filter) return (key) => key === filter;
  const f = filter.toLowerCase();
  return (key) => key !== undefined && key.toLowerCase().includes(f);
}

/** @param {Record<string, string | undefined>} params */
function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : "";
}

// ---------------------------------------------------------------------------------------------
// Virtual list: fixed row height, a spacer as tall as all rows, only the visible rows rendered.

const OVERSCAN = 8;

class VirtualList {
  /**
   * @param {{ rowHeight: number, key: (item: any) => string, render: (item: any) => HTMLElement, label?: string, testid?: string }} opts
   */
  constructor(opts) {
    this.rowHeight = opts.rowHeight;
    this.keyOf = opts.key;
    this.renderItem = opts.render;
    /** @type {any[]} */
    this.items = [];
    /** @type {Map<string, { el: HTMLElement, item: any }>} */
    this.rows = new Map();
    this.raf = 0;
    this.spacer = h("div", { class: "vspacer" });
    this.empty = h("div", { class: "vempty muted", hidden: true });
    this.el = h("div", { class: "vlist", role: "list", "aria-label": opts.label, "data-testid": opts.testid, tabindex: "0" }, this.spacer, this.empty);
    this.el.addEventListener("scroll", () => this.schedule(), { passive: true });
    new ResizeObserver(() => this.schedule()).observe(this.el);
  }

  /**
   * Replaces the items; keeps the first visible item in place when scrolled down.
   * @param {any[]} items @param {string} [emptyText]
   */
  setItems(items, emptyText) {
    let anchor = null;
    const top = this.el.scrollTop;
    if (top > 0 && this.items.length) {
      const i = Math.min(this.items.length - 1, Math.floor(top / this.rowHeight));
      anchor = { key: this.keyOf(this.items[i]), offset: top - i * this.rowHeight };
    }
    this.items = items;
    this.spacer.style.height = `${items.length * this.rowHeight}px`;
    this.empty.hidden = items.length > 0;
    this.empty.textContent = emptyText ?? "Nothing to show.";
    if (anchor) {
      const k = anchor.key;
      const j = items.findIndex((it) => this.keyOf(it) === k);
      if (j >= 0) this.el.scrollTop = j * this.rowHeight + anchor.offset;
    }
    this.paint();
  }

  /** Forgets the rendered rows (their look depends on more than the item). */
  invalidate() {
    for (const r of this.rows.values()) r.el.remove();
    this.rows.clear();
    this.paint();
  }

  schedule() {
    if (!this.raf) {
      this.raf = requestAnimationFrame(() => {
        this.raf = 0;
        this.paint();
      });
    }
  }

  paint() {
    const rh = this.rowHeight;
    const height = this.el.clientHeight || window.innerHeight;
    const top = this.el.scrollTop;
    const first = Math.max(0, Math.floor(top / rh) - OVERSCAN);
    const last = Math.min(this.items.length, Math.ceil((top + height) / rh) + OVERSCAN);
    /** @type {Map<string, { el: HTMLElement, item: any }>} */
    const next = new Map();
    let prev = null;
    for (let i = first; i < last; i++) {
      const item = this.items[i];
      const key = this.keyOf(item);
      if (next.has(key)) continue;
      let row = this.rows.get(key);
      if (!row || row.item !== item) {
        const el = this.renderItem(item);
        el.classList.add("vrow");
        if (!el.hasAttribute("role")) el.setAttribute("role", "listitem");
        if (row) row.el.replaceWith(el);
        row = { el, item };
      }
      row.el.style.top = `${i * rh}px`;
      row.el.style.height = `${rh}px`;
      next.set(key, row);
      // keep DOM order = visual order (tests and screen readers read it top-down)
      /** @type {ChildNode | null} */
      const want = prev ? prev.nextSibling : this.spacer.firstChild;
      if (want !== row.el) this.spacer.insertBefore(row.el, want);
      prev = row.el;
    }
    for (const [key, row] of this.rows) if (!next.has(key)) row.el.remove();
    this.rows = next;
  }
}

// ---------------------------------------------------------------------------------------------
// Store: what the stream and the API told us.

const store = {
  /** @type {any} DashboardState */
  state: null,
  /** server clock − client clock (ms) */
  skew: 0,
  /** @type {any[]} ReconcileRecord, ascending seq */
  timeline: [],
  /** @type {any[]} EventRecord, ascending seq */
  events: [],
  /** @type {any[]} LogRecord, ascending seq */
  logs: [],
  /** @type {Map<string, { owners: any[], error: string | null, loaded: boolean }>} */
  owners: new Map(),
};

function serverNow() {
  return Date.now() + store.skew;
}

function controllerNames() {
  return store.state ? store.state.controllers.map((/** @type {any} */ c) => c.name) : [];
}

/**
 * Inserts or replaces (same seq) a record of an ascending list, dropping the oldest past `max`.
 * @param {any[]} list @param {any} rec @param {number} max
 */
function upsertBySeq(list, rec, max) {
  const n = list.length;
  if (n === 0 || list[n - 1].seq < rec.seq) list.push(rec);
  else {
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid].seq < rec.seq) lo = mid + 1;
      else hi = mid;
    }
    if (lo < n && list[lo].seq === rec.seq) list[lo] = rec;
    else list.splice(lo, 0, rec);
  }
  if (list.length > max) list.splice(0, list.length - max);
}

/** @param {any[]} list @param {any[]} recs @param {number} max */
function mergeBySeq(list, recs, max) {
  for (const r of recs) upsertBySeq(list, r, max);
}

// Topics changed since the last render; each view re-renders when one of its topics changed.
/** @type {Set<string>} */
const pending = new Set();
let flushQueued = false;

/** @param {...string} topics */
function invalidate(...topics) {
  for (const t of topics) pending.add(t);
  if (!flushQueued) {
    flushQueued = true;
    requestAnimationFrame(flush);
  }
}

function flush() {
  flushQueued = false;
  const topics = [...pending];
  pending.clear();
  for (const v of Object.values(views)) if (v.topics.some((t) => topics.includes(t))) v.dirty = true;
  const v = views[current];
  if (v && v.dirty) {
    v.dirty = false;
    v.render();
  }
  renderHeader();
}

// ---------------------------------------------------------------------------------------------
// Owners fetching: none in parallel, at most one request per controller per gap: OWNERS_REFETCH_MS,
// or longer for a big tree (20 times its last fetch, 2 s above 200 owners), so that following a
// large operator does not load it.

/** @type {Map<string, { last: number, timer: number, inflight: boolean, again: boolean, gap: number }>} */
const ownerFetches = new Map();

/** @param {string} controller */
function requestOwners(controller) {
  if (!controller) return;
  let f = ownerFetches.get(controller);
  if (!f) {
    f = { last: 0, timer: 0, inflight: false, again: false, gap: OWNERS_REFETCH_MS };
    ownerFetches.set(controller, f);
  }
  if (f.inflight) {
    f.again = true;
    return;
  }
  if (f.timer) return;
  const fs = f;
  const wait = Math.max(0, fs.last + fs.gap - Date.now());
  fs.timer = window.setTimeout(async () => {
    fs.timer = 0;
    fs.inflight = true;
    fs.last = Date.now();
    const prev = store.owners.get(controller);
    try {
      const started = performance.now();
      const body = await getJSON(`/api/owners${query({ controller })}`);
      const owners = Array.isArray(body?.owners) ? body.owners : [];
      fs.gap = Math.max(OWNERS_REFETCH_MS, 20 * (performance.now() - started), owners.length > 200 ? 2000 : 0);
      store.owners.set(controller, { owners, error: null, loaded: true });
      // The server's tree predates its latest change (it builds one a second at most): ask again.
      if (body?.stale === true) fs.again = true;
    } catch (e) {
      store.owners.set(controller, { owners: prev?.owners ?? [], error: `Could not load the owners of ${controller}: ${errorText(e)}`, loaded: true });
    } finally {
      fs.inflight = false;
      invalidate("owners");
      if (fs.again) {
        fs.again = false;
        requestOwners(controller);
      }
    }
  }, wait);
}

/** @param {unknown} e */
function errorText(e) {
  return e instanceof Error ? e.message : String(e);
}

// ---------------------------------------------------------------------------------------------
// Views

/** @param {string} name */
function rootOf(name) {
  const el = document.querySelector(`section[data-view-root="${name}"]`);
  if (!(el instanceof HTMLElement)) throw new Error(`index.html lacks section[data-view-root="${name}"]`);
  return el;
}

/**
 * @typedef {{ topics: string[], dirty: boolean, render: () => void, enter?: (params: URLSearchParams) => void }} View
 */

// 1. Owners ------------------------------------------------------------------------------------

/** @returns {View} */
function ownersView() {
  const root = rootOf("owners");
  let controller = "";
  let selected = "";
  /** @type {Set<string>} */
  const collapsed = new Set();
  /** @type {any[]} */
  let owners = [];

  const select = /** @type {HTMLSelectElement} */ (h("select", { "data-testid": "owners-controller", "aria-label": "Controller" }));
  select.addEventListener("change", () => {
    setController(select.value);
    history.replaceState(null, "", `#owners${query({ controller })}`);
  });
  const count = h("span", { class: "muted" });
  const links = h("div", { class: "owner-links", "data-testid": "owner-links", hidden: true });
  const error = h("div", { class: "error", hidden: true });
  const list = new VirtualList({ rowHeight: 26, key: (r) => r.id, render: renderRow, label: "Owners tree", testid: "owners-tree" });
  list.el.setAttribute("role", "tree");
  root.append(
    h("div", { class: "toolbar" }, h("label", null, "Controller ", select), count),
    links,
    error,
    h("div", { class: "thead tree-cols" }, h("span", null, "kind"), h("span", null, "name"), h("span", null, "state"), h("span", null, "action / last reconcile"), h("span", null, "details")),
    list.el,
  );

  /** @param {string} c */
  function setController(c) {
    if (c === controller) return;
    controller = c;
    selected = "";
    requestOwners(c);
    render();
  }

  function flatten() {
    /** @type {any[]} */
    const rows = [];
    /** @param {any[]} kids @param {string} parent @param {number} depth */
    const add = (kids, parent, depth) => {
      for (const c of kids) {
        const id = `${parent}|${c.kind}/${c.namespace}/${c.name}`;
        const grand = Array.isArray(c.children) ? c.children : [];
        rows.push({ id, depth, node: c, primary: false, hasKids: grand.length > 0, open: !collapsed.has(id) });
        if (grand.length && !collapsed.has(id)) add(grand, id, depth + 1);
      }
    };
    for (const o of owners) {
      const id = `p:${o.key}`;
      const kids = Array.isArray(o.children) ? o.children : [];
      rows.push({ id, depth: 0, node: o, primary: true, hasKids: kids.length > 0, open: !collapsed.has(id), selected: o.key === selected });
      if (kids.length && !collapsed.has(id)) add(kids, id, 1);
    }
    return rows;
  }

  /** @param {any} r */
  function renderRow(r) {
    const n = r.node;
    const el = h("div", {
      class: `row tree-row${r.primary ? " primary" : ""}${r.selected ? " selected" : ""}`,
      "data-testid": "tree-row",
      "data-depth": r.depth,
      "data-kind": n.kind,
      "data-namespace": n.namespace ?? "",
      "data-name": n.name,
      "data-state": n.state,
      "data-action": r.primary ? undefined : n.action,
      "data-key": r.primary ? n.key : undefined,
      role: "treeitem",
      "aria-level": r.depth + 1,
      "aria-expanded": r.hasKids ? String(r.open) : undefined,
    });
    const toggle = r.hasKids
      ? h("button", { class: "toggle", type: "button", "data-testid": "tree-toggle", "aria-expanded": String(r.open), "aria-label": `${r.open ? "Collapse" : "Expand"} ${n.kind} ${n.name}` }, r.open ? "▾" : "▸")
      : h("span", { class: "toggle" });
    toggle.addEventListener("click", (e) => {
      e.stopPropagation();
      if (!r.hasKids) return;
      if (collapsed.has(r.id)) collapsed.delete(r.id);
      else collapsed.add(r.id);
      list.setItems(flatten());
    });
    const name = h("span", { class: "mono name", title: objName(n) }, toggle, r.primary ? objName(n) : n.name);
    name.style.paddingLeft = `${r.depth * 18}px`;
    const state = h("span", { class: "cell" }, stateBadge(n.state), n.detail ? h("span", { class: "muted" }, ` ${n.detail}`) : null);
    if (r.primary) {
      const last = n.last;
      const summary = last ? describeTrigger(last.trigger) : "";
      el.append(
        h("span", { class: "mono kind" }, n.kind),
        name,
        state,
        h("span", { class: "cell" }, last ? outcomeBadge(last.outcome) : h("span", { class: "muted" }, "not reconciled"), last ? h("span", { class: "mono", "data-testid": "trigger", title: summary }, ` ${summary}`) : null),
        h("span", { class: "cell muted" }, n.generation !== undefined ? `generation ${n.generation}` : "", last?.endedAt ? ` · ${fmtTime(last.endedAt)}` : ""),
      );
      el.addEventListener("click", () => {
        selected = n.key;
        showLinks(n);
        list.setItems(flatten());
      });
    } else {
      const hashes = n.configHashes ? Object.entries(n.configHashes).map(([k, v]) => `${k}=${String(v).slice(0, 8)}`).join(" ") : "";
      const details = [n.reason ?? "", hashes, n.missing ? "(not in cache)" : "", n.planned ? "(from plan)" : ""].filter(Boolean).join(" · ");
      el.append(
        h("span", { class: "mono kind" }, n.kind),
        name,
        state,
        h("span", { class: "cell" }, actionBadge(n.action)),
        h("span", { class: "cell details", title: details }, n.reason ? h("span", null, n.reason) : null, hashes ? h("span", { class: "mono hash", "data-testid": "config-hashes" }, ` ${hashes}`) : null, n.missing ? h("span", { class: "muted" }, " (not in cache)") : null, n.planned ? h("span", { class: "muted" }, " (from plan)") : null),
      );
    }
    return el;
  }

  /** @param {any} o */
  function showLinks(o) {
    links.hidden = false;
    const p = query({ controller, key: o.key });
    links.replaceChildren(
      h("span", { class: "mono" }, `${o.kind} ${o.key}`),
      h("a", { href: `#timeline${p}`, "data-testid": "owner-timeline-link" }, "Timeline"),
      h("a", { href: `#plan${p}`, "data-testid": "owner-plan-link" }, "Plan"),
    );
  }

  function render() {
    const names = controllerNames();
    if (!controller && names.length) {
      controller = names[0];
      requestOwners(controller);
    }
    fillSelect(select, names, controller);
    const entry = store.owners.get(controller);
    owners = entry?.owners ?? [];
    error.hidden = !entry?.error;
    error.textContent = entry?.error ?? "";
    count.textContent = entry?.loaded ? `${owners.length} primaries` : controller ? "loading…" : "";
    if (selected) {
      const o = owners.find((x) => x.key === selected);
      if (o) showLinks(o);
      else links.hidden = true;
    } else links.hidden = true;
    list.setItems(flatten(), entry?.loaded ? "No primaries." : controller ? "Loading…" : store.state ? "No controllers." : "Waiting for the server…");
  }

  return {
    topics: ["state", "owners"],
    dirty: true,
    render,
    enter(params) {
      const c = params.get("controller");
      if (c) setController(c);
      else if (controller) requestOwners(controller);
    },
    // @ts-ignore extra hooks used by the stream handlers
    get controller() {
      return controller;
    },
  };
}

// 2. Timeline ----------------------------------------------------------------------------------

/** @returns {View} */
function timelineView() {
  const root = rootOf("timeline");
  let fController = "";
  let fKey = "";
  /** @type {number | null} */
  let selectedSeq = null;
  /** @type {any[]} */
  let shown = [];

  const select = /** @type {HTMLSelectElement} */ (h("select", { "data-testid": "timeline-controller-filter", "aria-label": "Controller filter" }));
  const keyInput = /** @type {HTMLInputElement} */ (h("input", { type: "search", "data-testid": "timeline-key-filter", placeholder: "filter by key (namespace/name)", "aria-label": "Key filter", spellcheck: "false" }));
  const loopCount = h("span", { class: "count", "data-testid": "loop-count" }, "0");
  const loopLabel = document.createTextNode(" loops");
  const loops = h("span", { class: "loops", title: "Reconcile loops: runs triggered by their own previous write that wrote again" }, loopCount, loopLabel);
  const counts = h("span", { class: "muted", "data-testid": "timeline-count" });
  const older = /** @type {HTMLButtonElement} */ (h("button", { type: "button", "data-testid": "timeline-older" }, "Load older"));
  const status = h("span", { class: "muted" });
  const list = new VirtualList({ rowHeight: 26, key: (r) => String(r.seq), render: renderRow, label: "Reconcile timeline", testid: "timeline-list" });
  const detail = h("aside", { class: "detail", "data-testid": "timeline-detail", hidden: true, "aria-label": "Reconcile detail" });
  root.append(
    h("div", { class: "toolbar" }, h("label", null, "Controller ", select), keyInput, loops, counts, h("span", { class: "grow" }), status, older),
    h(
      "div",
      { class: "split" },
      h(
        "div",
        { class: "pane" },
        h("div", { class: "thead timeline-cols" }, ...["time", "controller", "key", "trigger", "wait", "duration", "outcome", "", "writes"].map((t) => h("span", null, t))),
        list.el,
      ),
      detail,
    ),
  );

  const syncHash = () => history.replaceState(null, "", `#timeline${query({ controller: fController, key: fKey })}`);
  select.addEventListener("change", () => {
    fController = select.value;
    syncHash();
    render();
  });
  keyInput.addEventListener("input", () => {
    fKey = keyInput.value.trim();
    syncHash();
    render();
  });
  older.addEventListener("click", () => loadOlder());

  async function loadOlder() {
    const before = store.timeline.length ? String(store.timeline[0].seq) : undefined;
    older.disabled = true;
    status.textContent = "loading…";
    try {
      const body = await getJSON(`/api/timeline${query({ controller: fController, before, limit: "500" })}`);
      const recs = Array.isArray(body?.records) ? body.records : [];
      mergeBySeq(store.timeline, recs, LIMITS.timeline);
      status.textContent = recs.length ? "" : "no older records";
    } catch (e) {
      status.textContent = `Could not load older records: ${errorText(e)}`;
    } finally {
      older.disabled = false;
      invalidate("timeline");
    }
  }

  /** @param {string} controller @param {string} key */
  async function loadKey(controller, key) {
    try {
      const body = await getJSON(`/api/timeline${query({ controller, key, limit: "500" })}`);
      mergeBySeq(store.timeline, Array.isArray(body?.records) ? body.records : [], LIMITS.timeline);
      invalidate("timeline");
    } catch (e) {
      status.textContent = `Could not load the history of ${key}: ${errorText(e)}`;
    }
  }

  /** @param {any} r */
  function renderRow(r) {
    const summary = describeTrigger(r.trigger);
    const el = h(
      "div",
      {
        class: `row timeline-row${r.seq === selectedSeq ? " selected" : ""}${r.loop ? " loop" : ""}`,
        "data-testid": "timeline-row",
        "data-seq": r.seq,
        "data-controller": r.controller,
        "data-key": r.key,
        "data-outcome": r.outcome,
        "data-self": String(!!r.selfTriggered),
        "data-loop": String(!!r.loop),
        "data-trigger-reason": r.trigger?.reason ?? "",
        tabindex: "0",
      },
      h("span", { class: "mono muted" }, fmtTime(r.startedAt ?? r.queuedAt)),
      h("span", { class: "mono" }, r.controller),
      h("span", { class: "mono", title: r.key }, r.key),
      h("span", { class: "mono trig", "data-testid": "trigger", title: summary }, summary),
      h("span", { class: "num" }, fmtMs(r.waitMs)),
      h("span", { class: "num" }, r.outcome === "running" ? "…" : fmtMs(r.durationMs)),
      h("span", null, outcomeBadge(r.outcome)),
      h("span", null, r.loop ? badge("loop", "loop", "loop-badge") : null, r.selfTriggered ? badge("self", "self", "self-badge") : null),
      h("span", { class: "num", title: "writes" }, String(r.writes?.length ?? 0)),
    );
    const open = () => {
      selectedSeq = r.seq;
      renderDetail();
      list.invalidate();
    };
    el.addEventListener("click", open);
    el.addEventListener("keydown", (e) => {
      if (e.key === "Enter") open();
    });
    return el;
  }

  function renderDetail() {
    const r = selectedSeq === null ? null : store.timeline.find((x) => x.seq === selectedSeq);
    if (!r) {
      detail.hidden = true;
      detail.replaceChildren();
      return;
    }
    detail.hidden = false;
    detail.setAttribute("data-seq", String(r.seq));
    detail.setAttribute("data-outcome", r.outcome);
    /** @type {[string, any][]} */
    const fields = [
      ["seq", r.seq],
      ["controller", r.controller],
      ["key", r.key],
      ["reconcileID", r.reconcileID],
      ["trigger", describeTrigger(r.trigger)],
      ["trigger role", r.trigger?.role],
      ["coalesced causes", r.triggers],
      ["queued", fmtTime(r.queuedAt)],
      ["started", fmtTime(r.startedAt)],
      ["ended", r.endedAt !== undefined ? fmtTime(r.endedAt) : "running"],
      ["wait", fmtMs(r.waitMs)],
      ["duration", fmtMs(r.durationMs)],
      ["outcome", r.outcome],
      ["requeue after", r.requeueAfterMs !== undefined ? fmtMs(r.requeueAfterMs) : undefined],
      ["retries", r.retries],
      ["self-triggered", r.selfTriggered ? "yes: the trigger was this key's own write" : "no"],
      ["loop", r.loop ? "yes: reconcile loop (own writes keep triggering runs)" : "no"],
    ];
    const dl = h("dl", { class: "fields" });
    for (const [k, v] of fields) if (v !== undefined && v !== null && v !== "") dl.append(h("dt", null, k), h("dd", { class: "mono" }, String(v)));
    detail.replaceChildren(
      ...[
      h("div", { class: "detail-head" }, h("strong", null, `#${r.seq} ${r.key}`), outcomeBadge(r.outcome), r.loop ? badge("loop", "loop") : null, h("span", { class: "grow" }), h("button", { type: "button", class: "close", "aria-label": "Close detail", onclick: () => { selectedSeq = null; renderDetail(); list.invalidate(); } }, "×")),
      r.error ? h("div", { class: "error", "data-testid": "timeline-error" }, r.error) : null,
      dl,
      h("h3", null, `Writes (${r.writes?.length ?? 0})`),
      ...(r.writes?.length ? r.writes.map((/** @type {any} */ w) => renderWrite(w, "write")) : [h("div", { class: "muted" }, "No writes.")]),
      h("div", { class: "links" }, h("a", { href: `#plan${query({ controller: r.controller, key: r.key })}` }, "Plan this key"), h("a", { href: `#timeline${query({ controller: r.controller, key: r.key })}` }, "Only this key")),
      ].filter((x) => x !== null),
    );
  }

  function render() {
    fillSelect(select, controllerNames(), fController, "all controllers");
    if (keyInput.value.trim() !== fKey) keyInput.value = fKey;
    const all = store.timeline;
    const match = keyMatcher(fKey, (function* () {
      for (const r of all) yield r.key;
    })());
    /** @type {any[]} */
    const out = [];
    let loopsN = 0;
    for (let i = all.length - 1; i >= 0; i--) {
      const r = all[i];
      if (fController && r.controller !== fController) continue;
      if (!match(r.key)) continue;
      if (r.loop) loopsN++;
      out.push(r);
    }
    shown = out;
    loopCount.textContent = String(loopsN);
    loopLabel.textContent = loopsN === 1 ? " loop" : " loops";
    loops.classList.toggle("alert", loopsN > 0);
    counts.textContent = out.length === all.length ? `${all.length} reconciles` : `${out.length} of ${all.length} reconciles`;
    list.setItems(shown, all.length ? "No reconcile matches the filter." : "No reconciles yet.");
    if (selectedSeq !== null) renderDetail();
  }

  return {
    topics: ["state", "timeline"],
    dirty: true,
    render,
    enter(params) {
      const c = params.get("controller");
      const key = params.get("key");
      if (c !== null || key !== null) {
        fController = c ?? "";
        fKey = key ?? "";
        if (key) loadKey(fController, key);
      }
    },
  };
}

// 3. Queue & watches ---------------------------------------------------------------------------

/** @returns {View} */
function queueView() {
  const root = rootOf("queue");
  const cards = h("div", { class: "cards" });
  const informers = h("tbody");
  root.append(
    h("h2", null, "Controllers"),
    cards,
    h("h2", null, "Informers"),
    h(
      "div",
      { class: "scroll" },
      h(
        "table",
        { class: "grid", "data-testid": "informers" },
        h("thead", null, h("tr", null, ...["kind", "namespace", "synced", "stale", "objects", "last event", "events", "lists", "relists", "watch failures", "stalls", "approx size"].map((t) => h("th", null, t)))),
        informers,
      ),
    ),
  );

  /** @param {string} label @param {any} value @param {string} [testid] */
  const stat = (label, value, testid) => h("div", { class: "stat" }, h("div", { class: "stat-v", "data-testid": testid }, String(value)), h("div", { class: "stat-l" }, label));

  function render() {
    const s = store.state;
    if (!s) {
      cards.replaceChildren(h("div", { class: "muted" }, "Waiting for the server…"));
      informers.replaceChildren();
      return;
    }
    const now = serverNow();
    cards.replaceChildren(
      ...s.controllers.map((/** @type {any} */ c) => {
        const q = c.queue;
        const keys = q.keys ?? [];
        return h(
          "div",
          { class: "card", "data-testid": "controller-card", "data-controller": c.name },
          h("div", { class: "card-head" }, h("strong", { class: "mono" }, c.name), h("span", { class: "muted mono" }, `for ${c.for?.kind ?? "?"}${c.owns?.length ? ` · owns ${c.owns.map((/** @type {any} */ o) => o.kind).join(", ")}` : ""}${c.watches?.length ? ` · watches ${c.watches.map((/** @type {any} */ o) => o.kind).join(", ")}` : ""}`)),
          h(
            "div",
            { class: "stats" },
            stat("depth", q.depth, "queue-depth"),
            stat("in flight", q.inFlight, "queue-inflight"),
            stat("waiting", q.waiting, "queue-waiting"),
            stat("held", q.held, "queue-held"),
            stat("workers", c.workers, "queue-workers"),
            stat("reconciles", c.reconciles.total, "reconciles-total"),
            stat("errors", c.reconciles.errors, "reconciles-errors"),
            stat("loops", c.reconciles.loops, "reconciles-loops"),
          ),
          keys.length
            ? h(
                "table",
                { class: "grid" },
                h("thead", null, h("tr", null, h("th", null, "key"), h("th", null, "retries"), h("th", null, "due in"), h("th", null, "held"))),
                h(
                  "tbody",
                  null,
                  ...keys.map((/** @type {any} */ k) =>
                    h(
                      "tr",
                      { "data-testid": "queue-key", "data-key": k.key },
                      h("td", { class: "mono" }, k.key),
                      h("td", { class: "num" }, String(k.retries)),
                      h("td", { class: "num" }, k.dueAt !== undefined ? `${Math.max(0, (k.dueAt - now) / 1000).toFixed(1)}s` : "—"),
                      h("td", null, k.held ? badge("held", "warn") : ""),
                    ),
                  ),
                ),
              )
            : h("div", { class: "muted small" }, "No keys retrying or delayed."),
        );
      }),
    );
    informers.replaceChildren(
      ...s.informers.map((/** @type {any} */ i) =>
        h(
          "tr",
          { "data-testid": "informer-row", "data-kind": i.kind, "data-namespace": i.namespace },
          h("td", { class: "mono" }, i.kind, h("span", { class: "muted" }, ` ${i.apiVersion}`)),
          h("td", { class: "mono" }, i.namespace || "(all)"),
          h("td", null, i.synced ? badge("synced", "ok") : badge("syncing", "warn")),
          h("td", null, i.stale ? badge("stale", "bad") : ""),
          h("td", { class: "num" }, String(i.objects)),
          h("td", { class: "num" }, i.lastEventAt !== undefined ? fmtAge(now - i.lastEventAt) : "—"),
          h("td", { class: "num" }, String(i.events)),
          h("td", { class: "num" }, String(i.lists)),
          h("td", { class: "num" }, String(i.relists)),
          h("td", { class: "num" }, String(i.watchFailures)),
          h("td", { class: "num" }, String(i.stalls ?? 0)),
          h("td", { class: "num" }, fmtBytes(i.approxBytes)),
        ),
      ),
    );
  }

  return { topics: ["state", "stats"], dirty: true, render };
}

// 4. Events & log ------------------------------------------------------------------------------

/** @returns {View} */
function eventsView() {
  const root = rootOf("events");
  let fKey = "";
  let fLevel = "";
  const keyInput = /** @type {HTMLInputElement} */ (h("input", { type: "search", "data-testid": "events-key-filter", placeholder: "filter by key (namespace/name)", "aria-label": "Key filter", spellcheck: "false" }));
  const level = /** @type {HTMLSelectElement} */ (
    h("select", { "data-testid": "log-level-filter", "aria-label": "Minimum log level" }, h("option", { value: "" }, "all levels"), ...LEVELS.map((l) => h("option", { value: l }, `${l} and above`)))
  );
  const eventCount = h("span", { class: "muted", "data-testid": "event-count" });
  const logCount = h("span", { class: "muted", "data-testid": "log-count" });
  const events = new VirtualList({ rowHeight: 24, key: (e) => String(e.seq), render: renderEvent, label: "Kubernetes Events", testid: "event-list" });
  const logs = new VirtualList({ rowHeight: 24, key: (l) => String(l.seq), render: renderLog, label: "Log", testid: "log-list" });
  root.append(
    h("div", { class: "toolbar" }, keyInput, h("label", null, "Log level ", level)),
    h(
      "div",
      { class: "stack" },
      h("div", { class: "pane" }, h("h2", null, "Kubernetes Events ", eventCount), h("div", { class: "thead event-cols" }, ...["time", "type", "reason", "regarding", "note"].map((t) => h("span", null, t))), events.el),
      h("div", { class: "pane" }, h("h2", null, "Log ", logCount), h("div", { class: "thead log-cols" }, ...["time", "level", "controller", "key", "message", "fields"].map((t) => h("span", null, t))), logs.el),
    ),
  );
  keyInput.addEventListener("input", () => {
    fKey = keyInput.value.trim();
    render();
  });
  level.addEventListener("change", () => {
    fLevel = level.value;
    render();
  });

  /** @param {any} e */
  function renderEvent(e) {
    const reg = e.regarding ?? {};
    return h(
      "div",
      { class: "row event-row", "data-testid": "event-row", "data-reason": e.reason, "data-kind": reg.kind, "data-name": reg.name, "data-type": e.type, "data-reported-by": e.reportedBy ?? "" },
      h("span", { class: "mono muted" }, fmtTime(e.at)),
      h("span", null, badge(e.type, e.type === "Warning" ? "warn" : "muted")),
      h("span", { class: "mono" }, e.reason),
      h("span", { class: "mono", title: `${reg.kind} ${objName(reg)}` }, `${reg.kind} ${objName(reg)}`),
      h("span", { title: e.reportedBy ? `${e.note} (reported by ${e.reportedBy})` : e.note }, e.reportedBy ? `${e.note} — ${e.reportedBy}` : e.note),
    );
  }

  /** @param {any} l */
  function renderLog(l) {
    const fields = l.fields && Object.keys(l.fields).length ? json(l.fields) : "";
    return h(
      "div",
      { class: `row log-row lvl-${l.level}`, "data-testid": "log-row", "data-level": l.level },
      h("span", { class: "mono muted" }, fmtTime(l.at)),
      h("span", null, badge(l.level, l.level === "error" ? "bad" : l.level === "warn" ? "warn" : "muted")),
      h("span", { class: "mono" }, l.controller ?? ""),
      h("span", { class: "mono", title: l.key ?? "" }, l.key ?? ""),
      h("span", { title: l.msg }, l.msg),
      h("span", { class: "mono muted", title: fields }, fields),
    );
  }

  function render() {
    if (keyInput.value.trim() !== fKey) keyInput.value = fKey;
    const match = keyMatcher(fKey, (function* () {
      for (const e of store.events) {
        yield e.key;
        yield objName(e.regarding ?? {});
      }
      for (const l of store.logs) yield l.key;
    })());
    const min = fLevel ? LEVELS.indexOf(fLevel) : -1;
    /** @type {any[]} */
    const ev = [];
    for (let i = store.events.length - 1; i >= 0; i--) {
      const e = store.events[i];
      if (!match(e.key) && !match(objName(e.regarding ?? {}))) continue;
      ev.push(e);
    }
    /** @type {any[]} */
    const lg = [];
    for (let i = store.logs.length - 1; i >= 0; i--) {
      const l = store.logs[i];
      if (min > 0 && LEVELS.indexOf(l.level) < min) continue;
      if (!match(l.key)) continue;
      lg.push(l);
    }
    eventCount.textContent = `(${ev.length})`;
    logCount.textContent = `(${lg.length})`;
    events.setItems(ev, "No events.");
    logs.setItems(lg, "No log lines.");
  }

  return {
    topics: ["state", "events", "logs"],
    dirty: true,
    render,
    enter(params) {
      const key = params.get("key");
      if (key !== null) fKey = key;
    },
  };
}

// 5. Plan --------------------------------------------------------------------------------------

/** @returns {View} */
function planView() {
  const root = rootOf("plan");
  let controller = "";
  /** @type {AbortController | null} */
  let running = null;
  const select = /** @type {HTMLSelectElement} */ (h("select", { "data-testid": "plan-controller", "aria-label": "Controller" }));
  const keys = h("datalist", { id: "plan-keys" });
  const keyInput = /** @type {HTMLInputElement} */ (h("input", { type: "text", list: "plan-keys", "data-testid": "plan-key", placeholder: "namespace/name", "aria-label": "Key", spellcheck: "false", autocomplete: "off" }));
  const run = /** @type {HTMLButtonElement} */ (h("button", { type: "button", class: "primary", "data-testid": "plan-run" }, "Plan"));
  const status = h("span", { class: "muted", role: "status" });
  const out = h("div", { class: "plan-out" });
  root.append(
    h("div", { class: "toolbar" }, h("label", null, "Controller ", select), h("label", null, "Key ", keyInput), keys, run, status),
    h("p", { class: "muted small" }, "What the next reconcile of the key would change, computed with server dry runs: nothing is written."),
    out,
  );
  select.addEventListener("change", () => {
    controller = select.value;
    requestOwners(controller);
    render();
  });
  run.addEventListener("click", () => plan());
  keyInput.addEventListener("keydown", (e) => {
    if (e.key === "Enter") plan();
  });

  async function plan() {
    const c = select.value;
    const key = keyInput.value.trim();
    if (!c || !key) {
      out.replaceChildren(h("div", { class: "error", "data-testid": "plan-error" }, "Choose a controller and type a key (namespace/name) to plan."));
      return;
    }
    history.replaceState(null, "", `#plan${query({ controller: c, key })}`);
    running?.abort();
    const ac = new AbortController();
    running = ac;
    run.disabled = true;
    status.textContent = `planning ${key}…`;
    try {
      const view = await getJSON(`/api/plan${query({ controller: c, key })}`, ac.signal);
      if (ac.signal.aborted) return;
      out.replaceChildren(renderPlan(view));
    } catch (e) {
      if (ac.signal.aborted) return;
      out.replaceChildren(h("div", { class: "error", "data-testid": "plan-error" }, `Plan of ${key} failed: ${errorText(e)}`));
    } finally {
      if (running === ac) {
        running = null;
        run.disabled = false;
        status.textContent = "";
      }
    }
  }

  /** @param {any} p */
  function renderPlan(p) {
    const writes = Array.isArray(p.writes) ? p.writes : [];
    const objects = Array.isArray(p.objects) ? p.objects : [];
    return h(
      "div",
      { class: "plan-result", "data-testid": "plan-result", "data-outcome": p.outcome },
      h("div", { class: "detail-head" }, h("strong", { class: "mono" }, `${p.controller} ${p.key}`), outcomeBadge(p.outcome), h("span", { class: "muted" }, `planned at ${fmtTime(p.at)}`)),
      p.error ? h("div", { class: "error", "data-testid": "plan-error" }, p.error) : null,
      h("h3", null, `Objects (${objects.length})`),
      objects.length
        ? h(
            "table",
            { class: "grid" },
            h("thead", null, h("tr", null, h("th", null, "kind"), h("th", null, "name"), h("th", null, "action"), h("th", null, "reason"))),
            h(
              "tbody",
              null,
              ...objects.map((/** @type {any} */ o) =>
                h(
                  "tr",
                  { "data-testid": "plan-object", "data-kind": o.kind, "data-name": o.name, "data-action": o.action },
                  h("td", { class: "mono" }, o.kind),
                  h("td", { class: "mono" }, objName(o)),
                  h("td", null, actionBadge(o.action)),
                  h("td", null, o.reason ?? ""),
                ),
              ),
            ),
          )
        : h("div", { class: "muted" }, "The Builder planned no objects."),
      h("h3", null, `Writes (${writes.length})`),
      writes.length ? writes.map((/** @type {any} */ w) => renderWrite(w, "plan-write")) : h("div", { class: "empty", "data-testid": "plan-empty" }, "no changes: the next reconcile would write nothing"),
    );
  }

  function render() {
    const names = controllerNames();
    if (!controller && names.length) {
      controller = names[0];
      requestOwners(controller);
    }
    fillSelect(select, names, controller);
    const known = (store.owners.get(controller)?.owners ?? []).map((/** @type {any} */ o) => String(o.key));
    if (keys.children.length !== known.length || known.some((k, i) => /** @type {HTMLOptionElement} */ (keys.children[i]).value !== k)) {
      keys.replaceChildren(...known.map((k) => h("option", { value: k })));
    }
  }

  return {
    topics: ["state", "owners"],
    dirty: true,
    render,
    enter(params) {
      const c = params.get("controller");
      const key = params.get("key");
      if (c) {
        controller = c;
        requestOwners(c);
      }
      if (key !== null && key !== keyInput.value) {
        keyInput.value = key;
        out.replaceChildren();
      }
    },
  };
}

// 6. Ownership ---------------------------------------------------------------------------------

/** @returns {View} */
function ownershipView() {
  const root = rootOf("ownership");
  const body = h("div", { class: "ownership" });
  root.append(body);

  /** @param {number} i */
  const color = (i) => `hsl(${(i * 137 + 210) % 360} 65% 55%)`;

  function render() {
    const o = store.state?.ownership;
    if (!o) {
      body.replaceChildren(h("div", { class: "muted" }, "Waiting for the server…"));
      return;
    }
    const le = o.leaderElection;
    const info = h(
      "dl",
      { class: "fields" },
      h("dt", null, "identity"),
      h("dd", { class: "mono", "data-testid": "ownership-identity" }, o.identity),
      h("dt", null, "role"),
      h("dd", null, h("span", { class: `badge b-role-${o.role}`, "data-testid": "ownership-role" }, o.role)),
      le ? [h("dt", null, "lease"), h("dd", { class: "mono" }, `${le.namespace}/${le.name}`), h("dt", null, "lease holder"), h("dd", { class: "mono", "data-testid": "lease-holder" }, le.holder ?? "(none)")] : [h("dt", null, "leader election"), h("dd", null, "off")],
    );
    const parts = [h("h2", null, "Leadership"), info];
    const sh = o.sharding;
    if (sh) {
      /** @type {Map<number, number>} */
      const ownerOf = new Map();
      sh.members.forEach((/** @type {any} */ m, /** @type {number} */ i) => {
        for (const b of m.buckets) ownerOf.set(b, i);
      });
      const served = new Set(sh.served);
      const grid = h("div", { class: "buckets", "data-testid": "buckets", role: "img", "aria-label": `${sh.buckets} buckets of ring ${sh.ring}` });
      for (let b = 0; b < sh.buckets; b++) {
        const mi = ownerOf.get(b);
        const member = mi === undefined ? "" : sh.members[mi].identity;
        const cell = h("div", { class: `bucket${served.has(b) ? " served" : ""}`, "data-testid": "bucket", "data-bucket": b, "data-owner": member, "data-served": String(served.has(b)), title: `bucket ${b}: ${member || "unassigned"}${served.has(b) ? " (served here)" : ""}` }, String(b));
        if (mi !== undefined) cell.style.background = color(mi);
        grid.append(cell);
      }
      parts.push(
        h("h2", null, "Sharding"),
        h("dl", { class: "fields" }, h("dt", null, "ring"), h("dd", { class: "mono", "data-testid": "ring" }, sh.ring), h("dt", null, "buckets"), h("dd", null, String(sh.buckets)), h("dt", null, "served here"), h("dd", { class: "mono" }, `${sh.served.length}: ${ranges(sh.served)}`)),
        grid,
        h("h3", null, "Members"),
        h(
          "table",
          { class: "grid" },
          h("thead", null, h("tr", null, h("th", null, ""), h("th", null, "identity"), h("th", null, "buckets"), h("th", null, "count"))),
          h(
            "tbody",
            null,
            ...sh.members.map((/** @type {any} */ m, /** @type {number} */ i) => {
              const sw = h("span", { class: "swatch" });
              sw.style.background = color(i);
              return h("tr", { "data-testid": "member", "data-identity": m.identity }, h("td", null, sw), h("td", { class: "mono" }, m.identity, m.identity === o.identity ? h("span", { class: "muted" }, " (this replica)") : null), h("td", { class: "mono" }, ranges(m.buckets)), h("td", { class: "num" }, String(m.buckets.length)));
            }),
          ),
        ),
        h("h3", null, "Recent handovers"),
        sh.handovers.length
          ? h(
              "table",
              { class: "grid" },
              h("thead", null, h("tr", null, h("th", null, "time"), h("th", null, "bucket"), h("th", null, "change"))),
              h("tbody", null, ...[...sh.handovers].reverse().map((/** @type {any} */ x) => h("tr", { "data-testid": "handover" }, h("td", { class: "mono" }, fmtTime(x.at)), h("td", { class: "num" }, String(x.bucket)), h("td", null, badge(x.change, x.change === "served" ? "ok" : "warn"))))),
            )
          : h("div", { class: "muted" }, "No handovers."),
      );
    } else {
      parts.push(h("p", { class: "muted" }, "Sharding is off: this replica serves every key."));
    }
    body.replaceChildren(...parts);
  }

  return { topics: ["state", "stats"], dirty: true, render };
}

// ---------------------------------------------------------------------------------------------
// Header, router, stream

const live = /** @type {HTMLElement} */ (document.querySelector('[data-testid="live"]'));
const banner = /** @type {HTMLElement} */ (document.getElementById("banner"));
const identity = /** @type {HTMLElement} */ (document.getElementById("identity"));

function renderHeader() {
  const o = store.state?.ownership;
  identity.textContent = o ? `${o.identity} · ${o.role}` : "";
}

/** @param {"connected" | "reconnecting"} state @param {string} text */
function setLive(state, text) {
  live.setAttribute("data-state", state);
  live.textContent = text;
}

/** @type {Record<string, View>} */
const views = {
  owners: ownersView(),
  timeline: timelineView(),
  queue: queueView(),
  events: eventsView(),
  plan: planView(),
  ownership: ownershipView(),
};
let current = "owners";

function route() {
  const raw = location.hash.replace(/^#/, "");
  const q = raw.indexOf("?");
  const name = q < 0 ? raw : raw.slice(0, q);
  const params = new URLSearchParams(q < 0 ? "" : raw.slice(q + 1));
  current = VIEWS.includes(name) ? name : "owners";
  for (const v of VIEWS) rootOf(v).hidden = v !== current;
  for (const a of document.querySelectorAll("nav a[data-view]")) {
    if (a.getAttribute("data-view") === current) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
  const view = views[current];
  view.enter?.(params);
  view.dirty = false;
  view.render();
}

/** @param {any} s DashboardState */
function onHello(s) {
  if (s?.protocol !== PROTOCOL) {
    banner.hidden = false;
    banner.textContent = `The server speaks dashboard protocol ${s?.protocol}, this page protocol ${PROTOCOL}: reload the page.`;
    return;
  }
  banner.hidden = true;
  const restarted = !store.state || store.state.startedAt !== s.startedAt;
  store.state = s;
  store.skew = s.now - Date.now();
  if (restarted) {
    store.timeline = [];
    store.events = [];
    store.logs = [];
  }
  mergeBySeq(store.timeline, s.timeline ?? [], LIMITS.timeline);
  mergeBySeq(store.events, s.events ?? [], LIMITS.events);
  mergeBySeq(store.logs, s.logs ?? [], LIMITS.logs);
  // refetch what is on screen
  const c = /** @type {any} */ (views.owners).controller;
  if (c) requestOwners(c);
  invalidate("state", "timeline", "events", "logs", "owners", "stats");
}

/** @param {string} type @param {(data: any) => void} fn */
function on(type, fn) {
  return (/** @type {MessageEvent} */ ev) => {
    let data;
    try {
      data = JSON.parse(ev.data);
    } catch {
      return;
    }
    fn(data);
  };
}

let retry = 0;
function connect() {
  const es = new EventSource("/api/stream");
  es.addEventListener(
    "hello",
    on("hello", (s) => {
      retry = 0;
      setLive("connected", "● live");
      onHello(s);
    }),
  );
  es.addEventListener(
    "reconcile",
    on("reconcile", (r) => {
      upsertBySeq(store.timeline, r, LIMITS.timeline);
      invalidate("timeline");
      if (r.outcome !== "running" && r.controller === /** @type {any} */ (views.owners).controller) {
        if (current === "owners") requestOwners(r.controller);
        else views.owners.dirty = true;
      }
    }),
  );
  es.addEventListener(
    "event",
    on("event", (e) => {
      upsertBySeq(store.events, e, LIMITS.events);
      invalidate("events");
    }),
  );
  es.addEventListener(
    "log",
    on("log", (l) => {
      upsertBySeq(store.logs, l, LIMITS.logs);
      invalidate("logs");
    }),
  );
  es.addEventListener(
    "stats",
    on("stats", (d) => {
      if (!store.state) return;
      store.state = { ...store.state, now: d.now, controllers: d.controllers, informers: d.informers, ownership: d.ownership };
      store.skew = d.now - Date.now();
      invalidate("stats");
    }),
  );
  es.addEventListener(
    "owners",
    on("owners", (d) => {
      const c = /** @type {any} */ (views.owners).controller;
      if (d.controller === c && current === "owners") requestOwners(c);
      else if (d.controller === c) views.owners.dirty = true;
      if (current === "plan" && d.controller) requestOwners(d.controller);
    }),
  );
  es.addEventListener("open", () => setLive("reconnecting", "connecting…"));
  es.addEventListener("error", () => {
    setLive("reconnecting", "○ reconnecting…");
    if (es.readyState === EventSource.CLOSED) {
      // the browser gave up (a non-stream answer, e.g. too many pages follow the stream): show a
      // snapshot meanwhile, and try again with a backoff
      if (!store.state) getJSON("/api/state").then(onHello, () => undefined);
      retry = Math.min(retry + 1, 5);
      window.setTimeout(connect, 500 * 2 ** retry);
    }
  });
}

window.addEventListener("hashchange", route);
route();
connect();
