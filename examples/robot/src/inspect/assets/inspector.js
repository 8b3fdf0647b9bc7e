// The robot inspector's page. No build step, no library: the socket's messages (see
// src/inspect/protocol.rs) become DOM and canvases. Live: the robot sends its state whole
// once, then only what changed (behaviors' states, the conditions' values of what the page
// explains, the intents, the robot-state keys); the static text (names, classes, condition
// texts) is the tree's, sent once in `hello`. Replay: everything is rebuilt from the trace's
// entries up to the slider's tick (and, for a trace recorded with --trace-why, from its
// `why` events: each behavior's state, the conditions' values, the robot state).
// Outside text (names, intents, anything a peer sent) only ever reaches the page through
// textContent or a canvas: never as HTML.
"use strict";

const $ = (id) => document.getElementById(id);
const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
};

/// A cooldown's end at or beyond this (2^53 ms) never comes.
const FOREVER_MS = 2 ** 53;

const S = {
  mode: null, tree: null, tps: 20, commands: false, catalog: null, stateKeys: [],
  // live: the robot's state as the changes built it (see applyState).
  live: null,
  entries: [], whyEvents: [], historyDropped: 0, selected: null,
  replayTick: null, maxTick: 0, playing: null, replayCache: null,
  follow: true, view: null, collapsed: new Set(), nameIndex: new Map(),
  roles: null, nextId: 0, token: null, ws: null, rendered: 0, renderedUpto: -1,
  lanes: new Map(), laneOrder: [], markers: [], lastStack: [], nowMs: 0,
  // Plots: per numeric robot-state key, its values over time ([t_ms, value]); the keys shown.
  series: new Map(), plotted: new Set(),
  search: "", matches: [], matchPos: -1, graphMode: false, graph: null,
  // What the page costs (read by the browser tests): the largest update received, in
  // characters; render times in ms; updates that brought only the clock; the last click on the
  // graph, from the event to the rendered frame, in ms.
  perf: { maxUpdate: 0, updates: 0, clocks: 0, lastRenderMs: 0, maxRenderMs: 0, renders: 0,
          clickMs: null, clicks: 0 },
};

// ----- formatting (mirrors src/timeline.rs) --------------------------------------------------

const CATEGORY = {
  input: "input", note: "note", scenario_error: "problem", input_ignored: "problem",
  unclaimed: "problem", not_understood: "problem", cloud_error: "problem",
  trigger_word: "intent", pending: "intent", replaced: "intent", deadline_near: "intent",
  claimed: "intent", released: "intent", dropped: "intent", stream_opened: "intent",
  flag_cleared: "intent", timeout_held: "intent", behavior: "behavior", stack: "behavior",
  action: "action", resource: "resource",
};
const category = (e) => CATEGORY[e.event] || "other";

function fmtMs(ms) {
  const s = Math.floor(ms / 1000), r = String(ms % 1000).padStart(3, "0");
  return `${s}.${r} s`;
}
const plural = (n, w) => `${n} ${w}${n === 1 ? "" : "s"}`;
const tickMs = (t) => Math.round(t * 1000 / S.tps);

function text(e) {
  switch (e.event) {
    case "input": {
      const said = e.say ? `  \u201c${e.say}\u201d` : "";
      return e.line === 0 ? `${e.kind} ${e.detail}${said}  (live)`
                          : `${e.kind} ${e.detail}${said}  (line ${e.line})`;
    }
    case "note": return `# ${e.text}`;
    case "scenario_error": return `scenario line ${e.line} skipped: ${e.problem}`;
    case "input_ignored": return `ignored: ${e.reason}`;
    case "trigger_word": return `trigger word ${e.change}`;
    case "pending": return `pending ${e.intent}${e.payload ? " " + e.payload : ""}  from ${e.source}, ${e.via}`;
    case "replaced": return `${e.old} replaced by ${e.new} (intents do not queue)`;
    case "deadline_near": return `${e.intent} still unclaimed after ${e.age_ticks} ticks`;
    case "claimed": {
      const t = e.latency_ticks;
      const lat = t === undefined || t === null ? "" : `  (${plural(t, "tick")} after arrival)`;
      return `${e.behavior} claimed ${e.intent} (activation #${e.activation})${lat}`;
    }
    case "released": return `${e.intent} ended (${e.reason})`;
    case "unclaimed": return `${e.intent} unclaimed: no behavior claimed it within ${e.age_ticks} ticks`;
    case "dropped": return `${e.intent} dropped on request`;
    case "not_understood": return `could not translate ${JSON.stringify(e.intent)}: ${e.error} -> ${e.reaction}`;
    case "cloud_error": return `intent error flag set: ${e.cause}`;
    case "stream_opened": return "cloud stream opened";
    case "flag_cleared": return `${e.flag} flag cleared`;
    case "timeout_held": return e.held ? "claim deadline paused" : "claim deadline resumed (fresh window)";
    case "behavior": return e.reason ? `${e.behavior} ${e.change} (${e.reason})` : `${e.behavior} ${e.change}`;
    case "stack": return `stack: ${e.stack.join(" > ")}`;
    case "action":
      return e.duration_ms !== undefined && e.duration_ms !== null
        ? `${e.behavior}: ${e.action} ${e.change} (${e.duration_ms} ms)`
        : `${e.behavior}: ${e.action} ${e.change}`;
    case "resource":
      return e.reason ? `${e.resource} ${e.change} for ${e.holder} (${e.reason})`
                      : `${e.resource} ${e.change} for ${e.holder}`;
    default: {
      const rest = Object.assign({}, e);
      delete rest.tick; delete rest.t_ms; delete rest.event;
      return `${e.event} ${JSON.stringify(rest)}`;
    }
  }
}

const baseName = (s) => s.split("(")[0];
const stateOf = (s) => { const m = /\((.*)\)$/.exec(s); return m ? m[1] : null; };

// ----- the socket ------------------------------------------------------------------------------

/// The token: from the address's fragment (`#token=...`, which the browser never sends to a
/// server, so it reaches no log or proxy), or an old `?token=` link; taken out of the address
/// bar at once (kept for this tab only, for reconnecting).
function readToken() {
  const hash = new URLSearchParams(location.hash.replace(/^#/, ""));
  const query = new URLSearchParams(location.search);
  const t = hash.get("token") || query.get("token");
  if (t) {
    try { sessionStorage.setItem("inspector-token", t); } catch (e) { /* private mode */ }
    if (history.replaceState) history.replaceState(null, "", location.pathname);
    return t;
  }
  try { return sessionStorage.getItem("inspector-token"); } catch (e) { return null; }
}

function connect() {
  if (S.token === null) S.token = readToken();
  // Behind a TLS reverse proxy the page came over https: its socket goes the same way.
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws`);
  S.ws = ws;
  ws.onopen = () => {
    setConn("connected", "ok");
    // The socket's first message: the token (the server sends nothing before it).
    if (S.token) ws.send(JSON.stringify({ cmd: "auth", token: S.token }));
  };
  ws.onmessage = (m) => {
    let msg;
    try { msg = JSON.parse(m.data); } catch (e) { return; }
    if (msg.type === "update") {
      S.perf.updates++;
      S.perf.maxUpdate = Math.max(S.perf.maxUpdate, m.data.length);
    }
    onMessage(msg);
  };
  ws.onclose = () => {
    S.ws = null;
    if (S.refused) {
      // The server refused the socket (no token, a wrong one): say why, try again later.
      setConn(`refused: ${S.refused}`, "bad");
      S.refused = null;
      setTimeout(connect, 10000);
      return;
    }
    setConn(S.mode === "replay" ? "disconnected" : "disconnected: reconnecting…", "bad");
    setTimeout(connect, 2000);
  };
}

function setConn(t, cls) { const c = $("conn"); c.textContent = t; c.className = "conn " + cls; }

const silent = new Set();
function send(cmd, quiet) {
  if (!S.ws || S.ws.readyState !== 1) { if (!quiet) showReply("not connected", false); return; }
  const msg = Object.assign({ id: ++S.nextId }, cmd);
  if (quiet) silent.add(msg.id);
  S.ws.send(JSON.stringify(msg));
}

/// Tells the server what the "why" panel looks at (its children's gates come even out of scope).
function watch() {
  if (S.mode !== "live" || !S.commands) return;
  send({ cmd: "watch", behavior: S.selected === null ? null : S.tree.nodes[S.selected].name }, true);
}

function showReply(t, ok) { const r = $("reply"); r.textContent = t; r.className = "reply " + (ok ? "ok" : "err"); }

function onMessage(msg) {
  switch (msg.type) {
    case "hello": hello(msg); break;
    case "update":
      addEntries(msg.entries || []);
      if (msg.dropped) S.historyDropped += msg.dropped;
      if (msg.state) applyState(msg.state);
      schedule();
      break;
    case "reply": if (!silent.delete(msg.id)) showReply(msg.message, true); break;
    case "error":
      if (!silent.delete(msg.id)) showReply(msg.error, false);
      // Before the hello, an error is the server refusing the socket.
      if (!S.tree || msg.id === null && /token/.test(msg.error || "")) S.refused = msg.error;
      break;
  }
}

function hello(msg) {
  S.mode = msg.mode; S.tree = msg.tree; S.tps = msg.ticks_per_second || 20;
  S.commands = !!msg.commands; S.catalog = msg.catalog || null;
  S.stateKeys = msg.state_keys || [];
  S.entries = []; S.whyEvents = []; S.lanes = new Map(); S.laneOrder = []; S.markers = []; S.lastStack = [];
  S.rendered = 0; S.renderedUpto = -1; S.nowMs = 0; S.maxTick = 0; S.historyDropped = msg.history_dropped || 0;
  S.live = null; S.series = new Map(); S.replayCache = null;
  $("timeline").textContent = "";
  S.nameIndex = new Map(S.tree.nodes.map((n) => [n.name, n.index]));
  S.roles = stateRoles();
  S.flat = S.tree.nodes.map((n) => flatConditions(n.conditions || []));
  S.graph = null;
  treeKey = null; whyKey = null; stateKey = null; breakKey = null;
  const badge = $("mode");
  badge.textContent = S.mode; badge.className = "badge " + S.mode;
  document.body.classList.toggle("replay", S.mode === "replay");
  $("controls").hidden = S.mode !== "live";
  $("replaybar").hidden = S.mode !== "replay";
  $("readonly").hidden = S.commands;
  for (const e of document.querySelectorAll("#sendcard .tabs, #sendcard .pane, #breakform")) e.hidden = !S.commands;
  for (const b of document.querySelectorAll("#sendcard button, #breakcard button")) {
    if (!b.classList.contains("tab")) b.disabled = !S.commands;
  }
  const problems = msg.problems || [];
  $("problems").hidden = problems.length === 0;
  $("problems").textContent = problems.join("\n");
  if (msg.trace) document.title = `Replay: ${msg.trace}`;
  fillForms();
  addEntries(msg.history || []);
  if (msg.state) applyState(msg.state);
  if (S.mode === "replay") {
    const slider = $("slider");
    slider.max = String(S.maxTick);
    slider.value = String(S.maxTick);
    S.replayTick = S.maxTick;
  }
  S.view = null; S.follow = true; $("follow").classList.add("on");
  if (S.selected !== null && S.selected >= S.tree.nodes.length) S.selected = null;
  runSearch();
  watch();
  schedule();
}

// ----- the robot's state: whole, then changes -------------------------------------------------

function emptyState() {
  return { tick: null, t_ms: 0, paused: false, nodes: new Map(), why: new Map(), explained: [],
           dispatcher: null, intents: null, robot: new Map(), forced: null, breakpoints: [], hit: null };
}

/// Applies a state (whole, `full`) or changes to `st` (a state as emptyState makes it): absent
/// keys did not change; listed behaviors, why records and keys replace what there was; a
/// behavior back to out of scope with nothing to show is dropped.
function mergeState(st, ch) {
  if (ch.full) Object.assign(st, emptyState());
  if (ch.tick !== undefined) st.tick = ch.tick;
  if (ch.t_ms !== undefined) st.t_ms = ch.t_ms;
  if (ch.paused !== undefined) st.paused = ch.paused;
  for (const n of ch.nodes || []) {
    if (n.state === "out_of_scope" && n.debug_state === undefined && n.cooling_until_ms === undefined) st.nodes.delete(n.index);
    else st.nodes.set(n.index, n);
  }
  if (ch.explained) {
    st.explained = ch.explained;
    const keep = new Set(ch.explained);
    for (const i of [...st.why.keys()]) if (!keep.has(i)) st.why.delete(i);
  }
  for (const w of ch.why || []) st.why.set(w.index, w);
  for (const r of ch.robot || []) st.robot.set(r[0], { value: r[1], tick: r[2] });
  for (const k of ["dispatcher", "intents", "forced", "breakpoints", "hit"]) if (ch[k] !== undefined) st[k] = ch[k];
  return st;
}

function applyState(ch) {
  if (!S.live) S.live = emptyState();
  const onlyClock = !ch.full && Object.keys(ch).every((k) => k === "tick" || k === "t_ms" || k === "paused");
  if (onlyClock) S.perf.clocks++;
  mergeState(S.live, ch);
  S.nowMs = Math.max(S.nowMs, S.live.t_ms);
  for (const r of ch.robot || []) addPoint(r[0], r[1], r[2], S.live.tick);
}

/// A numeric key's value, for its plot: at the tick it changed (or the state's).
function addPoint(key, value, changed, stateTick) {
  const k = S.stateKeys[key];
  if (!k || !k.numeric) return;
  if (!S.series.has(key)) S.series.set(key, []);
  const pts = S.series.get(key);
  const t = tickMs(changed === null || changed === undefined ? (stateTick || 0) : changed);
  const v = typeof value === "number" ? value : null;
  if (pts.length && pts[pts.length - 1][0] === t) pts[pts.length - 1][1] = v;
  else if (!pts.length || pts[pts.length - 1][1] !== v || pts[pts.length - 1][0] > t) pts.push([t, v]);
  if (pts.length > 1 && pts[pts.length - 2][0] > t) pts.sort((a, b) => a[0] - b[0]);
}

/// A behavior's condition nodes, depth first (each node, then its children), as `why`
/// records list their values: `[{label, type, detail, depth, top}]`.
function flatConditions(list) {
  const out = [];
  const walk = (c, depth, top) => {
    out.push({ label: c.label || "", type: c.type, detail: c.detail || "", depth, top });
    for (const k of c.children || []) walk(k, depth + 1, top);
  };
  list.forEach((c, k) => walk(c, 0, k));
  return out;
}

/// A trace's `why` event with only what is well formed: behaviors and keys that exist,
/// values of the expected kinds.
function cleanWhy(e) {
  const n = S.tree.nodes.length;
  const idx = (i) => Number.isInteger(i) && i >= 0 && i < n;
  const list = (v) => (Array.isArray(v) ? v : []);
  const opt = (v) => (v === null || v === undefined || typeof v === "number" ? v : undefined);
  const STATES = ["out_of_scope", "in_scope", "active"];
  const out = { tick: e.tick, t_ms: e.t_ms, event: "why" };
  if (e.full === true) out.full = true;
  out.nodes = list(e.nodes).filter((r) => r && idx(r.index) && STATES.includes(r.state)).map((r) => ({
    index: r.index, state: r.state, stack_position: opt(r.stack_position), wants: r.wants === true,
    remembered: typeof r.remembered === "boolean" ? r.remembered : undefined, wanted_tick: opt(r.wanted_tick),
    cooling_until_ms: opt(r.cooling_until_ms), active_since_ms: opt(r.active_since_ms),
    action: typeof r.action === "string" ? r.action : undefined,
    debug_state: typeof r.debug_state === "string" ? r.debug_state : undefined,
  }));
  if (Array.isArray(e.explained)) out.explained = e.explained.filter(idx);
  out.why = list(e.why).filter((w) => w && idx(w.index)).map((w) => ({
    index: w.index,
    closed: list(w.closed).filter((g) => typeof g === "string"),
    intent_pending: typeof w.intent_pending === "boolean" ? w.intent_pending : undefined,
    values: list(w.values).map((v) => (Array.isArray(v) && typeof v[0] === "boolean"
      ? (v.length > 1 && Number.isInteger(v[1]) ? [v[0], v[1]] : [v[0]]) : null)),
  }));
  out.robot = list(e.robot).filter((r) => Array.isArray(r) && Number.isInteger(r[0]) && r[0] >= 0 && r[0] < S.stateKeys.length)
    .map((r) => [r[0], ["boolean", "number", "string"].includes(typeof r[1]) ? r[1] : null, Number.isInteger(r[2]) ? r[2] : null]);
  if (e.dispatcher === null || idx(e.dispatcher)) out.dispatcher = e.dispatcher;
  return out;
}

// ----- entries: chart lanes, markers ----------------------------------------------------------

function addEntries(list) {
  for (const e of list) {
    if (e.event === "why") {
      // A --trace-why trace's record of what changed in the robot on this tick (a trace is
      // a file anyone may have written: only well-formed parts are kept).
      S.whyEvents.push(cleanWhy(e));
      S.maxTick = Math.max(S.maxTick, e.tick);
      continue;
    }
    S.entries.push(e);
    S.maxTick = Math.max(S.maxTick, e.tick);
    S.nowMs = Math.max(S.nowMs, e.t_ms);
    if (e.event === "stack") onStack(e);
    else if (e.event === "input") S.markers.push({ t: e.t_ms, kind: "input", e });
    else if (e.event === "claimed") S.markers.push({ t: e.t_ms, kind: "claimed", e });
    else if (e.event === "unclaimed" || e.event === "not_understood")
      S.markers.push({ t: e.t_ms, kind: "problem", e });
  }
}

function onStack(e) {
  const now = new Map(e.stack.map((s) => [baseName(s), s]));
  for (const [name, lane] of S.lanes) {
    const open = lane.length && lane[lane.length - 1].end === null ? lane[lane.length - 1] : null;
    if (open && !now.has(name)) open.end = e.t_ms;
  }
  for (const [name, label] of now) {
    if (!S.lanes.has(name)) { S.lanes.set(name, []); S.laneOrder.push(name); }
    const lane = S.lanes.get(name);
    const open = lane.length && lane[lane.length - 1].end === null ? lane[lane.length - 1] : null;
    if (!open) lane.push({ start: e.t_ms, end: null, labels: [{ t: e.t_ms, label }] });
    else if (open.labels[open.labels.length - 1].label !== label) open.labels.push({ t: e.t_ms, label });
  }
  S.lastStack = e.stack;
}

// ----- derived state (replay: up to the slider; live: up to the state's tick) ------------------

/// The last tick the page shows: the slider's (replay), or the robot state's (live: the
/// timeline shows no entry of a tick the header and the stack do not show yet).
function upto() {
  if (S.mode === "replay") return S.replayTick;
  return S.live && S.live.tick !== null && S.live.tick !== undefined ? S.live.tick : -1;
}

function stackAt(tick) {
  let st = [];
  for (const e of S.entries) { if (e.tick > tick) break; if (e.event === "stack") st = e.stack; }
  return st;
}

/// A trace's `why` events merged up to `tick` (kept between calls: moving forward applies
/// what is new).
function replayState(tick) {
  if (!S.whyEvents.length) return null;
  let c = S.replayCache;
  if (!c || c.tick > tick) {
    c = { tick: -1, k: 0, st: emptyState(), series: new Map() };
  }
  while (c.k < S.whyEvents.length && S.whyEvents[c.k].tick <= tick) {
    const e = S.whyEvents[c.k++];
    mergeState(c.st, e);
  }
  c.tick = tick;
  c.st.tick = tick;
  c.st.t_ms = tickMs(tick);
  S.replayCache = c;
  return c.st;
}

/// The state the page shows: live, or rebuilt from a --trace-why trace at the slider's tick
/// (null for a trace without `why` events).
function shownState() {
  if (S.mode === "live") return S.live;
  return replayState(S.replayTick);
}

/// One behavior's status for the tree, the graph and the why panel.
function statusOf(rec, tMs) {
  const st = { index: rec.index, state: rec.state, stack_position: rec.stack_position,
    wants: !!rec.wants, remembered: rec.remembered, wanted_tick: rec.wanted_tick,
    action: rec.action, debug_state: rec.debug_state };
  st.wants_to_run = rec.state === "active" || (rec.state === "in_scope" && (!!rec.wants || rec.remembered === true));
  if (rec.cooling_until_ms !== undefined && rec.cooling_until_ms !== null) {
    st.cooldown_ms = rec.cooling_until_ms >= FOREVER_MS ? FOREVER_MS : Math.max(0, rec.cooling_until_ms - tMs);
    if (st.cooldown_ms === 0) delete st.cooldown_ms;
  }
  if (rec.active_since_ms !== undefined && rec.active_since_ms !== null) st.active_ms = Math.max(0, tMs - rec.active_since_ms);
  return st;
}

/// Each behavior's status: from the robot's state (live, or a --trace-why trace), or, for a
/// trace without it, rebuilt from its stack.
function nodeStatus() {
  const n = S.tree.nodes.length;
  const out = [];
  for (let i = 0; i < n; i++) out.push({ index: i, state: "out_of_scope", wants_to_run: false });
  const shown = shownState();
  if (shown) {
    for (const [i, rec] of shown.nodes) if (i >= 0 && i < n) out[i] = statusOf(rec, shown.t_ms);
    return out;
  }
  const stack = S.mode === "replay" ? stackAt(S.replayTick) : S.lastStack;
  const todo = [];
  const scope = (i) => {
    if (i === undefined || i >= n || out[i].state !== "out_of_scope") return;
    out[i].state = "in_scope";
    todo.push(i);
  };
  stack.forEach((s, pos) => {
    const i = S.nameIndex.get(baseName(s));
    if (i === undefined) return;
    out[i].state = "active"; out[i].stack_position = pos; out[i].debug_state = stateOf(s);
    out[i].wants_to_run = true;
    todo.push(i);
  });
  scope(S.tree.base);
  stack.forEach((s) => {
    const i = S.nameIndex.get(baseName(s));
    if (i !== undefined) for (const d of S.tree.nodes[i].delegates) scope(d);
  });
  // Linked scope is in scope whenever its owner is.
  while (todo.length) for (const l of S.tree.nodes[todo.pop()].linked || []) scope(l);
  return out;
}


// ----- rendering ------------------------------------------------------------------------------

let scheduled = false;
function schedule() {
  if (scheduled) return;
  scheduled = true;
  requestAnimationFrame(() => { scheduled = false; render(); });
}

function render() {
  if (!S.tree) return;
  const t0 = performance.now();
  renderAll();
  const ms = performance.now() - t0;
  S.perf.lastRenderMs = ms;
  S.perf.maxRenderMs = Math.max(S.perf.maxRenderMs, ms);
  S.perf.renders++;
}

function renderAll() {
  const tick = upto();
  renderClock(tick);
  const status = nodeStatus();
  renderStack(status);
  if (S.graphMode) drawGraph(status); else renderTree(status);
  renderWhy(status);
  renderRobotState();
  drawChart(); // first: its height decides the timeline's
  drawPlot();
  renderTimeline(tick);
  renderIntents(tick);
  renderResources(tick);
  renderBreakpoints();
}

function renderClock(tick) {
  const c = $("clock");
  const hit = $("hit");
  if (S.mode === "replay") {
    const ms = tickMs(tick);
    c.textContent = `tick ${tick} · ${fmtMs(ms)} of ${fmtMs(tickMs(S.maxTick))}`;
    $("slidertime").textContent = fmtMs(ms);
    hit.hidden = true;
  } else if (S.live) {
    c.textContent = S.live.tick === null || S.live.tick === undefined
      ? "no tick yet" : `tick ${S.live.tick} · ${fmtMs(S.live.t_ms)}`;
    const b = $("mode");
    b.textContent = S.live.paused ? "paused" : "live";
    b.className = "badge " + (S.live.paused ? "paused" : "live");
    $("pause").disabled = S.live.paused || !S.commands;
    $("resume").disabled = !S.live.paused || !S.commands;
    $("step").disabled = !S.commands;
    const h = S.live.hit;
    hit.hidden = !h;
    if (h) {
      hit.textContent = `paused on breakpoint ${h.breakpoint} at tick ${h.tick}: ${h.what}`;
      hit.dataset.tick = h.tick;
      hit.dataset.breakpoint = h.breakpoint;
    }
  }
}

function renderStack(status) {
  const box = $("stack");
  const frames = status.filter((s) => s.state === "active")
    .sort((a, b) => a.stack_position - b.stack_position);
  const names = frames.map((f) => S.tree.nodes[f.index].name);
  box.dataset.stack = names.join(" > ");
  box.textContent = "";
  if (!names.length) { box.append(el("span", "empty", "empty stack")); return; }
  frames.forEach((f, k) => {
    if (k) box.append(el("span", "sep", "›"));
    const label = f.debug_state ? `${names[k]} (${f.debug_state})` : names[k];
    const fr = el("span", "frame", label);
    fr.dataset.name = names[k];
    fr.title = "show it in the tree";
    fr.onclick = () => { S.treeFollow = true; S.revealed = null; reveal(f.index); };
    box.append(fr);
  });
}

/// Scrolls the tree (only the tree) so that the row of behavior `i` is in view; in the graph,
/// centres it.
function reveal(i) {
  if (S.graphMode) { centreGraphOn(i); return; }
  const name = S.tree.nodes[i].name;
  const box = $("tree");
  const row = box.querySelector(`.node.active[data-name="${CSS.escape(name)}"]`) ||
    box.querySelector(`.node[data-name="${CSS.escape(name)}"]`);
  if (!row) return;
  const top = row.offsetTop, bottom = top + row.offsetHeight;
  if (top < box.scrollTop || bottom > box.scrollTop + box.clientHeight) {
    box.scrollTop = Math.max(0, top - box.clientHeight / 3);
  }
}

let treeKey = null, whyKey = null, stateKey = null, breakKey = null;
const MAX_ROWS = 1500;

/// The state each behavior runs for, per state machine child: index -> ["Observing", ...].
function stateRoles() {
  const roles = new Map();
  for (const n of S.tree.nodes) {
    for (const st of n.states || []) {
      if (st.behavior === undefined || st.behavior === null) continue;
      if (!roles.has(st.behavior)) roles.set(st.behavior, []);
      roles.get(st.behavior).push(st.name);
    }
  }
  return roles;
}

// ----- search ---------------------------------------------------------------------------------

/// Every text a person may look for in a behavior: its name, class, intents, conditions.
function searchText(n, i) {
  const parts = [n.name, n.class, (n.responds_to || []).join(" "), n.wants_condition || "",
    n.cancel_condition || "", (n.states || []).map((s) => s.name).join(" ")];
  for (const c of S.flat[i] || []) parts.push(c.label, c.type, c.detail);
  return parts.join("\n").toLowerCase();
}

function runSearch() {
  const q = S.search.trim().toLowerCase();
  S.matches = [];
  if (q && S.tree) {
    S.tree.nodes.forEach((n, i) => { if (searchText(n, i).includes(q)) S.matches.push(i); });
  }
  S.matchSet = new Set(S.matches);
  if (S.matchPos >= S.matches.length) S.matchPos = -1;
  const count = $("searchcount");
  count.textContent = q ? `${S.matches.length} match${S.matches.length === 1 ? "" : "es"}` : "";
  count.dataset.count = String(S.matches.length);
  treeKey = null;
  S.graphDirty = true;
}

/// The path of behaviors from the base to `i` (through the first parent met, depth first, in
/// declared order).
function pathTo(i) {
  const parent = new Map();
  const seen = new Set([S.tree.base]);
  const todo = [S.tree.base];
  while (todo.length) {
    const p = todo.shift();
    if (p === i) break;
    for (const d of S.tree.nodes[p].delegates) if (!seen.has(d)) { seen.add(d); parent.set(d, p); todo.push(d); }
  }
  if (!seen.has(i)) return null;
  const path = [i];
  let x = i;
  while (parent.has(x)) { x = parent.get(x); path.unshift(x); }
  return path;
}

/// The next match: opened in the tree (each branch on its path), selected, shown.
function nextMatch(back) {
  if (!S.matches.length) return;
  const n = S.matches.length;
  S.matchPos = back ? (S.matchPos - 1 + n) % n : (S.matchPos + 1) % n;
  const i = S.matches[S.matchPos];
  const path = pathTo(i);
  if (path) {
    let key = "";
    for (const p of path.slice(0, -1)) { key += "/" + p; S.collapsed.delete(key); S.collapsed.add("+" + key); }
  }
  S.selected = i;
  S.treeFollow = false;
  treeKey = null;
  watch();
  render();
  reveal(i);
}

// ----- the tree as a list -----------------------------------------------------------------------

function renderTree(status) {
  const key = JSON.stringify([status, S.selected, [...S.collapsed], S.commands, S.matches, S.matchPos]);
  if (key === treeKey) return;
  treeKey = key;
  const box = $("tree");
  const scroll = box.scrollTop;
  box.textContent = "";
  const big = S.tree.nodes.length > 80;
  box.classList.toggle("big", big);
  if (!S.roles) S.roles = stateRoles();
  const current = S.matchPos >= 0 ? S.matches[S.matchPos] : null;
  // A behavior with several parents shows its children once: on the stack's path when it is
  // on the stack, else where it is met first; elsewhere it is a "shared" row (click ▸ to
  // open it there too). The tree never renders more than MAX_ROWS rows.
  const stackPath = new Set();
  const onStack = new Set();
  {
    let k = "";
    for (const f of status.filter((s) => s.state === "active").sort((a, b) => a.stack_position - b.stack_position)) {
      k += "/" + f.index; stackPath.add(k); onStack.add(f.index);
    }
  }
  const opened = new Set();
  let rows = 0, cut = 0;
  const walk = (i, path, depth, parent) => {
    if (rows >= MAX_ROWS) { cut++; return; }
    rows++;
    const node = S.tree.nodes[i];
    const st = status[i] || { state: "out_of_scope" };
    const key = path + "/" + i;
    const row = el("div", "node " + st.state);
    if (st.cooldown_ms) row.classList.add("cooling");
    if (node.stand_in) row.classList.add("standin");
    if (S.selected === i) row.classList.add("sel");
    if (S.matchSet && S.matchSet.has(i)) row.classList.add("match");
    if (current === i) row.classList.add("current-match");
    row.dataset.name = node.name;
    row.dataset.state = st.state;
    row.dataset.wants = st.wants_to_run ? "1" : "0";
    row.dataset.index = String(i);
    const hasKids = node.delegates.length > 0;
    const elsewhere = opened.has(i) || (onStack.has(i) && !stackPath.has(key));
    const shared = hasKids && elsewhere && !S.collapsed.has("+" + key);
    const collapsed = shared || S.collapsed.has(key) ||
      (big && !S.collapsed.has("+" + key) && st.state === "out_of_scope" && depth > 0);
    const caret = el("span", "caret", hasKids ? (collapsed ? "▸" : "▾") : "");
    caret.onclick = (ev) => {
      ev.stopPropagation();
      if (collapsed) { S.collapsed.delete(key); S.collapsed.add("+" + key); }
      else { S.collapsed.add(key); S.collapsed.delete("+" + key); }
      schedule();
    };
    row.append(caret);
    if (st.wants_to_run && st.state !== "active") row.append(el("span", "dot"));
    row.append(el("span", "name", node.name));
    row.append(el("span", "class", node.class));
    for (const role of S.roles.get(i) || []) row.append(el("span", "pill role", `state ${role}`));
    if (st.stack_position !== undefined && st.stack_position !== null) row.append(el("span", "pill pos", `#${st.stack_position}`));
    if (st.debug_state) row.append(el("span", "pill st", st.state === "active" ? st.debug_state : `${st.debug_state} (held)`));
    if (st.action) row.append(el("span", "pill act", `▶ ${st.action}`));
    if (st.cooldown_ms) row.append(el("span", "pill cool", st.cooldown_ms >= FOREVER_MS ? "cooldown ∞" : `cooldown ${(st.cooldown_ms / 1000).toFixed(1)} s`));
    if (st.active_ms !== undefined && st.active_ms !== null) {
      const bar = el("span", "bar");
      bar.style.width = Math.min(60, 4 + st.active_ms / 200) + "px";
      bar.title = `active for ${(st.active_ms / 1000).toFixed(2)} s`;
      row.append(bar);
    }
    if (node.stand_in) row.append(el("span", "pill standin", "stand-in"));
    if (shared) row.append(el("span", "pill", "shared: children shown elsewhere"));
    row.title = nodeTitle(node, st);
    if (S.commands && i !== S.tree.base) {
      const f = el("button", "force", "force");
      f.type = "button";
      f.title = `Force ${node.name} to run now`;
      f.onclick = (ev) => { ev.stopPropagation(); send({ cmd: "force", behavior: node.name, runs: 1 }); };
      row.append(f);
    }
    row.onclick = () => select(S.selected === i ? null : i);
    parent.append(row);
    if (hasKids && !collapsed && depth < 64 && !path.split("/").includes(String(i))) {
      opened.add(i);
      const kids = el("div", "children");
      kids.dataset.parent = node.name;
      for (const d of node.delegates) walk(d, key, depth + 1, kids);
      parent.append(kids);
    }
  };
  walk(S.tree.base, "", 0, box);
  if (cut) box.append(el("div", "empty", `${cut} more rows not shown: collapse a branch`));
  box.dataset.rows = String(rows);
  box.scrollTop = scroll;
  // The tree follows the top of the stack (when it changes) until the person scrolls it;
  // clicking a frame of the stack above shows that one and follows again.
  const top = status.filter((s) => s.state === "active").sort((a, b) => b.stack_position - a.stack_position)[0];
  if (S.treeFollow !== false && top && top.index !== S.revealed) {
    S.revealed = top.index;
    reveal(top.index);
  }
}

/// Selects behavior `i` (null: none): the why panel explains it and its children.
function select(i) {
  S.selected = i;
  watch();
  schedule();
}

/// A behavior's row tooltip: its class, what it answered last, what the runner keeps.
function nodeTitle(node, st) {
  const lines = [`${node.name} (${node.class}${node.stand_in ? ", stand-in: simulated" : ""})`];
  lines.push(st.state.replace(/_/g, " "));
  if (st.wants) lines.push("said it wants to run on the last tick");
  else if (st.wanted_tick !== undefined && st.wanted_tick !== null) lines.push(`last said it wants to run at tick ${st.wanted_tick}`);
  if (st.remembered !== undefined && st.remembered !== null) lines.push(`kept answer (reused until an input changes): ${st.remembered ? "wants to run" : "does not"}`);
  if (node.responds_to && node.responds_to.length) lines.push(`respondToUserIntents [${node.responds_to.join(", ")}]`);
  if (node.wants_condition) lines.push(`wantsToBeActivatedCondition ${node.wants_condition}`);
  if (node.cancel_condition) lines.push(`wantsToCancelSelfCondition ${node.cancel_condition}`);
  if (node.states && node.states.length) lines.push(`states: ${node.states.map((x) => x.name).join(", ")}`);
  return lines.join("\n");
}

// ----- why --------------------------------------------------------------------------------------

function checkList(checks) {
  const ul = el("ul", "checks");
  for (const c of checks) {
    const li = el("li", c.holds === true ? "ok" : c.holds === false ? "ko" : "unk");
    li.append(document.createTextNode(c.label));
    if (c.value) { li.append(document.createTextNode(" — ")); li.append(el("span", "val", c.value)); }
    if (c.children && c.children.length) li.append(checkList(c.children));
    ul.append(li);
  }
  return ul;
}

/// A value of a condition: never evaluated, on this tick, or kept since (live) / since a tick
/// (a trace records a change of value with its tick).
function valueText(v) {
  if (v === null || v === undefined) return ["never evaluated", null];
  if (v.length === 1) return [`${v[0]} on this tick`, v[0]];
  return [S.mode === "replay" ? `${v[0]} since tick ${v[1]}` : `${v[0]} at tick ${v[1]}, kept since`, v[0]];
}

/// The conditions of behavior `i` with the values of its why record, as checks (nested as the
/// conditions are). Values the record does not have (a class's own conditions of a behavior
/// the page does not look at) say so.
function conditionChecks(i, w) {
  const flat = S.flat[i] || [];
  const values = (w && w.values) || [];
  const top = [];
  const stack = [];
  flat.forEach((c, k) => {
    const name = [c.label, c.type + (c.detail ? " " + c.detail : "")].filter(Boolean).join(": ");
    let value, holds;
    if (k < values.length) [value, holds] = valueText(values[k]);
    else { value = "select it to see this one's value"; holds = null; }
    const check = { label: name, value, holds, children: [], top: c.top, depth: c.depth, raw: c };
    stack.length = c.depth;
    if (c.depth === 0) top.push(check); else if (stack[c.depth - 1]) stack[c.depth - 1].children.push(check);
    stack[c.depth] = check;
  });
  return top;
}

function verdict(st, node, w) {
  if (!st || st.state === "out_of_scope") return ["no", "out of scope"];
  if (st.state === "active") return ["runs", "running"];
  // A trace without `why` events does not say whether a behavior in scope wanted to run.
  if (S.mode === "replay" && !shownState()) return ["wants", "in scope"];
  if (st.cooldown_ms) return ["cool", "cooling down"];
  if (st.wants_to_run) return ["wants", "wants to run"];
  if (node && node.stand_in && !(node.responds_to || []).length && !node.wants_condition) return ["no", "stand-in: does not want to run"];
  return ["no", "does not want to run"];
}

/// What one behavior's why record says, as checks: its gates, its intents, its conditions (a
/// state machine's transitions out of its current state first).
function whyChecks(i, w, node, st) {
  const checks = [];
  for (const g of (w && w.closed) || []) checks.push({ label: `gate ${g}`, value: "closed in the current robot state", holds: false });
  if (w && w.intent_pending !== undefined && w.intent_pending !== null) {
    checks.push({ label: `respondToUserIntents [${(node.responds_to || []).join(", ")}]`,
      value: w.intent_pending ? "a listed intent is pending" : "none of them is pending", holds: w.intent_pending });
  }
  if (st && st.state === "in_scope") {
    const kept = st.remembered !== undefined && st.remembered !== null;
    const last = st.wanted_tick !== undefined && st.wanted_tick !== null ? `last yes at tick ${st.wanted_tick}` : "never yes";
    const value = st.wants ? "yes, on the last tick"
      : kept ? `${st.remembered ? "yes" : "no"}, kept until an input it reads changes (${last})`
      : `not asked on the last tick (${last})`;
    checks.push({ label: "wants to run", holds: st.wants_to_run, value });
  }
  if (st && st.cooldown_ms) checks.push({ label: "not cooling down",
    value: st.cooldown_ms >= FOREVER_MS ? "cooling down for good" : `${(st.cooldown_ms / 1000).toFixed(1)} s left`, holds: false });
  const conds = conditionChecks(i, w);
  const cur = st && st.debug_state;
  if (cur) {
    const mine = (c) => c.raw.label.startsWith(cur + " -> ");
    const now = conds.filter(mine), rest = conds.filter((c) => !mine(c) && / -> /.test(c.raw.label));
    const plain = conds.filter((c) => !mine(c) && !/ -> /.test(c.raw.label));
    for (const c of plain) checks.push(c);
    for (const c of now) checks.push(c);
    if (rest.length) checks.push({ label: `transitions of the other ${plural(node.states ? node.states.length - 1 : 0, "state")}`,
      value: `${rest.length} (not evaluated in this state)`, holds: null, children: [] });
  } else {
    for (const c of conds) checks.push(c);
  }
  if (!checks.length) checks.push({ label: "no gate closed, no condition", value: "its class decides", holds: null });
  return checks;
}

function activeDispatcher(status) {
  const frames = status.filter((s) => s.state === "active").sort((a, b) => b.stack_position - a.stack_position);
  for (const f of frames) if (S.tree.nodes[f.index].delegates.length) return f.index;
  return null;
}

function renderWhy(status) {
  const shown = shownState();
  const key = JSON.stringify([status, S.selected, shown ? [[...shown.why.values()], shown.dispatcher, shown.tick] : null]);
  if (key === whyKey) return;
  whyKey = key;
  const box = $("why");
  box.textContent = "";
  const dispatcher = shown && shown.dispatcher !== undefined && shown.dispatcher !== null ? shown.dispatcher : activeDispatcher(status);
  const target = S.selected !== null ? S.selected : dispatcher;
  if (target === undefined || target === null) { box.append(el("div", "empty", "nothing is running")); $("whytitle").textContent = ""; return; }
  const node = S.tree.nodes[target];
  const why = shown ? shown.why : new Map();
  $("whytitle").textContent = node.delegates.length
    ? `children of ${node.name} (${node.class})${S.selected === null ? ", the active dispatcher" : ""}`
    : `${node.name} (${node.class})`;
  box.dataset.target = node.name;
  if (!shown) {
    box.append(el("div", "empty", "This trace records what happened, not why: record it with --trace-why for each behavior's state and the conditions' values at any tick. Scope and stack below are rebuilt from its stack."));
  }
  const own = why.get(target);
  if (own && node.delegates.length && ((S.flat[target] || []).length || (node.states || []).length)) {
    const c = el("div", "child own");
    c.dataset.name = node.name;
    const st = status[target];
    const head = el("div", "head", `${node.name}: its own conditions`);
    if (node.states && node.states.length && st && st.debug_state) head.append(el("span", "pill st", `state ${st.debug_state}`));
    c.append(head);
    c.append(checkList(whyChecks(target, own, node, st)));
    box.append(c);
  }
  const list = node.delegates.length ? node.delegates : [target];
  for (const i of list) {
    const n = S.tree.nodes[i];
    const st = status[i];
    const w = why.get(i);
    const [cls, word] = verdict(st, n, w);
    const c = el("div", "child");
    c.dataset.name = n.name;
    c.dataset.verdict = word;
    const head = el("div", "head");
    head.append(el("span", "", n.name));
    head.append(el("span", "class hint", n.class));
    if (n.stand_in) head.append(el("span", "pill standin", "stand-in"));
    for (const role of (S.roles && S.roles.get(i)) || []) head.append(el("span", "pill role", `state ${role}`));
    head.append(el("span", "verdict " + cls, word));
    c.append(head);
    if (w) {
      c.append(checkList(whyChecks(i, w, n, st)));
    } else if (shown) {
      const rest = [];
      if (n.responds_to && n.responds_to.length) rest.push(`respondToUserIntents [${n.responds_to.join(", ")}]`);
      if (n.wants_condition) rest.push(`wantsToBeActivatedCondition ${n.wants_condition}`);
      c.append(checkList(rest.map((x) => ({ label: x, holds: null, value: "select its parent to see its last values" }))));
    }
    box.append(c);
  }
}

// ----- the robot state and its plots -----------------------------------------------------------

const PLOT_COLORS = ["#1c7ed6", "#e67700", "#2f9e44", "#9c36b5", "#d6336c", "#0c8599"];

function keyValueText(v) {
  if (v === null || v === undefined) return "none";
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : v.toFixed(3);
  return String(v);
}

function renderRobotState() {
  const box = $("robotstate");
  const shown = shownState();
  const key = JSON.stringify([shown ? [...shown.robot.entries()] : null, [...S.plotted], upto()]);
  if (key === stateKey) return;
  stateKey = key;
  box.textContent = "";
  if (!S.stateKeys.length) { box.append(el("div", "empty", "no robot-state keys (a trace recorded without --trace-why)")); return; }
  if (!shown) { box.append(el("div", "empty", "this trace does not record the robot state: record it with --trace-why")); return; }
  const now = upto();
  // The keys the conditions read first (most read first), then the rest.
  const order = S.stateKeys.map((k, i) => i).sort((a, b) => (S.stateKeys[b].read_by || 0) - (S.stateKeys[a].read_by || 0) || a - b);
  for (const k of order) {
    const meta = S.stateKeys[k];
    const r = shown.robot.get(k);
    const line = el("div", "skey");
    line.dataset.key = meta.name;
    if (!meta.read_by) line.classList.add("unread");
    if (meta.numeric) line.classList.add("numeric");
    if (S.plotted.has(k)) {
      line.classList.add("plotted");
      line.style.setProperty("--sc", PLOT_COLORS[[...S.plotted].indexOf(k) % PLOT_COLORS.length]);
    }
    const name = el("span", "sk", meta.name);
    name.title = meta.read_by ? `read by ${plural(meta.read_by, "condition")}` : "no condition of this tree reads it";
    line.append(name);
    const v = el("span", "sv", r ? keyValueText(r.value) : "–");
    line.dataset.value = r ? JSON.stringify(r.value) : "";
    if (meta.numeric) {
      v.title = S.plotted.has(k) ? "click: stop plotting it" : "click: plot it";
      v.onclick = () => { if (S.plotted.has(k)) S.plotted.delete(k); else S.plotted.add(k); schedule(); };
    }
    line.append(v);
    const changed = r && r.tick !== null && r.tick !== undefined ? r.tick : null;
    line.dataset.changed = changed === null ? "" : String(changed);
    if (changed !== null && now - changed <= S.tps) line.classList.add("fresh");
    line.append(el("span", "st", changed === null ? "unchanged" : `changed at tick ${changed}`));
    box.append(line);
  }
}

/// The series a plot draws: live, what the changes brought; replay, the trace's `why` events
/// up to the slider.
function plotSeries(k) {
  if (S.mode === "live") return S.series.get(k) || [];
  const pts = [];
  for (const e of S.whyEvents) {
    if (e.tick > S.replayTick) break;
    for (const r of e.robot || []) {
      if (r[0] !== k) continue;
      const t = tickMs(r[2] === null || r[2] === undefined ? e.tick : r[2]);
      pts.push([t, typeof r[1] === "number" ? r[1] : null]);
    }
  }
  return pts;
}

function drawPlot() {
  const canvas = $("plot");
  const keys = [...S.plotted];
  canvas.dataset.series = keys.map((k) => S.stateKeys[k].name).join(",");
  $("plotkeys").textContent = keys.length ? keys.map((k) => S.stateKeys[k].name).join(" · ") : "click a number in the robot state to plot it";
  const dpr = window.devicePixelRatio || 1;
  const W = canvas.clientWidth, H = canvas.clientHeight;
  if (!W || !H) return;
  if (canvas.width !== Math.round(W * dpr) || canvas.height !== Math.round(H * dpr)) {
    canvas.width = Math.round(W * dpr); canvas.height = Math.round(H * dpr);
  }
  const g = canvas.getContext("2d");
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  g.clearRect(0, 0, W, H);
  const { t0, t1 } = viewRange();
  const x = (t) => GUTTER + (t - t0) / (t1 - t0) * (W - GUTTER - 8);
  g.font = "11px system-ui, sans-serif";
  if (!keys.length) {
    g.fillStyle = "#6b7483";
    g.fillText("no key plotted", GUTTER, H / 2);
    return;
  }
  const end = S.mode === "replay" ? tickMs(S.replayTick) : S.nowMs;
  const all = keys.map((k) => [k, plotSeries(k)]);
  let lo = Infinity, hi = -Infinity;
  for (const [, pts] of all) for (const [, v] of pts) if (v !== null) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
  if (lo === Infinity) { lo = 0; hi = 1; }
  if (hi === lo) { hi += 1; lo -= 1; }
  const y = (v) => 8 + (1 - (v - lo) / (hi - lo)) * (H - 24);
  g.strokeStyle = "#e2e5ea"; g.fillStyle = "#6b7483";
  for (const v of [lo, (lo + hi) / 2, hi]) {
    g.beginPath(); g.moveTo(GUTTER, y(v)); g.lineTo(W, y(v)); g.stroke();
    g.fillText(Number.isInteger(v) ? String(v) : v.toFixed(2), GUTTER - 44, y(v) + 4);
  }
  all.forEach(([k, pts], j) => {
    const color = PLOT_COLORS[j % PLOT_COLORS.length];
    g.fillStyle = color;
    g.fillText(S.stateKeys[k].name.slice(0, 18), 6, 14 + j * 13);
    g.strokeStyle = color; g.lineWidth = 2;
    g.beginPath();
    let started = false, last = null;
    for (const [t, v] of pts) {
      if (v === null) { started = false; last = null; continue; }
      const px = x(t), py = y(v);
      if (!started) { g.moveTo(px, py); started = true; } else { g.lineTo(px, y(last)); g.lineTo(px, py); }
      last = v;
    }
    if (started && last !== null) g.lineTo(x(end), y(last));
    g.stroke(); g.lineWidth = 1;
  });
}

// ----- breakpoints ------------------------------------------------------------------------------

function renderBreakpoints() {
  const shown = S.mode === "live" && S.live ? S.live : null;
  const list = shown ? shown.breakpoints || [] : [];
  const hit = shown ? shown.hit : null;
  const key = JSON.stringify([list, hit, S.commands]);
  if (key === breakKey) return;
  breakKey = key;
  const box = $("breaklist");
  box.textContent = "";
  if (S.mode !== "live") { box.append(el("div", "empty", "breakpoints pause a live robot")); return; }
  if (!list.length) box.append(el("div", "empty", "none: the robot runs on"));
  for (const b of list) {
    const line = el("div", "brk");
    line.dataset.id = String(b.id);
    if (hit && hit.breakpoint === b.id) line.classList.add("hit");
    line.append(el("span", "bt", `#${b.id} ${b.on}${b.target ? " " + b.target : " (any)"}`));
    line.append(el("span", "hint", plural(b.hits, "hit")));
    const rm = el("button", "", "remove");
    rm.type = "button";
    rm.disabled = !S.commands;
    rm.onclick = () => send({ cmd: "unbreak", breakpoint: b.id });
    line.append(rm);
    box.append(line);
  }
}

/// The breakpoint form's choices follow its kind: behaviors, intents or resources; for a
/// condition, the conditions of the behavior named.
function fillBreakForm() {
  const on = $("break-on").value;
  const dl = $("break-targets");
  dl.textContent = "";
  const opts = on === "activation" || on === "condition" ? S.tree.nodes.map((n) => n.name)
    : on === "preemption" ? resourceBoard(Infinity).known
    : (S.catalog ? S.catalog.user_intents.map((u) => u.type) : []);
  for (const o of opts) option(dl, o);
  $("break-target").placeholder = on === "condition" ? "behavior" : "any";
  const condSel = $("break-condition");
  condSel.hidden = on !== "condition";
  condSel.textContent = "";
  if (on === "condition") {
    const i = S.nameIndex.get($("break-target").value.trim());
    const labels = i === undefined ? [] : [...new Set((S.flat[i] || []).filter((c) => c.depth === 0).map((c) => c.label))];
    for (const l of labels) option(condSel, l);
    if (!labels.length) option(condSel, "", i === undefined ? "name a behavior first" : "it has no condition");
  }
}

function addBreakpoint() {
  const on = $("break-on").value;
  const target = $("break-target").value.trim();
  const cmd = { cmd: "break", on };
  if (on === "activation" || on === "condition") { if (target) cmd.behavior = target; }
  else if (on === "pending" || on === "unclaimed") { if (target) cmd.intent = target; }
  else if (target) cmd.resource = target;
  if (on === "condition") cmd.condition = $("break-condition").value;
  send(cmd);
}

// ----- the timeline -----------------------------------------------------------------------------

const FILTERS = ["input", "intent", "behavior", "action", "resource", "problem", "note"];
const ROWS = 2000;

function row(e, prevTick) {
  const cat = category(e);
  const r = el("div", `row c-${cat} ${cat}`);
  r.dataset.tick = e.tick;
  const same = prevTick === e.tick;
  r.append(el("span", "t", same ? "" : fmtMs(e.t_ms)));
  r.append(el("span", "k", same ? "" : e.tick));
  r.append(el("span", "cat " + cat, cat));
  r.append(el("span", "x", text(e)));
  return r;
}

// The text timeline sticks to its end unless the person scrolled up (our own scrolling, and
// the layout changing under it, do not count).
let stick = true, ownScroll = false;

function renderTimeline(tick) {
  const box = $("timeline");
  if (S.mode === "replay") {
    // Rows up to the slider's tick (the last ROWS of them).
    let end = 0;
    while (end < S.entries.length && S.entries[end].tick <= tick) end++;
    const start = Math.max(0, end - ROWS);
    if (S.rendered === end && box.dataset.start === String(start)) return;
    box.textContent = "";
    box.dataset.start = String(start);
    let prev = null;
    for (let k = start; k < end; k++) { box.append(row(S.entries[k], prev)); prev = S.entries[k].tick; }
    const last = box.lastElementChild;
    if (last) { last.classList.add("cur"); last.scrollIntoView({ block: "end" }); }
    S.rendered = end;
    return;
  }
  // Live: the entries up to the tick the header shows (later ones wait for their state).
  let prev = S.rendered > 0 ? S.entries[S.rendered - 1].tick : null;
  let k = S.rendered;
  for (; k < S.entries.length && S.entries[k].tick <= tick; k++) {
    box.append(row(S.entries[k], prev));
    prev = S.entries[k].tick;
  }
  S.rendered = k;
  box.dataset.tick = String(tick);
  while (box.childElementCount > ROWS) box.firstElementChild.remove();
  const hit = S.live && S.live.hit;
  if (hit && box.dataset.hit !== String(hit.tick)) {
    box.dataset.hit = String(hit.tick);
    for (const r of box.querySelectorAll(`.row[data-tick="${hit.tick}"]`)) r.classList.add("hit");
  }
  if (stick && box.scrollTop !== box.scrollHeight - box.clientHeight) {
    ownScroll = true;
    box.scrollTop = box.scrollHeight;
  }
}


// ----- intents and resources, from the timeline ---------------------------------------------

function intentRecords(tick) {
  const recs = [];
  let lastInput = null, inputRec = null;
  const open = (intent, outcome) => {
    for (let k = recs.length - 1; k >= 0; k--) {
      if (recs[k].intent === intent && recs[k].outcome === outcome) return recs[k];
    }
    return null;
  };
  const key = (e) => `${e.tick}:${e.intent}:${recs.length}`;
  for (const e of S.entries) {
    if (e.tick > tick) break;
    switch (e.event) {
      case "input":
        lastInput = e;
        // An HRI intent (scenario, Zenoh or the ROS graph) is a record of its own until it
        // becomes a pending user intent; one the mission controller takes stays one.
        inputRec = null;
        if (e.kind === "hri" || e.kind === "ros2") {
          inputRec = { key: `${e.tick}:in:${recs.length}`, tick: e.tick, t: e.t_ms, intent: hriName(e.detail),
            input: e.kind, line: e.line, text: e.detail, said: e.say, outcome: "to the mission controller", detail: "" };
          recs.push(inputRec);
        }
        break;
      case "pending": {
        const m = e.meta || {};
        const r = { key: key(e), tick: e.tick, t: e.t_ms, intent: e.intent, payload: e.payload,
          origin: e.source, via: e.via, meta: e.meta ? m : null, input: m.input, text: m.text, said: m.said,
          line: lastInput && lastInput.tick === e.tick ? lastInput.line : null,
          map_entry: m.map_entry, outcome: "pending", detail: "" };
        if (inputRec && inputRec.tick === e.tick && (m.input === "hri" || m.input === "ros2")) {
          recs.splice(recs.indexOf(inputRec), 1);
          r.key = inputRec.key;
        }
        inputRec = null;
        recs.push(r);
        break;
      }
      case "replaced": { const r = open(e.old, "pending"); if (r) { r.outcome = "replaced"; r.detail = `by ${e.new}`; } break; }
      case "claimed": {
        let r = open(e.intent, "pending");
        if (!r) { r = { key: key(e), tick: e.tick, t: e.t_ms, intent: e.intent, origin: "", via: "" }; recs.push(r); }
        r.outcome = "claimed";
        r.detail = `by ${e.behavior}` + (e.latency_ticks !== undefined && e.latency_ticks !== null ? ` after ${plural(e.latency_ticks, "tick")}` : "");
        r.claimedBy = e.behavior;
        break;
      }
      case "released": { const r = open(e.intent, "claimed"); if (r && !r.ended) r.ended = e.reason; break; }
      case "unclaimed": { const r = open(e.intent, "pending"); if (r) { r.outcome = "unclaimed"; r.detail = "nobody claimed it"; } break; }
      case "dropped": { const r = open(e.intent, "pending"); if (r) { r.outcome = "dropped"; r.detail = "on request"; } break; }
      case "input_ignored": {
        const m = /^(\S+) dropped: a higher-priority intent is pending$/.exec(e.reason);
        if (m) { const r = open(m[1], "pending"); if (r) { r.outcome = "dropped"; r.detail = "a higher-priority intent was pending"; } }
        else if (inputRec && inputRec.tick === e.tick && inputRec.outcome === "to the mission controller") {
          inputRec.outcome = "ignored"; inputRec.detail = e.reason;
        }
        break;
      }
      case "not_understood":
        if (inputRec && inputRec.tick === e.tick) { recs.splice(recs.indexOf(inputRec), 1); inputRec = null; }
        recs.push({ key: key(e), tick: e.tick, t: e.t_ms, intent: e.intent, origin: "", via: "",
          input: lastInput && lastInput.tick === e.tick ? lastInput.kind : null,
          text: lastInput && lastInput.tick === e.tick ? lastInput.detail : null,
          outcome: "not understood", detail: e.error });
        break;
    }
  }
  return recs;
}

/// The intent of an HRI input line (`__intent_move_to__ {...} from ...`): its first word.
function hriName(detail) { return (detail || "").split(/\s/)[0] || "(no intent)"; }

function resourceBoard(tick) {
  const holders = new Map();
  const known = [];
  const events = [];
  for (const e of S.entries) {
    if (e.tick > tick) break;
    if (e.event === "resource") {
      events.push(e);
      const res = e.resource ? e.resource.split("+") : [];
      for (const r of res) if (!known.includes(r)) known.push(r);
      const h = holders.get(e.holder) || { holder: e.holder, resources: res, status: "waiting", reason: "" };
      h.reason = e.reason || "";
      switch (e.change) {
        case "granted": h.status = "holding"; break;
        case "granted by preemption": h.status = "starting"; break;
        case "queued": h.status = "waiting"; break;
        case "preempted": case "stopping": h.status = "halting"; break;
        case "paused": h.status = "paused"; break;
        case "released": case "force-released": case "cancelled": case "rejected":
          holders.delete(e.holder); continue;
      }
      holders.set(e.holder, h);
    } else if (e.event === "action" && e.behavior.startsWith("mission/")
               && (e.change === "started" || e.change === "resumed")) {
      const cap = e.behavior.slice(8) + " #";
      for (const h of holders.values()) {
        if (h.holder.startsWith(cap) && h.status !== "holding" && h.status !== "halting") h.status = "holding";
      }
    }
  }
  return { holders: [...holders.values()], known, events };
}


function kv(parent, k, v) {
  if (v === undefined || v === null || v === "") return;
  const d = el("div", "kv");
  d.append(el("b", "", k + " "));
  d.append(document.createTextNode(v));
  parent.append(d);
}

function entryText(e) {
  return `${e.table} ${e.intent} → ${e.user_intent}` +
    (e.substitutions && e.substitutions.length ? ` [${e.substitutions.join(", ")}]` : "") +
    (e.feature_gate ? ` (feature ${e.feature_gate})` : "");
}

function metaText(m) {
  if (!m) return null;
  const conf = m.confidence === null || m.confidence === undefined ? "unstated" : Number(m.confidence).toFixed(2);
  return `source ${m.source} · ${m.modality} · priority ${m.priority} · confidence ${conf}`;
}

function inputText(r) {
  if (!r.input) return null;
  const where = r.line === 0 ? "live" : r.line ? `line ${r.line}` : null;
  return `${r.input}${where ? " (" + where + ")" : ""}${r.text ? ": " + r.text : ""}`;
}

function slot(title, cls, it) {
  const s = el("div", "slot " + cls);
  s.dataset.slot = cls;
  s.append(el("h3", "", title));
  if (!it) { s.append(el("div", "empty", "none")); return s; }
  s.classList.add("filled");
  s.dataset.intent = it.intent;
  s.dataset.source = it.meta ? it.meta.source : "";
  s.append(el("div", "tag", it.intent + (it.payload ? " " + it.payload : "")));
  kv(s, "owner", it.owner);
  kv(s, "via", it.origin ? `${it.origin}, ${it.via}` : it.via);
  kv(s, "meta", metaText(it.meta));
  if (it.said) kv(s, "said", `\u201c${it.said}\u201d`);
  kv(s, "input", inputText(it));
  if (it.map_entry) kv(s, "map", entryText(it.map_entry));
  if (it.since_tick !== undefined && S.live && S.live.tick !== null) {
    kv(s, "age", plural(Math.max(0, S.live.tick - it.since_tick), "tick"));
  }
  return s;
}

function renderIntents(tick) {
  const recs = intentRecords(tick);
  const now = $("intentnow");
  now.textContent = "";
  // The record of the intent in a slot (its input, what was said), the latest with its name.
  const recOf = (intent, outcome) => {
    for (let k = recs.length - 1; k >= 0; k--) if (recs[k].intent === intent && (!outcome || recs[k].outcome === outcome)) return recs[k];
    return null;
  };
  if (S.mode === "live" && S.live && S.live.intents) {
    const i = S.live.intents;
    const withRec = (it, outcome) => {
      if (!it) return it;
      const r = recOf(it.intent, outcome) || {};
      return Object.assign({ input: r.input, text: r.text, said: r.said, line: r.line }, it);
    };
    now.append(slot("pending", "pending", withRec(i.pending, "pending")));
    now.append(slot("active", "active", withRec(i.active, "claimed")));
    const flags = el("div", "flags");
    for (const [k, on] of [["trigger word pending", i.trigger_word_pending], ["unclaimed flag", i.unclaimed_flag],
      ["error flag", i.error_flag], ["cloud stream open", i.stream_open], ["claim deadline held", i.deadline_held]]) {
      flags.append(el("span", "flag" + (on ? " on" : ""), k));
    }
    now.append(flags);
  } else {
    const pend = [...recs].reverse().find((r) => r.outcome === "pending");
    const act = [...recs].reverse().find((r) => r.outcome === "claimed" && !r.ended);
    const asSlot = (r) => r && Object.assign({}, r, { owner: r.claimedBy });
    now.append(slot("pending", "pending", asSlot(pend)));
    now.append(slot("active", "active", asSlot(act)));
  }
  const list = $("intent-history");
  list.textContent = "";
  if (!recs.length) list.append(el("div", "empty", "no intent yet"));
  for (const r of recs.slice(-200).reverse()) {
    const d = el("div", "irec");
    d.dataset.intent = r.intent;
    d.dataset.outcome = r.outcome;
    if (r.meta) d.dataset.source = r.meta.source;
    if (r.input) d.dataset.input = r.input;
    const l1 = el("div", "l1");
    l1.append(el("span", "when", fmtMs(r.t)));
    l1.append(el("span", "what", r.intent + (r.payload ? " " + r.payload : "")));
    l1.append(el("span", "oc outcome-" + r.outcome.replace(/ /g, "-"),
      r.outcome + (r.detail ? " " + r.detail : "") + (r.ended ? `; ended (${r.ended})` : "")));
    d.append(l1);
    const info = [r.origin ? `${r.origin}, ${r.via}` : r.via, metaText(r.meta),
      r.said ? `said \u201c${r.said}\u201d` : null, inputText(r),
      r.map_entry ? `map: ${entryText(r.map_entry)}` : null]
      .filter(Boolean).join(" · ");
    if (info) d.append(el("div", "l2", info));
    list.append(d);
  }
}

function renderResources(tick) {
  const b = resourceBoard(tick);
  const box = $("resources");
  box.textContent = "";
  if (!b.known.length) { box.append(el("div", "empty", "no resource requested yet")); return; }
  for (const r of b.known) {
    const line = el("div", "res");
    line.dataset.resource = r;
    line.append(el("span", "rn", r));
    const who = el("span");
    const hs = b.holders.filter((h) => h.resources.includes(r));
    if (!hs.length) who.append(el("span", "empty", "free"));
    for (const h of hs) {
      const chip = el("span", "hold " + h.status, `${h.holder}: ${h.status}`);
      chip.title = h.reason;
      chip.dataset.holder = h.holder;
      chip.dataset.status = h.status;
      who.append(chip);
    }
    line.append(who);
    box.append(line);
  }
  const recent = el("div", "kv");
  recent.style.marginTop = "4px";
  for (const e of b.events.slice(-5).reverse()) {
    const d = el("div", "val", `${fmtMs(e.t_ms)} ${text(e)}`);
    recent.append(d);
  }
  box.append(recent);
}

// ----- the chart ------------------------------------------------------------------------------

const GUTTER = 150, AXIS = 20, LANE = 17, TOP_LANES = 1;
const COLORS = ["#2f9e44", "#1c7ed6", "#e67700", "#9c36b5", "#0c8599", "#d6336c", "#5c940d", "#3b5bdb"];

function chartEnd() {
  const lastMs = S.mode === "replay" ? Math.round(S.maxTick * 1000 / S.tps) : S.nowMs;
  return Math.max(lastMs, 1000);
}

function viewRange() {
  const end = chartEnd();
  if (S.mode === "live" && S.follow) {
    // Following: the last `span` (30 s to start with; the zoom buttons change it).
    const span = S.span || 30000;
    const t1 = Math.max(end, span);
    S.view = { t0: t1 - span, t1 };
  } else if (!S.view) {
    S.view = { t0: 0, t1: end };
  }
  return S.view;
}

function lanesInOrder() {
  // Tree order (depth first from the base) for the behaviors that ever ran.
  const order = [];
  const seen = new Set();
  const walk = (i, depth) => {
    if (seen.has(i) || depth > 64) return;
    seen.add(i);
    const name = S.tree.nodes[i].name;
    if (S.lanes.has(name)) order.push(name);
    for (const d of S.tree.nodes[i].delegates) walk(d, depth + 1);
  };
  walk(S.tree.base, 0);
  for (const n of S.laneOrder) if (!order.includes(n)) order.push(n);
  return order;
}

function drawChart() {
  const canvas = $("chart");
  const lanes = lanesInOrder();
  canvas.dataset.lanes = lanes.join(",");
  const wrap = canvas.parentElement;
  const h = AXIS + (lanes.length + TOP_LANES) * LANE + 8;
  wrap.style.height = Math.max(140, Math.min(S.graphMode ? 260 : 440, h)) + "px";
  const dpr = window.devicePixelRatio || 1;
  const W = canvas.clientWidth, H = canvas.clientHeight;
  if (canvas.width !== Math.round(W * dpr) || canvas.height !== Math.round(H * dpr)) {
    canvas.width = Math.round(W * dpr); canvas.height = Math.round(H * dpr);
  }
  const g = canvas.getContext("2d");
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  g.clearRect(0, 0, W, H);
  const { t0, t1 } = viewRange();
  const x = (t) => GUTTER + (t - t0) / (t1 - t0) * (W - GUTTER - 8);
  S.chartGeom = { x, t0, t1, W, lanes };
  // axis
  g.fillStyle = "#6b7483"; g.strokeStyle = "#e2e5ea"; g.font = "11px system-ui, sans-serif";
  const span = t1 - t0;
  const steps = [100, 200, 500, 1000, 2000, 5000, 10000, 20000, 30000, 60000, 120000, 300000, 600000];
  const step = steps.find((s) => span / s <= (W - GUTTER) / 70) || 1200000;
  for (let t = Math.ceil(t0 / step) * step; t <= t1; t += step) {
    const px = x(t);
    g.beginPath(); g.moveTo(px, AXIS - 4); g.lineTo(px, H); g.stroke();
    g.fillText(step < 1000 ? (t / 1000).toFixed(1) + " s" : Math.round(t / 1000) + " s", px + 2, 11);
  }
  // lane names
  const laneY = (k) => AXIS + (k + TOP_LANES) * LANE;
  g.fillStyle = "#1d2430";
  g.fillText("inputs · claims", 6, AXIS + 12);
  lanes.forEach((name, k) => {
    g.fillStyle = "#1d2430";
    g.fillText(name.length > 22 ? name.slice(0, 21) + "…" : name, 6, laneY(k) + 12);
  });
  g.save();
  g.beginPath(); g.rect(GUTTER, AXIS - 2, W - GUTTER, H); g.clip();
  // markers
  for (const m of S.markers) {
    if (m.t < t0 - 50 || m.t > t1 + 50) continue;
    g.fillStyle = m.kind === "input" ? "#0c8599" : m.kind === "claimed" ? "#2f9e44" : "#e03131";
    const px = x(m.t);
    g.beginPath();
    if (m.kind === "input") { g.moveTo(px, AXIS + 3); g.lineTo(px + 4, AXIS + 13); g.lineTo(px - 4, AXIS + 13); }
    else { g.arc(px, AXIS + 8, 3.5, 0, Math.PI * 2); }
    g.fill();
  }
  // bars
  const end = chartEnd();
  lanes.forEach((name, k) => {
    const col = COLORS[k % COLORS.length];
    for (const iv of S.lanes.get(name)) {
      const a = x(iv.start), b = x(iv.end === null ? end : iv.end);
      if (b < GUTTER || a > W) continue;
      g.fillStyle = col;
      g.globalAlpha = iv.end === null ? 0.95 : 0.75;
      const w = Math.max(2, b - a);
      g.fillRect(a, laneY(k) + 3, w, LANE - 6);
      g.globalAlpha = 1;
      if (iv.labels.length > 1 || stateOf(iv.labels[0].label)) {
        g.fillStyle = "#fff"; g.font = "10px system-ui, sans-serif";
        iv.labels.forEach((l, j) => {
          const la = x(l.t), lb = j + 1 < iv.labels.length ? x(iv.labels[j + 1].t) : b;
          const st = stateOf(l.label);
          if (st && lb - la > 30) g.fillText(st, la + 3, laneY(k) + 12);
          if (j > 0) { g.fillRect(la, laneY(k) + 3, 1, LANE - 6); }
        });
        g.font = "11px system-ui, sans-serif";
      }
    }
  });
  // the replay cursor
  if (S.mode === "replay") {
    const px = x(Math.round(S.replayTick * 1000 / S.tps));
    g.strokeStyle = "#7048e8"; g.lineWidth = 2;
    g.beginPath(); g.moveTo(px, AXIS - 4); g.lineTo(px, H); g.stroke(); g.lineWidth = 1;
  }
  g.restore();
}

function hit(px, py) {
  const G = S.chartGeom;
  if (!G || px < GUTTER) return null;
  const t = G.t0 + (px - GUTTER) / (G.W - GUTTER - 8) * (G.t1 - G.t0);
  const k = Math.floor((py - AXIS) / LANE) - TOP_LANES;
  if (k === -1) {
    let best = null;
    for (const m of S.markers) if (Math.abs(G.x(m.t) - px) <= 5 && (!best || Math.abs(m.t - t) < Math.abs(best.t - t))) best = m;
    return best ? { marker: best } : null;
  }
  const name = G.lanes[k];
  if (!name) return null;
  const end = chartEnd();
  for (const iv of S.lanes.get(name)) {
    const a = G.x(iv.start), b = G.x(iv.end === null ? end : iv.end);
    if (px >= a - 2 && px <= Math.max(b, a + 2) + 2) return { name, iv, t };
  }
  return null;
}

function tooltipText(h) {
  if (h.marker) return `${fmtMs(h.marker.t)}  ${text(h.marker.e)}`;
  const iv = h.iv;
  const end = iv.end === null ? "now" : fmtMs(iv.end);
  const dur = ((iv.end === null ? chartEnd() : iv.end) - iv.start) / 1000;
  const states = iv.labels.map((l) => stateOf(l.label)).filter(Boolean);
  return `${h.name}\nactive ${fmtMs(iv.start)} → ${end} (${dur.toFixed(2)} s)` +
    (states.length ? `\nstates: ${states.join(" → ")}` : "");
}

function setupChart() {
  const canvas = $("chart"), tip = $("tooltip");
  let drag = null;
  canvas.addEventListener("mousemove", (ev) => {
    const r = canvas.getBoundingClientRect();
    const px = ev.clientX - r.left, py = ev.clientY - r.top;
    if (drag) {
      const G = S.chartGeom;
      const dt = (drag.x - px) / (G.W - GUTTER - 8) * (drag.t1 - drag.t0);
      S.view = { t0: Math.max(0, drag.t0 + dt), t1: Math.max(0, drag.t0 + dt) + (drag.t1 - drag.t0) };
      drag.moved = true;
      S.follow = false; $("follow").classList.remove("on");
      schedule();
      return;
    }
    const h = hit(px, py);
    if (!h) { tip.hidden = true; return; }
    tip.textContent = tooltipText(h);
    tip.hidden = false;
    tip.style.left = Math.min(px + 12, canvas.clientWidth - 240) + "px";
    tip.style.top = (py + 14) + "px";
  });
  canvas.addEventListener("mouseleave", () => { tip.hidden = true; drag = null; });
  canvas.addEventListener("mousedown", (ev) => {
    const G = S.chartGeom; if (!G) return;
    drag = { x: ev.clientX - canvas.getBoundingClientRect().left, t0: G.t0, t1: G.t1, moved: false };
  });
  canvas.addEventListener("mouseup", (ev) => {
    const d = drag; drag = null;
    if (d && !d.moved && S.mode === "replay") {
      // A click on the chart moves the replay there.
      const G = S.chartGeom;
      const t = G.t0 + (d.x - GUTTER) / (G.W - GUTTER - 8) * (G.t1 - G.t0);
      if (d.x >= GUTTER) seek(Math.round(t * S.tps / 1000));
    }
  });
  canvas.addEventListener("wheel", (ev) => {
    ev.preventDefault();
    const G = S.chartGeom; if (!G) return;
    const px = ev.clientX - canvas.getBoundingClientRect().left;
    zoom(ev.deltaY > 0 ? 1.25 : 0.8, Math.max(GUTTER, px));
  }, { passive: false });
  $("zoomin").onclick = () => zoom(0.5);
  $("zoomout").onclick = () => zoom(2);
  $("fit").onclick = () => { S.follow = false; $("follow").classList.remove("on"); S.view = { t0: 0, t1: chartEnd() }; schedule(); };
  $("follow").onclick = () => { S.follow = true; $("follow").classList.add("on"); schedule(); };
  window.addEventListener("resize", schedule);
}

function zoom(f, px) {
  const G = S.chartGeom; if (!G) return;
  if (S.follow && S.mode === "live" && px === undefined) {
    S.span = Math.max(1000, Math.min(3.6e6, (S.span || 30000) * f));
    schedule();
    return;
  }
  const at = px === undefined ? (G.t0 + G.t1) / 2 : G.t0 + (px - GUTTER) / (G.W - GUTTER - 8) * (G.t1 - G.t0);
  const span = Math.max(200, Math.min(3.6e6, (G.t1 - G.t0) * f));
  const left = (at - G.t0) / (G.t1 - G.t0);
  const t0 = Math.max(0, at - span * left);
  S.view = { t0, t1: t0 + span };
  if (f < 1 || px !== undefined) { S.follow = false; $("follow").classList.remove("on"); }
  schedule();
}


// ----- the tree as a graph ----------------------------------------------------------------------

const GW = 150, GH = 26, GX = 14, GY = 46;

/// Lays the tree out once: depth first from the base in declared order, each behavior placed
/// where it is met first (a child of several parents gets one box; its other parents get an
/// edge to it), leaves side by side, a parent centred over its children; what the base does
/// not reach goes on a last row.
function layoutGraph() {
  const n = S.tree.nodes.length;
  const pos = new Array(n).fill(null);
  let leaf = 0, maxDepth = 0;
  const place = (root) => {
    // Iterative post-order: (node, depth, next child).
    const stack = [[root, 0, 0]];
    pos[root] = { x: 0, y: 0, depth: 0, kids: [] };
    while (stack.length) {
      const top = stack[stack.length - 1];
      const [i, depth, k] = top;
      const kids = S.tree.nodes[i].delegates;
      if (k < kids.length) {
        top[2]++;
        const d = kids[k];
        if (pos[d] === null && depth < 200) {
          pos[d] = { x: 0, y: 0, depth: depth + 1, kids: [] };
          pos[i].kids.push(d);
          stack.push([d, depth + 1, 0]);
        }
        continue;
      }
      stack.pop();
      const p = pos[i];
      maxDepth = Math.max(maxDepth, depth);
      p.y = depth * (GH + GY);
      if (p.kids.length) {
        const xs = p.kids.map((c) => pos[c].x);
        p.x = (Math.min(...xs) + Math.max(...xs)) / 2;
      } else {
        p.x = leaf * (GW + GX);
        leaf++;
      }
    }
  };
  place(S.tree.base);
  const rest = [];
  for (let i = 0; i < n; i++) if (pos[i] === null) rest.push(i);
  rest.forEach((i, k) => {
    pos[i] = { x: k * (GW + GX), y: (maxDepth + 2) * (GH + GY), depth: maxDepth + 2, kids: [], unreached: true };
  });
  // Edges: every declared delegate (the tree's shape), in order.
  const edges = [];
  S.tree.nodes.forEach((node, i) => node.delegates.forEach((d, k) => edges.push([i, d, k])));
  let w = 0, h = 0;
  for (const p of pos) { w = Math.max(w, p.x + GW); h = Math.max(h, p.y + GH); }
  return { pos, edges, w, h, scale: 1, tx: 20, ty: 20, fitted: false };
}

function graphColors(st, i) {
  if (st.state === "active") return ["#d3f9d8", "#2f9e44", "#1b5e20"];
  if (st.cooldown_ms) return ["#e3fafc", "#15aabf", "#0b7285"];
  if (st.state === "in_scope") return [st.wants_to_run ? "#e7f5ff" : "#ffffff", "#4c6ef5", "#1d2430"];
  return ["#f1f3f5", S.tree.nodes[i].stand_in ? "#ced4da" : "#dee2e6", "#868e96"];
}

function fitGraph() {
  const G = S.graph;
  const c = $("graph");
  const W = c.clientWidth || 400, H = c.clientHeight || 300;
  G.scale = Math.min(2, Math.max(0.002, Math.min((W - 20) / G.w, (H - 20) / G.h)));
  G.tx = (W - G.w * G.scale) / 2;
  G.ty = 10;
  G.fitted = true;
}

function centreGraphOn(i) {
  const G = S.graph;
  if (!G) return;
  const c = $("graph");
  const p = G.pos[i];
  G.scale = Math.max(G.scale, 0.8);
  G.tx = c.clientWidth / 2 - (p.x + GW / 2) * G.scale;
  G.ty = c.clientHeight / 2 - (p.y + GH / 2) * G.scale;
  S.graphDirty = true;
  schedule();
}

let lastGraph = null;

function drawGraph(status) {
  const canvas = $("graph");
  if (!S.graph) S.graph = layoutGraph();
  const G = S.graph;
  const dpr = window.devicePixelRatio || 1;
  const W = canvas.clientWidth, H = canvas.clientHeight;
  if (!W || !H) return;
  if (!G.fitted) fitGraph();
  const key = JSON.stringify([status, S.selected, G.scale, G.tx, G.ty, W, H, S.matchPos, S.graphDirty]);
  if (key === lastGraph) return;
  lastGraph = key;
  S.graphDirty = false;
  if (canvas.width !== Math.round(W * dpr) || canvas.height !== Math.round(H * dpr)) {
    canvas.width = Math.round(W * dpr); canvas.height = Math.round(H * dpr);
  }
  const g = canvas.getContext("2d");
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  g.clearRect(0, 0, W, H);
  g.setTransform(dpr * G.scale, 0, 0, dpr * G.scale, dpr * G.tx, dpr * G.ty);
  // What is on screen, in graph coordinates.
  const vx0 = -G.tx / G.scale, vy0 = -G.ty / G.scale;
  const vx1 = vx0 + W / G.scale, vy1 = vy0 + H / G.scale;
  const visible = (p) => p.x + GW >= vx0 && p.x <= vx1 && p.y + GH >= vy0 && p.y <= vy1;
  // The running path: the stack's edges, in order.
  const frames = status.filter((s) => s.state === "active").sort((a, b) => a.stack_position - b.stack_position).map((s) => s.index);
  const onPath = new Set();
  for (let k = 1; k < frames.length; k++) onPath.add(frames[k - 1] + ">" + frames[k]);
  g.lineWidth = 1 / G.scale;
  for (const [a, b] of G.edges) {
    const pa = G.pos[a], pb = G.pos[b];
    const lit = onPath.has(a + ">" + b);
    if (!lit && !(visible(pa) || visible(pb))) continue;
    const x1 = pa.x + GW / 2, y1 = pa.y + GH, x2 = pb.x + GW / 2, y2 = pb.y;
    const tree = G.pos[a].kids.includes(b);
    g.strokeStyle = lit ? "#2f9e44" : tree ? "#adb5bd" : "#dee2e6";
    g.lineWidth = (lit ? 4 : 1) / Math.max(G.scale, 0.25);
    g.setLineDash(tree || lit ? [] : [4, 4]);
    g.beginPath();
    g.moveTo(x1, y1);
    g.bezierCurveTo(x1, (y1 + y2) / 2, x2, (y1 + y2) / 2, x2, y2);
    g.stroke();
  }
  g.setLineDash([]);
  const labels = G.scale >= 0.35;
  g.font = "12px system-ui, sans-serif";
  g.textBaseline = "middle";
  const current = S.matchPos >= 0 ? S.matches[S.matchPos] : null;
  let drawn = 0;
  S.tree.nodes.forEach((node, i) => {
    const p = G.pos[i];
    if (!visible(p)) return;
    drawn++;
    const st = status[i] || { state: "out_of_scope" };
    const [fill, stroke, ink] = graphColors(st, i);
    g.fillStyle = fill;
    g.strokeStyle = S.selected === i ? "#f08c00" : stroke;
    g.lineWidth = (S.selected === i || st.state === "active" ? 3 : 1) / Math.max(G.scale, 0.25);
    g.setLineDash(st.state === "in_scope" ? [3, 2] : []);
    g.beginPath();
    g.rect(p.x, p.y, GW, GH);
    g.fill(); g.stroke();
    g.setLineDash([]);
    if (S.matchSet && S.matchSet.has(i)) {
      g.fillStyle = current === i ? "#f59f00" : "#ffd43b";
      g.fillRect(p.x, p.y, 6, GH);
    }
    if (st.wants_to_run && st.state !== "active") {
      g.fillStyle = "#1c7ed6";
      g.beginPath(); g.arc(p.x + GW - 8, p.y + 8, 3.5, 0, Math.PI * 2); g.fill();
    }
    if (labels) {
      g.fillStyle = ink;
      const name = node.name.length > 20 ? node.name.slice(0, 19) + "…" : node.name;
      g.fillText(name, p.x + 9, p.y + GH / 2);
    }
  });
  canvas.dataset.view = `${G.scale.toFixed(4)},${Math.round(G.tx)},${Math.round(G.ty)}`;
  canvas.dataset.nodes = String(S.tree.nodes.length);
  canvas.dataset.drawn = String(drawn);
  canvas.dataset.path = frames.map((i) => S.tree.nodes[i].name).join(" > ");
  canvas.dataset.selected = S.selected === null ? "" : S.tree.nodes[S.selected].name;
}

/// The behavior under a point of the canvas (CSS pixels), if any.
function graphHit(px, py) {
  const G = S.graph;
  if (!G) return null;
  const x = (px - G.tx) / G.scale, y = (py - G.ty) / G.scale;
  for (let i = 0; i < G.pos.length; i++) {
    const p = G.pos[i];
    if (x >= p.x && x <= p.x + GW && y >= p.y && y <= p.y + GH) return i;
  }
  return null;
}

function setupGraph() {
  const canvas = $("graph");
  let drag = null;
  canvas.addEventListener("mousedown", (ev) => {
    drag = { x: ev.clientX, y: ev.clientY, tx: S.graph ? S.graph.tx : 0, ty: S.graph ? S.graph.ty : 0, moved: false };
  });
  canvas.addEventListener("mousemove", (ev) => {
    if (!drag || !S.graph) return;
    const dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
    if (drag.moved) { S.graph.tx = drag.tx + dx; S.graph.ty = drag.ty + dy; schedule(); }
  });
  canvas.addEventListener("mouseleave", () => { drag = null; });
  canvas.addEventListener("mouseup", (ev) => {
    const d = drag; drag = null;
    if (!d || d.moved) return;
    const r = canvas.getBoundingClientRect();
    const i = graphHit(ev.clientX - r.left, ev.clientY - r.top);
    // A click to the rendered frame: selected, explained, drawn at once (measured).
    select(i === null || i === S.selected ? null : i);
    render();
    S.perf.clickMs = performance.now() - ev.timeStamp;
    S.perf.clicks++;
  });
  canvas.addEventListener("wheel", (ev) => {
    ev.preventDefault();
    if (!S.graph) return;
    const r = canvas.getBoundingClientRect();
    zoomGraph(ev.deltaY > 0 ? 0.8 : 1.25, ev.clientX - r.left, ev.clientY - r.top);
  }, { passive: false });
  canvas.addEventListener("mousemove", (ev) => {
    if (drag || !S.graph) return;
    const r = canvas.getBoundingClientRect();
    const i = graphHit(ev.clientX - r.left, ev.clientY - r.top);
    canvas.title = i === null ? "" : nodeTitle(S.tree.nodes[i], nodeStatus()[i]);
  });
  const around = (f) => { const c = $("graph"); zoomGraph(f, c.clientWidth / 2, c.clientHeight / 2); };
  $("graph-in").onclick = () => around(1.5);
  $("graph-out").onclick = () => around(1 / 1.5);
  $("graph-fit").onclick = () => { fitGraph(); schedule(); };
  $("graph-stack").onclick = () => {
    const top = nodeStatus().filter((s) => s.state === "active").sort((a, b) => b.stack_position - a.stack_position)[0];
    if (top) centreGraphOn(top.index);
  };
  const mode = (graph) => {
    S.graphMode = graph;
    $("view-graph").classList.toggle("on", graph);
    $("view-list").classList.toggle("on", !graph);
    $("tree").hidden = graph;
    $("graphwrap").hidden = !graph;
    // The graph takes more of the page's width.
    $("grid").classList.toggle("graphmode", graph);
    if (S.graph) S.graph.fitted = false;
    treeKey = null; lastGraph = null;
    schedule();
  };
  $("view-graph").onclick = () => mode(true);
  $("view-list").onclick = () => mode(false);
  window.addEventListener("resize", () => { lastGraph = null; });
}

function zoomGraph(f, px, py) {
  const G = S.graph;
  const s = Math.min(4, Math.max(0.002, G.scale * f));
  G.tx = px - (px - G.tx) * (s / G.scale);
  G.ty = py - (py - G.ty) * (s / G.scale);
  G.scale = s;
  schedule();
}

// ----- replay -----------------------------------------------------------------------------------

function seek(tick) {
  S.replayTick = Math.max(0, Math.min(S.maxTick, tick | 0));
  $("slider").value = String(S.replayTick);
  schedule();
}

function setupReplay() {
  $("slider").addEventListener("input", (ev) => seek(Number(ev.target.value)));
  $("play").onclick = () => {
    if (S.playing) { clearInterval(S.playing); S.playing = null; $("play").textContent = "Play"; return; }
    if (S.replayTick >= S.maxTick) seek(0);
    $("play").textContent = "Stop";
    S.playing = setInterval(() => {
      if (S.replayTick >= S.maxTick) { clearInterval(S.playing); S.playing = null; $("play").textContent = "Play"; return; }
      seek(S.replayTick + 1);
    }, 1000 / S.tps);
  };
}

// ----- saving the trace -------------------------------------------------------------------------

/// What this page received, as a trace `robot-example inspect FILE` replays: the tree header,
/// then the timeline (and the `why` events of a replayed --trace-why trace).
function traceText() {
  const header = { tick: 0, t_ms: 0, event: "tree", format: 3, ticks_per_second: S.tps, tree: S.tree,
    saved_from: S.mode === "live" ? "the inspector page (live)" : "the inspector page (replay)" };
  if (S.stateKeys.length) header.state_keys = S.stateKeys;
  const lines = [JSON.stringify(header)];
  const all = S.entries.concat(S.whyEvents).map((e, k) => [e, k]);
  all.sort((a, b) => a[0].tick - b[0].tick || a[1] - b[1]);
  for (const [e] of all) lines.push(JSON.stringify(e));
  return lines.join("\n") + "\n";
}

function saveTrace() {
  if (!S.tree) return;
  const blob = new Blob([traceText()], { type: "application/x-ndjson" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  const stamp = new Date().toISOString().replace(/[:.]/g, "-").slice(0, 19);
  a.download = `robot-trace-${stamp}.jsonl`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  showReply(`saved ${plural(S.entries.length, "event")} as ${a.download}` +
    (S.historyDropped ? ` (the ${S.historyDropped} oldest were not kept)` : ""), true);
}

// ----- forms ------------------------------------------------------------------------------------

function option(sel, value, label) { const o = el("option", "", label || value); o.value = value; sel.append(o); }

function fillForms() {
  const cat = S.catalog;
  const userSel = $("user-tag"), hriSel = $("hri-intent"), forceSel = $("force-behavior"), dl = $("cloud-intents");
  userSel.textContent = ""; hriSel.textContent = ""; forceSel.textContent = ""; dl.textContent = "";
  for (const n of S.tree.nodes) {
    if (n.index !== S.tree.base) option(forceSel, n.name, `${n.name} (${n.class}${n.stand_in ? ", stand-in" : ""})`);
  }
  fillBreakForm();
  if (!cat) return;
  for (const u of cat.user_intents) option(userSel, u.type);
  for (const c of cat.cloud_intents) option(dl, c);
  for (const h of cat.hri_intents) option(hriSel, h);
  const setUser = () => {
    const u = cat.user_intents.find((x) => x.type === userSel.value);
    $("user-json").value = u ? JSON.stringify(u.default) : "";
  };
  userSel.onchange = setUser;
  userSel.value = cat.user_intents.some((u) => u.type === "set_timer") ? "set_timer" : (cat.user_intents[0] || {}).type;
  setUser();
  if (userSel.value === "set_timer") $("user-json").value = '{"type":"set_timer","time_s":60}';
  const setHri = () => {
    let msg = {};
    try { msg = JSON.parse($("hri-json").value || "{}"); } catch (e) { msg = {}; }
    msg.intent = hriSel.value;
    if (!msg.data) msg.data = {};
    if (msg.priority === undefined) msg.priority = 128;
    $("hri-json").value = JSON.stringify(msg);
  };
  hriSel.onchange = setHri;
  hriSel.value = "__intent_move_to__";
  $("hri-json").value = '{"intent":"__intent_move_to__","data":{"goal":"kitchen"},"priority":200}';
}

/// An HRI message as the intake reads it: ROS4HRI's `data` is a string holding a JSON object;
/// the form lets a person write it as an object, and sends it as that string.
function hriMessage(v) {
  if (v && typeof v === "object" && !Array.isArray(v) && v.data && typeof v.data === "object" && !Array.isArray(v.data)) {
    return Object.assign({}, v, { data: JSON.stringify(v.data) });
  }
  return v;
}

function setupForms() {
  for (const t of document.querySelectorAll(".tab")) {
    t.onclick = () => {
      for (const x of document.querySelectorAll(".tab")) x.classList.toggle("on", x === t);
      for (const p of document.querySelectorAll(".pane")) p.classList.toggle("on", p.dataset.pane === t.dataset.tab);
    };
  }
  const parse = (id) => {
    try { return JSON.parse($(id).value); } catch (e) { showReply(`not JSON: ${e.message}`, false); return undefined; }
  };
  $("send-user").onclick = () => { const v = parse("user-json"); if (v !== undefined) send({ cmd: "user_intent", intent: v }); };
  $("send-cloud").onclick = () => send({ cmd: "cloud", text: $("cloud-text").value });
  $("cloud-text").addEventListener("keydown", (ev) => { if (ev.key === "Enter") $("send-cloud").click(); });
  $("send-hri").onclick = () => { const v = parse("hri-json"); if (v !== undefined) send({ cmd: "hri", message: hriMessage(v) }); };
  $("send-force").onclick = () => send({ cmd: "force", behavior: $("force-behavior").value, runs: Number($("force-runs").value) || 1 });
  $("send-trigger").onclick = () => send({ cmd: "trigger_word", will_open_stream: true });
  $("send-done").onclick = () => send({ cmd: "action_done", action: $("done-action").value, result: $("done-result").value });
  $("pause").onclick = () => send({ cmd: "pause" });
  $("resume").onclick = () => send({ cmd: "resume" });
  $("step").onclick = () => send({ cmd: "step", ticks: Math.max(1, Math.min(1000, Number($("stepn").value) || 1)) });
  $("save").onclick = saveTrace;
  $("break-on").onchange = fillBreakForm;
  $("break-target").addEventListener("input", () => { if ($("break-on").value === "condition") fillBreakForm(); });
  $("break-add").onclick = addBreakpoint;
  const search = $("search");
  search.addEventListener("input", () => { S.search = search.value; S.matchPos = -1; runSearch(); schedule(); });
  search.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter") { ev.preventDefault(); nextMatch(ev.shiftKey); }
    if (ev.key === "Escape") { search.value = ""; S.search = ""; runSearch(); schedule(); }
  });
  // A person scrolling or clicking in the tree stops it following the stack.
  for (const ev of ["wheel", "pointerdown", "keydown", "touchmove"]) {
    $("tree").addEventListener(ev, () => { S.treeFollow = false; }, { passive: true });
  }
  const tl = $("timeline");
  tl.addEventListener("scroll", () => {
    if (ownScroll) { ownScroll = false; return; }
    stick = tl.scrollHeight - tl.scrollTop - tl.clientHeight < 30;
  });
  const filters = $("filters");
  for (const f of FILTERS) {
    const l = el("label");
    const c = el("input");
    c.type = "checkbox"; c.checked = true; c.dataset.filter = f;
    c.onchange = () => $("timeline").classList.toggle("hide-" + f, !c.checked);
    l.append(c, el("span", "cat " + f, f));
    filters.append(l);
  }
}

window.inspector = {
  seek,
  state: () => S,
  text,
  traceText,
  status: () => nodeStatus(),
  shown: () => shownState(),
  barRect(name) {
    const G = S.chartGeom; if (!G) return null;
    const k = G.lanes.indexOf(name); if (k < 0) return null;
    const iv = S.lanes.get(name).find((i) => G.x(i.end === null ? chartEnd() : i.end) > GUTTER);
    if (!iv) return null;
    const a = Math.max(GUTTER, G.x(iv.start)), b = Math.min(G.W, G.x(iv.end === null ? chartEnd() : iv.end));
    return { x: (a + b) / 2, y: AXIS + (k + TOP_LANES) * LANE + LANE / 2 };
  },
  /// Where behavior `name`'s box is drawn in the graph (CSS pixels of the canvas), if shown.
  graphPoint(name) {
    const G = S.graph; const i = S.nameIndex.get(name);
    if (!G || i === undefined) return null;
    const p = G.pos[i];
    return { x: G.tx + (p.x + GW / 2) * G.scale, y: G.ty + (p.y + GH / 2) * G.scale };
  },
  centre(name) { const i = S.nameIndex.get(name); if (i !== undefined) centreGraphOn(i); },
  /// The graph's view as drawn last (to wait for a move to be on screen).
  graphView() { const G = S.graph; return G ? `${G.scale.toFixed(4)},${Math.round(G.tx)},${Math.round(G.ty)}` : null; },
};

setupChart();
setupGraph();
setupReplay();
setupForms();
connect();
