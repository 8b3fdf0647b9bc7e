// The robot inspector's page. No build step, no library: the socket's messages (see
// src/inspect/protocol.rs) become DOM and one canvas. Live: the server's snapshots give each
// behavior's state, its gates and the intents; the timeline entries give the rest. Replay:
// everything is rebuilt from the trace's entries up to the slider's tick.
"use strict";

const $ = (id) => document.getElementById(id);
const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
};

const S = {
  mode: null, tree: null, tps: 20, commands: false, catalog: null,
  // state: what the page shows; sent: the last state the robot sent (state is it, brought
  // up to the clock when only the clock came since).
  entries: [], historyDropped: 0, state: null, sent: null, selected: null,
  replayTick: null, maxTick: 0, playing: null,
  follow: true, view: null, collapsed: new Set(), nameIndex: new Map(),
  roles: null, nextId: 0, token: null, ws: null, dirty: false, rendered: 0,
  lanes: new Map(), laneOrder: [], markers: [], lastStack: [], nowMs: 0,
  // What the page costs (read by the browser tests on big trees): the largest update
  // received, in characters, and render times in ms.
  // clocks: updates that brought only the clock (the robot waited).
  perf: { maxUpdate: 0, updates: 0, clocks: 0, lastRenderMs: 0, maxRenderMs: 0, renders: 0 },
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

function connect() {
  const params = new URLSearchParams(location.search);
  S.token = params.get("token");
  const url = `ws://${location.host}/ws${S.token ? "?token=" + encodeURIComponent(S.token) : ""}`;
  const ws = new WebSocket(url);
  S.ws = ws;
  ws.onopen = () => setConn("connected", "ok");
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
    setConn(S.mode === "replay" ? "disconnected" : "disconnected: reconnecting…", "bad");
    S.ws = null;
    setTimeout(connect, 2000);
  };
}

function setConn(t, cls) { const c = $("conn"); c.textContent = t; c.className = "conn " + cls; }

const silent = new Set();
function send(cmd, quiet) {
  if (!S.ws || S.ws.readyState !== 1) { if (!quiet) showReply("not connected", false); return; }
  const msg = Object.assign({ id: ++S.nextId }, cmd);
  if (quiet) silent.add(msg.id);
  if (S.token) msg.token = S.token;
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
      if (msg.state) setState(msg.state);
      else if (msg.clock) advance(msg.clock);
      schedule();
      break;
    case "reply": if (!silent.delete(msg.id)) showReply(msg.message, true); break;
    case "error": if (!silent.delete(msg.id)) showReply(msg.error, false); break;
  }
}

function hello(msg) {
  S.mode = msg.mode; S.tree = msg.tree; S.tps = msg.ticks_per_second || 20;
  S.commands = !!msg.commands; S.catalog = msg.catalog || null;
  S.entries = []; S.lanes = new Map(); S.laneOrder = []; S.markers = []; S.lastStack = [];
  S.rendered = 0; S.nowMs = 0; S.maxTick = 0; S.historyDropped = msg.history_dropped || 0; S.state = null;
  $("timeline").textContent = "";
  S.nameIndex = new Map(S.tree.nodes.map((n) => [n.name, n.index]));
  S.roles = stateRoles();
  treeKey = null; whyKey = null;
  const badge = $("mode");
  badge.textContent = S.mode; badge.className = "badge " + S.mode;
  document.body.classList.toggle("replay", S.mode === "replay");
  $("controls").hidden = S.mode !== "live";
  $("replaybar").hidden = S.mode !== "replay";
  $("readonly").hidden = S.commands;
  for (const e of document.querySelectorAll("#sendcard .tabs, #sendcard .pane")) e.hidden = !S.commands;
  for (const b of document.querySelectorAll("#sendcard button")) {
    if (!b.classList.contains("tab")) b.disabled = !S.commands;
  }
  const problems = msg.problems || [];
  $("problems").hidden = problems.length === 0;
  $("problems").textContent = problems.join("\n");
  if (msg.trace) document.title = `Replay: ${msg.trace}`;
  fillForms();
  addEntries(msg.history || []);
  if (msg.state) setState(msg.state);
  if (S.mode === "replay") {
    const slider = $("slider");
    slider.max = String(S.maxTick);
    slider.value = String(S.maxTick);
    S.replayTick = S.maxTick;
  }
  S.view = null; S.follow = true; $("follow").classList.add("on");
  if (S.selected !== null && S.selected >= S.tree.nodes.length) S.selected = null;
  watch();
  schedule();
}

function setState(st) {
  S.sent = st;
  S.state = st;
  S.nowMs = Math.max(S.nowMs, st.t_ms);
}

/// A cooldown at least this long (2^53 ms; the robot writes one that never ends as the largest
/// number) does not count down.
const FOREVER_MS = 2 ** 53;

/// The clock alone: nothing but time moved since the last state sent (the robot checks),
/// so that state is brought up to the clock here: durations grow, cooldowns shrink, ages
/// and the ticks that were the current one move on.
function advance(clock) {
  const sent = S.sent;
  if (!sent || sent.tick === null || sent.tick === undefined) return;
  const dt = Math.max(0, clock.t_ms - sent.t_ms);
  const dticks = Math.max(0, clock.tick - sent.tick);
  const st = structuredClone(sent);
  st.tick = clock.tick;
  st.t_ms = clock.t_ms;
  for (const f of st.stack) if (typeof f.active_ms === "number") f.active_ms += dt;
  for (const n of st.nodes) {
    if (typeof n.active_ms === "number") n.active_ms += dt;
    if (n.cooldown_ms && n.cooldown_ms < FOREVER_MS) n.cooldown_ms = Math.max(0, n.cooldown_ms - dt);
    if (n.wants && n.wanted_tick === sent.tick) n.wanted_tick = clock.tick;
  }
  const now = (c) => {
    if (c.tick === sent.tick) c.tick = clock.tick;
    for (const k of c.children || []) now(k);
  };
  for (const w of st.why) for (const c of w.conditions) now(c);
  for (const i of [st.intents.pending, st.intents.active]) if (i) i.age_ticks += dticks;
  S.state = st;
  S.nowMs = Math.max(S.nowMs, st.t_ms);
  S.perf.clocks++;
}

// ----- entries: chart lanes, markers ----------------------------------------------------------

function addEntries(list) {
  for (const e of list) {
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

// ----- derived state (replay: up to the slider; live: everything) -----------------------------

function upto() { return S.mode === "replay" ? S.replayTick : Infinity; }

function stackAt(tick) {
  let st = [];
  for (const e of S.entries) { if (e.tick > tick) break; if (e.event === "stack") st = e.stack; }
  return st;
}

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

/// Each behavior's status: from the live snapshot (which leaves out behaviors out of scope with
/// nothing to say), or rebuilt from the stack of a trace.
function nodeStatus() {
  const n = S.tree.nodes.length;
  const out = [];
  for (let i = 0; i < n; i++) out.push({ index: i, state: "out_of_scope", wants_to_run: false });
  if (S.mode === "live" && S.state) {
    for (const s of S.state.nodes) if (s.index >= 0 && s.index < n) out[s.index] = s;
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
  renderTree(status);
  renderWhy(status);
  drawChart(); // first: its height decides the timeline's
  renderTimeline(tick);
  renderIntents(tick);
  renderResources(tick);
}

function renderClock(tick) {
  const c = $("clock");
  if (S.mode === "replay") {
    const ms = Math.round(tick * 1000 / S.tps);
    c.textContent = `tick ${tick} · ${fmtMs(ms)} of ${fmtMs(Math.round(S.maxTick * 1000 / S.tps))}`;
    $("slidertime").textContent = fmtMs(ms);
  } else if (S.state) {
    c.textContent = S.state.tick === null || S.state.tick === undefined
      ? "no tick yet" : `tick ${S.state.tick} · ${fmtMs(S.state.t_ms)}`;
    const b = $("mode");
    b.textContent = S.state.paused ? "paused" : "live";
    b.className = "badge " + (S.state.paused ? "paused" : "live");
    $("pause").disabled = S.state.paused || !S.commands;
    $("resume").disabled = !S.state.paused || !S.commands;
    $("step").disabled = !S.commands;
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
    fr.onclick = () => { S.treeFollow = true; S.revealed = null; revealInTree(names[k]); };
    box.append(fr);
  });
}

/// Scrolls the tree (only the tree) so that the row of `name` on the stack is in view.
function revealInTree(name) {
  const box = $("tree");
  const row = box.querySelector(`.node.active[data-name="${CSS.escape(name)}"]`) ||
    box.querySelector(`.node[data-name="${CSS.escape(name)}"]`);
  if (!row) return;
  const top = row.offsetTop, bottom = top + row.offsetHeight;
  if (top < box.scrollTop || bottom > box.scrollTop + box.clientHeight) {
    box.scrollTop = Math.max(0, top - box.clientHeight / 3);
  }
}

let treeKey = null, whyKey = null;
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

function renderTree(status) {
  const key = JSON.stringify([status, S.selected, [...S.collapsed], S.commands]);
  if (key === treeKey) return;
  treeKey = key;
  const box = $("tree");
  const scroll = box.scrollTop;
  box.textContent = "";
  const big = S.tree.nodes.length > 80;
  box.classList.toggle("big", big);
  if (!S.roles) S.roles = stateRoles();
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
    row.dataset.name = node.name;
    row.dataset.state = st.state;
    row.dataset.wants = st.wants_to_run ? "1" : "0";
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
    if (st.cooldown_ms) row.append(el("span", "pill cool", `cooldown ${(st.cooldown_ms / 1000).toFixed(1)} s`));
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
    row.onclick = () => { S.selected = S.selected === i ? null : i; watch(); schedule(); };
    parent.append(row);
    if (hasKids && !collapsed && depth < 64 && !path.split("/").includes(String(i))) {
      opened.add(i);
      const kids = el("div", "children");
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
  const topName = top ? S.tree.nodes[top.index].name : null;
  if (S.treeFollow !== false && topName && topName !== S.revealed) {
    S.revealed = topName;
    revealInTree(topName);
  }
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

/// A condition report as a check: its label and type, its parameters, its last value.
function condCheck(c) {
  const name = [c.label, c.type + (c.detail ? " " + c.detail : "")].filter(Boolean).join(": ");
  const value = c.tick === undefined || c.tick === null ? "never evaluated"
    : `${c.value ? "true" : "false"} at tick ${c.tick}`;
  return { label: name, value, holds: c.tick === undefined || c.tick === null ? null : c.value,
    children: (c.children || []).map(condCheck) };
}

function verdict(st, node) {
  if (!st || st.state === "out_of_scope") return ["no", "out of scope"];
  if (st.state === "active") return ["runs", "running"];
  // A trace does not say whether a behavior in scope wanted to run.
  if (S.mode === "replay") return ["wants", "in scope"];
  if (st.cooldown_ms) return ["cool", "cooling down"];
  if (st.wants_to_run) return ["wants", "wants to run"];
  if (node && node.stand_in && !(node.responds_to || []).length && !node.wants_condition) return ["no", "stand-in: does not want to run"];
  return ["no", "does not want to run"];
}

/// What one behavior's report says, as checks: its gates, its intents, its conditions (a
/// state machine's transitions out of its current state first).
function whyChecks(w, node, st) {
  const checks = [];
  for (const g of w.gates) if (!g.open) checks.push({ label: `gate ${g.name}`, value: "closed in the current robot state", holds: false });
  if (w.intent_pending !== undefined && w.intent_pending !== null) {
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
  if (st && st.cooldown_ms) checks.push({ label: "not cooling down", value: `${(st.cooldown_ms / 1000).toFixed(1)} s left`, holds: false });
  const conds = w.conditions.slice();
  const cur = st && st.debug_state;
  if (cur) {
    const mine = (c) => c.label.startsWith(cur + " -> ");
    const now = conds.filter(mine), rest = conds.filter((c) => !mine(c) && / -> /.test(c.label));
    const plain = conds.filter((c) => !mine(c) && !/ -> /.test(c.label));
    for (const c of plain) checks.push(condCheck(c));
    for (const c of now) checks.push(condCheck(c));
    if (rest.length) checks.push({ label: `transitions of the other ${plural(node.states ? node.states.length - 1 : 0, "state")}`,
      value: `${rest.length} (not evaluated in this state)`, holds: null, children: [] });
  } else {
    for (const c of conds) checks.push(condCheck(c));
  }
  if (!checks.length) checks.push({ label: "no gate closed, no condition", value: "its class decides", holds: null });
  return checks;
}

function renderWhy(status) {
  const key = JSON.stringify([status, S.selected, S.mode === "live" && S.state ? [S.state.why, S.state.dispatcher] : null]);
  if (key === whyKey) return;
  whyKey = key;
  const box = $("why");
  box.textContent = "";
  const live = S.mode === "live" && S.state;
  const target = S.selected !== null ? S.selected : (live ? S.state.dispatcher : activeDispatcher(status));
  if (target === undefined || target === null) { box.append(el("div", "empty", "nothing is running")); $("whytitle").textContent = ""; return; }
  const node = S.tree.nodes[target];
  const why = new Map(live ? (S.state.why || []).map((w) => [w.index, w]) : []);
  $("whytitle").textContent = node.delegates.length
    ? `children of ${node.name} (${node.class})${S.selected === null ? ", the active dispatcher" : ""}`
    : `${node.name} (${node.class})`;
  box.dataset.target = node.name;
  if (!live) {
    box.append(el("div", "empty", "A trace records what happened, not why: conditions are shown live only. Scope and stack below are rebuilt from the trace."));
  }
  const own = why.get(target);
  if (own && node.delegates.length && (own.conditions.length || (node.states || []).length)) {
    const c = el("div", "child own");
    c.dataset.name = node.name;
    const st = status[target];
    const head = el("div", "head", `${node.name}: its own conditions`);
    if (node.states && node.states.length && st && st.debug_state) head.append(el("span", "pill st", `state ${st.debug_state}`));
    c.append(head);
    c.append(checkList(whyChecks(own, node, st)));
    box.append(c);
  }
  const list = node.delegates.length ? node.delegates : [target];
  for (const i of list) {
    const n = S.tree.nodes[i];
    const st = status[i];
    const [cls, word] = verdict(st, n);
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
    const w = why.get(i);
    if (w) {
      c.append(checkList(whyChecks(w, n, st)));
    } else if (live) {
      const rest = [];
      if (n.responds_to && n.responds_to.length) rest.push(`respondToUserIntents [${n.responds_to.join(", ")}]`);
      if (n.wants_condition) rest.push(`wantsToBeActivatedCondition ${n.wants_condition}`);
      c.append(checkList(rest.map((w) => ({ label: w, holds: null, value: "select its parent to see its last values" }))));
    }
    box.append(c);
  }
}

function activeDispatcher(status) {
  const frames = status.filter((s) => s.state === "active").sort((a, b) => b.stack_position - a.stack_position);
  for (const f of frames) if (S.tree.nodes[f.index].delegates.length) return f.index;
  return null;
}

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
  let prev = S.rendered > 0 ? S.entries[S.rendered - 1].tick : null;
  for (let k = S.rendered; k < S.entries.length; k++) {
    box.append(row(S.entries[k], prev));
    prev = S.entries[k].tick;
  }
  S.rendered = S.entries.length;
  while (box.childElementCount > ROWS) box.firstElementChild.remove();
  if (stick && box.scrollTop !== box.scrollHeight - box.clientHeight) {
    ownScroll = true;
    box.scrollTop = box.scrollHeight;
  }
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
  if (it.age_ticks !== undefined) kv(s, "age", plural(it.age_ticks, "tick"));
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
  if (S.mode === "live" && S.state) {
    const i = S.state.intents;
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
  wrap.style.height = Math.max(140, Math.min(440, h)) + "px";
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

// ----- forms ------------------------------------------------------------------------------------

function option(sel, value, label) { const o = el("option", "", label || value); o.value = value; sel.append(o); }

function fillForms() {
  const cat = S.catalog;
  const userSel = $("user-tag"), hriSel = $("hri-intent"), forceSel = $("force-behavior"), dl = $("cloud-intents");
  userSel.textContent = ""; hriSel.textContent = ""; forceSel.textContent = ""; dl.textContent = "";
  for (const n of S.tree.nodes) {
    if (n.index !== S.tree.base) option(forceSel, n.name, `${n.name} (${n.class}${n.stand_in ? ", stand-in" : ""})`);
  }
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
  $("send-hri").onclick = () => { const v = parse("hri-json"); if (v !== undefined) send({ cmd: "hri", message: v }); };
  $("send-force").onclick = () => send({ cmd: "force", behavior: $("force-behavior").value, runs: Number($("force-runs").value) || 1 });
  $("send-trigger").onclick = () => send({ cmd: "trigger_word", will_open_stream: true });
  $("send-done").onclick = () => send({ cmd: "action_done", action: $("done-action").value, result: $("done-result").value });
  $("pause").onclick = () => send({ cmd: "pause" });
  $("resume").onclick = () => send({ cmd: "resume" });
  $("step").onclick = () => send({ cmd: "step", ticks: Math.max(1, Math.min(1000, Number($("stepn").value) || 1)) });
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
  barRect(name) {
    const G = S.chartGeom; if (!G) return null;
    const k = G.lanes.indexOf(name); if (k < 0) return null;
    const iv = S.lanes.get(name).find((i) => G.x(i.end === null ? chartEnd() : i.end) > GUTTER);
    if (!iv) return null;
    const a = Math.max(GUTTER, G.x(iv.start)), b = Math.min(G.W, G.x(iv.end === null ? chartEnd() : iv.end));
    return { x: (a + b) / 2, y: AXIS + (k + TOP_LANES) * LANE + LANE / 2 };
  },
};

setupChart();
setupReplay();
setupForms();
connect();
