// The browser side of bmc.widgets' explorers (see bmc/widgets/_canvas.py): the controls,
// the figure drawn from the items of bmc/widgets/_scene.py (canvas pixels, origin top
// left), and what a screen reader hears.
const stores = new Map();  // model id -> {items, version, state, views, ...}
const ACK_TIMEOUT = 4000;  // [ms] an answer lost (kernel restarted): send the latest anyway
const ANNOUNCE_AFTER = 700;  // [ms] of no change before the live region speaks
// Frames computed ahead along one slider (bmc/widgets/_sweep.py): how far from its value,
// when the pointer is on it (a drag's reach) or it has the keyboard focus (the next presses)
const REACH_POINTER = 48, REACH_KEYS = 12;
const SWEEP_ASK = 8;  // positions asked per message (the kernel may answer fewer)
const SYNC_AFTER = 250;  // [ms] values shown from frames rest this long before the kernel is told
const SWEEP_BYTES = 48e6;  // frames kept per explorer, at most (then the oldest go)

function sliders(specs) {
  return specs.filter((sp) => sp.kind === "range" || sp.kind === "log");
}
function positions(spec) { return Math.round((spec.max - spec.min) / spec.step) + 1; }
function position(spec, v) { return Math.round((v - spec.min) / spec.step); }
function context(specs, values, name) {  // the frames of one slider hold for these values
  return JSON.stringify([name, specs.filter((sp) => sp.name !== name)
    .map((sp) => values[sp.name])]);
}

function f32(v) {
  if (v instanceof Float32Array) return v;
  if (v instanceof DataView || ArrayBuffer.isView(v)) {
    return new Float32Array(v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength));
  }
  if (v instanceof ArrayBuffer) return new Float32Array(v.slice(0));
  return new Float32Array(v || []);
}

function putBuffers(obj, paths, buffers) {
  paths.forEach((path, i) => {
    let o = obj;
    for (let k = 0; k < path.length - 1; k++) o = o[path[k]];
    o[path[path.length - 1]] = f32(buffers[i]);
  });
}

function convert(item) {  // byte fields of an item (initial state) to Float32Array
  if (!item) return item;
  if (item.pts !== undefined) {
    item.pts = Array.isArray(item.pts) ? item.pts.map(f32) : f32(item.pts);
  }
  if (item.marker) item.marker.at = f32(item.marker.at);
  return item;
}

function bytesOf(items) {  // the float data an items object holds [bytes], roughly
  let n = 0;
  for (const it of Object.values(items)) {
    if (!it) continue;
    const pts = Array.isArray(it.pts) ? it.pts : [it.pts];
    for (const p of pts) if (p && p.byteLength) n += p.byteLength;
    if (it.marker && it.marker.at && it.marker.at.byteLength) n += it.marker.at.byteLength;
  }
  return n;
}

function store(model) {
  const key = model.get("uid");
  if (!stores.has(key)) {
    const items = {};
    for (const [id, item] of Object.entries(model.get("scene") || {})) items[id] = convert(item);
    const state = model.get("state") || {};
    const specs = model.get("controls") || [];
    const s = {items, version: model.get("version"), values: {...(state.values || {})},
               description: state.description || "", views: new Set(), png: null,
               seq: 0, inflight: null, kind: null, sentAt: 0, pending: null, timer: null,
               // frames computed ahead, by the other controls' values as sent (context
               // key -> {frames: Map(value as sent -> frame), bytes, bases}), and the
               // positions asked in each context
               sweeps: new Map(), asked: new Map(), done: new Set(), paused: false,
               stalled: false, armed: null, unsynced: false, syncTimer: null, held: 0,
               heading: 0, movedAt: -1e9, base: null, itemsStamp: 0, baseStamp: -1};
    s.local = {...s.values};  // the student's latest values
    const png = model.get("background");
    if (model.get("mode") === "png" && png && png.byteLength) s.png = blobUrl(png);
    const ranges = Object.fromEntries(sliders(specs).map((sp) => [sp.name, sp]));
    const canSweep = model.get("mode") === "canvas" && Object.keys(ranges).length > 0;
    s.send = (content) => {
      s.seq += 1;
      s.inflight = s.seq;
      s.kind = content.type;
      s.sentAt = performance.now();
      model.send({...content, seq: s.seq});
      clearTimeout(s.timer);
      s.timer = setTimeout(s.pump, ACK_TIMEOUT + 10);
    };
    s.pump = () => {
      if (s.inflight !== null && performance.now() - s.sentAt < ACK_TIMEOUT) return;
      if (s.inflight !== null && s.kind === "sweep") s.stalled = true;  // no answer: ask no more
      if (s.pending) {
        s.send({type: "set", values: s.pending});
        s.pending = null;
        return;
      }
      const ask = s.stalled || s.paused ? null : s.nextSweep();
      if (ask) {
        const asked = s.asked.get(ask.ctx) || new Set();
        for (const [k] of ask.at) asked.add(k);  // asked once, answered or not
        s.asked.set(ask.ctx, asked);
        s.send({type: "sweep", control: ask.name, ctx: ask.ctx, values: {...s.local},
                at: ask.at});
      }
    };
    // The frame computed ahead at exactly these values, if any: {all, description}
    s.frameFor = (values) => {
      for (const name in ranges) {
        const ctx = context(specs, values, name);
        const entry = s.sweeps.get(ctx);
        const f = entry && entry.frames.get(String(values[name]));
        if (f) {
          s.sweeps.delete(ctx); s.sweeps.set(ctx, entry);  // the most recently used last
          if (!f.all) {  // the items the kernel held then, with the frame's changes
            f.all = {...f.base};
            for (const [id, item] of Object.entries(f.items)) {
              if (item === null) delete f.all[id]; else f.all[id] = item;
            }
          }
          return f;
        }
      }
      return null;
    };
    s.nextSweep = () => {  // positions of the armed slider nearest its value, not yet asked
      const a = s.armed;
      if (!a || !canSweep) return null;
      const spec = ranges[a.name], ctx = context(specs, s.local, a.name);
      if (s.done.has(ctx)) return null;
      const asked = s.asked.get(ctx);
      const n = positions(spec), now = position(spec, s.local[a.name]), at = [];
      const ask = (k) => {
        if (k >= 0 && k < n && at.length < SWEEP_ASK && !(asked && asked.has(k))
            && !at.some((p) => p[0] === k)) {
          at.push([k, snap(spec, spec.min + k * spec.step)]);
        }
      };
      ask(now);
      // moving: the positions it is heading for first; at rest: both sides alike
      const heading = performance.now() - s.movedAt < 300 ? s.heading : 0;
      if (heading) {
        for (let d = 1; d <= a.reach; d++) ask(now + heading * d);
        for (let d = 1; d <= a.reach; d++) ask(now - heading * d);
      } else {
        for (let d = 1; d <= a.reach; d++) { ask(now + d); ask(now - d); }
      }
      return at.length ? {name: a.name, ctx, at} : null;
    };
    s.arm = (name, reach) => {  // a slider the student is about to move (reach 0: left it)
      if (!canSweep || !(name in ranges)) return;
      if (!reach) {
        if (s.armed && s.armed.name === name) s.armed = null;
        return;
      }
      const wider = s.armed && s.armed.name === name ? Math.max(reach, s.armed.reach) : reach;
      s.armed = {name, reach: wider};
      s.pump();
    };
    s.request = (values) => {
      for (const name in ranges) {  // which way a slider moves (frames ahead go that way)
        if (values[name] !== s.local[name]) {
          s.heading = Math.sign(values[name] - s.local[name]);
          s.movedAt = performance.now();
        }
      }
      s.local = values;
      clearTimeout(s.syncTimer);
      if (s.frameFor(values)) {
        // drawn here and now; the kernel is told once the values rest (its answer is the
        // same figure)
        s.pending = null;
        s.unsynced = true;
        s.syncTimer = setTimeout(() => {
          if (!s.unsynced) return;
          s.unsynced = false;
          s.pending = {...s.local};
          s.pump();
          for (const view of s.views) view.busy();
        }, SYNC_AFTER);
      } else {
        s.unsynced = false;
        s.pending = {...values};
        s.pump();
      }
      for (const view of s.views) { view.show(values); view.schedule(); view.busy(); }
    };
    s.keep = (msg, buffers) => {  // a sweep's answer: its frames, by the values computed at
      putBuffers(msg.frames || [], msg.paths || [], buffers || []);
      if (msg.later) { s.paused = true; return; }  // the explorer shows an error: not now
      const asked = s.asked.get(msg.ctx) || new Set();
      const tried = new Set(msg.tried || []);
      for (const [k] of msg.at || []) if (!tried.has(k)) asked.delete(k);  // not reached
      if (!tried.size) s.done.add(msg.ctx);  // nothing to compute in this context
      const frames = msg.frames || [];
      if (!frames.length) return;
      const ctx = msg.ctx;  // the frames hold at exactly the values the browser sent
      let entry = s.sweeps.get(ctx);
      if (entry) s.sweeps.delete(ctx);
      else entry = {frames: new Map(), bytes: 0, bases: new Set()};
      s.sweeps.set(ctx, entry);  // the most recently used last
      if (s.baseStamp !== s.itemsStamp) {  // what the kernel had sent when it computed them
        s.base = {...s.items};
        s.base.bytes = bytesOf(s.items);
        s.baseStamp = s.itemsStamp;
      }
      const base = s.base;
      if (!entry.bases.has(base)) { entry.bases.add(base); entry.bytes += base.bytes; }
      for (const f of frames) {
        entry.frames.set(String(f.v), {items: f.items, description: f.description, base});
        entry.bytes += bytesOf(f.items) + 2 * (f.description || "").length;
        s.held += 1;
      }
      let total = 0;
      for (const e of s.sweeps.values()) total += e.bytes;
      for (const [k, e] of s.sweeps) {  // the least recently used go first
        if (total <= SWEEP_BYTES) break;
        if (e === entry) continue;
        total -= e.bytes;
        s.sweeps.delete(k);
      }
      if (total > SWEEP_BYTES) s.done.add(msg.ctx);  // this one alone is as much as is kept
    };
    model.on("msg:custom", (msg, buffers) => {
      if (msg && msg.type === "frames") {
        s.keep(msg, buffers);
        s.stalled = false;
        if (msg.seq !== null && msg.seq !== undefined && msg.seq >= s.inflight) {
          s.inflight = null;
        }
        s.pump();
        for (const view of s.views) view.busy();
        return;
      }
      if (!msg || (msg.type !== "patch" && msg.type !== "png")) return;
      s.paused = false;  // the kernel drew: frames may be asked for again
      s.stalled = false;
      if (msg.type === "patch") {
        putBuffers(msg.items, msg.paths || [], buffers || []);
        for (const [id, item] of Object.entries(msg.items)) {
          if (item === null) delete s.items[id]; else s.items[id] = item;
        }
        if (Object.keys(msg.items).length) s.itemsStamp += 1;
      } else if (buffers && buffers.length) {
        if (s.png) URL.revokeObjectURL(s.png);
        s.png = blobUrl(buffers[0]);
      }
      s.version = msg.version;
      if (msg.values) s.values = msg.values;
      if (typeof msg.description === "string") s.description = msg.description;
      const answered = msg.seq !== null && msg.seq !== undefined && msg.seq >= s.inflight;
      if (answered) s.inflight = null;
      // values the kernel set itself (not an answer to this page, nothing waiting)
      if ((s.inflight === null || s.kind === "sweep") && !s.pending && !s.unsynced) {
        const changed = Object.keys(s.values).filter((n) => s.values[n] !== s.local[n]);
        if (changed.length) s.local = {...s.local, ...s.values};
      }
      for (const view of s.views) view.update();
      if (answered) s.pump();
      for (const view of s.views) view.busy();
    });
    stores.set(key, s);
  }
  return stores.get(key);
}

function blobUrl(view) {
  if (!view || view.byteLength === 0) return null;
  const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  return URL.createObjectURL(new Blob([bytes], {type: "image/png"}));
}

function polyline(ctx, pts) {
  let pen = false;
  for (let i = 0; i + 1 < pts.length; i += 2) {
    const x = pts[i], y = pts[i + 1];
    if (Number.isNaN(x) || Number.isNaN(y)) { pen = false; continue; }
    if (pen) ctx.lineTo(x, y); else { ctx.moveTo(x, y); pen = true; }
  }
}

function markerPath(ctx, shape, x, y) {  // a Matplotlib path: vertices and codes
  const v = shape.v, c = shape.c, n = v.length / 2;
  const X = (j) => x + v[2 * j], Y = (j) => y + v[2 * j + 1];
  for (let i = 0; i < n;) {
    const code = c ? c[i] : (i === 0 ? 1 : 2);
    if (code === 1) { ctx.moveTo(X(i), Y(i)); i += 1; }
    else if (code === 2) { ctx.lineTo(X(i), Y(i)); i += 1; }
    else if (code === 3) { ctx.quadraticCurveTo(X(i), Y(i), X(i + 1), Y(i + 1)); i += 2; }
    else if (code === 4) {
      ctx.bezierCurveTo(X(i), Y(i), X(i + 1), Y(i + 1), X(i + 2), Y(i + 2)); i += 3;
    } else if (code === 79) { ctx.closePath(); i += 1; }
    else { i += 1; }
  }
}

function drawLine(ctx, it) {
  const pts = it.pts;
  if (it.lw > 0) {
    ctx.beginPath();
    polyline(ctx, pts);
    ctx.strokeStyle = it.color; ctx.lineWidth = it.lw;
    ctx.setLineDash(it.dash || []);
    ctx.lineJoin = it.join || "round"; ctx.lineCap = it.cap || "butt";
    ctx.stroke();
    ctx.setLineDash([]);
  }
  const m = it.marker;
  if (m) {
    const at = m.at;
    ctx.fillStyle = m.fill; ctx.strokeStyle = m.edge; ctx.lineWidth = m.ew;
    ctx.lineJoin = m.join || "round"; ctx.lineCap = "butt";
    for (let i = 0; i + 1 < at.length; i += 2) {
      if (Number.isNaN(at[i]) || Number.isNaN(at[i + 1])) continue;
      ctx.beginPath(); markerPath(ctx, m.shape, at[i], at[i + 1]);
      if (m.filled) ctx.fill();
      if (m.ew > 0) ctx.stroke();
    }
  }
}

function drawPoly(ctx, it) {
  it.pts.forEach((pts, k) => {
    ctx.beginPath(); polyline(ctx, pts); ctx.closePath();
    if (it.fill) { ctx.fillStyle = it.fill[k % it.fill.length]; ctx.fill(); }
    if (it.lw > 0) { ctx.strokeStyle = it.edge; ctx.lineWidth = it.lw; ctx.stroke(); }
  });
}

const BASELINE = {top: "top", bottom: "bottom", center: "middle", baseline: "alphabetic",
                  center_baseline: "middle"};

function font(size, family, weight) {
  const fam = family === "monospace" ? "DejaVu Sans Mono, monospace"
    : family === "serif" ? "DejaVu Serif, serif" : "DejaVu Sans, Arial, sans-serif";
  const bold = weight === "bold" || Number(weight) >= 600 ? "bold " : "";
  return `${bold}${size}px ${fam}`;
}

const SUPERSCRIPT = "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱᵀ";
const LIFTED = "0123456789+−=()niT";

function runs(line) {  // the line in runs of normal and superscript text (mathtext's a^{b})
  const out = [];
  for (const ch of line) {
    const k = SUPERSCRIPT.indexOf(ch), sup = k >= 0;
    const text = sup ? LIFTED[k] : ch;
    if (out.length && out[out.length - 1].sup === sup) out[out.length - 1].text += text;
    else out.push({sup, text});
  }
  return out;
}

function fitted(ctx, line, x, y, width) {  // one line, left on its baseline, Matplotlib's width
  const parts = runs(line);
  const normal = ctx.font, size = parseFloat(/([\d.]+)px/.exec(normal)[1]);
  const small = normal.replace(/[\d.]+px/, `${(0.7 * size).toFixed(2)}px`);
  const widths = parts.map((p) => { ctx.font = p.sup ? small : normal;
                                    return ctx.measureText(p.text).width; });
  const actual = widths.reduce((a, b) => a + b, 0);
  ctx.font = normal;
  ctx.save();
  ctx.translate(Math.round(x), Math.round(y));
  if (width > 0 && actual > 0) ctx.scale(width / actual, 1);
  let at = 0;
  parts.forEach((p, k) => {
    // a superscript as mathtext sets it: 70 % of the size, raised by about a third of it
    ctx.font = p.sup ? small : normal;
    ctx.fillText(p.text, at, p.sup ? -0.36 * size : 0);
    at += widths[k];
  });
  ctx.font = normal;
  ctx.restore();
}

function drawText(ctx, it) {
  const lines = String(it.t).split("\n");
  ctx.save();
  ctx.font = font(it.size, it.family, it.weight);
  ctx.fillStyle = it.color;
  if (it.box) {
    // Matplotlib's layout: the first baseline, the distance between baselines, each line
    // as wide as Matplotlib makes it and aligned in the text's box as it aligns it.
    const [x0, , bw] = it.box;
    ctx.textAlign = "left"; ctx.textBaseline = "alphabetic";
    lines.forEach((line, k) => {
      const w = it.w[k] || 0;
      const left = it.ha === "center" ? x0 + (bw - w) / 2 : it.ha === "right" ? x0 + bw - w : x0;
      fitted(ctx, line, left, it.base + k * it.pitch, w);
    });
    ctx.restore();
    return;
  }
  const step = it.size * it.spacing;
  ctx.translate(it.x, it.y);
  if (it.rot) ctx.rotate(-it.rot * Math.PI / 180);
  ctx.textAlign = it.ha === "center" ? "center" : it.ha === "right" ? "right" : "left";
  let y0 = 0;
  const extra = (lines.length - 1) * step;
  if (it.va === "center" || it.va === "center_baseline") y0 = -extra / 2;
  else if (it.va === "bottom" || it.va === "baseline") y0 = -extra;
  ctx.textBaseline = BASELINE[it.va] || "alphabetic";
  lines.forEach((line, k) => ctx.fillText(line, 0, y0 + k * step));
  ctx.restore();
}

function snapped(v, width) {  // Agg's pixel snapping of a straight line of this width
  return Math.floor(v + 0.5) + (Math.floor(width + 0.5) % 2 ? 0.5 : 0);
}

function drawTicks(ctx, it, clip) {
  const s = it.style, [x, y, w, h] = clip;
  const out = s.dir === "out" ? 1 : s.dir === "inout" ? 0.5 : 0;
  ctx.save();
  if (s.grid) {
    ctx.strokeStyle = s.gridcolor; ctx.lineWidth = s.gridwidth; ctx.lineCap = "butt";
    ctx.setLineDash(s.griddash || []);
    ctx.beginPath();
    for (const p of it.major) {
      const q = snapped(p, s.gridwidth);
      if (it.axis === "x") {
        ctx.moveTo(q, snapped(y, s.gridwidth)); ctx.lineTo(q, snapped(y + h, s.gridwidth));
      } else {
        ctx.moveTo(snapped(x, s.gridwidth), q); ctx.lineTo(snapped(x + w, s.gridwidth), q);
      }
    }
    ctx.stroke();
    ctx.setLineDash([]);
  }
  if (s.on) {
    // tick marks are markers in Matplotlib: placed on the pixel that holds the tick, their
    // ends snapped
    ctx.strokeStyle = s.color; ctx.lineWidth = s.width; ctx.lineCap = "butt"; ctx.beginPath();
    const half = Math.floor(s.width + 0.5) % 2 ? 0.5 : 0;
    const end = (v) => Math.floor(v + 0.5) + half;
    for (const [list, len] of [[it.major, s.size], [it.minor, s.minor]]) {
      for (const p of list) {
        const q = Math.floor(p + 0.5) + half;
        if (it.axis === "x") {
          const base = Math.floor(y + h + 0.5);
          ctx.moveTo(q, base + end(-len * (1 - out)) - half);
          ctx.lineTo(q, base + end(len * out) - half);
        } else {
          const base = Math.floor(x + 0.5);
          ctx.moveTo(base + end(len * (1 - out)) - half, q);
          ctx.lineTo(base + end(-len * out) - half, q);
        }
      }
    }
    ctx.stroke();
  }
  if (s.label) {
    ctx.font = font(s.font, s.family, "normal"); ctx.fillStyle = s.fontcolor;
    ctx.textAlign = "left"; ctx.textBaseline = "alphabetic";
    const gap = (s.on ? s.size * out : 0) + s.pad;
    it.major.forEach((p, k) => {
      const width = it.lw[k], ascent = it.la[k];  // as Matplotlib lays the label out
      if (it.axis === "x") {  // centred under the tick, its top at the pad
        fitted(ctx, it.labels[k], p - width / 2, y + h + gap + ascent, width);
      } else {  // right of it at the pad, centred on the tick between baseline and top
        fitted(ctx, it.labels[k], x - gap - width, p + ascent / 2, width);
      }
    });
    if (it.offset) {
      ctx.textBaseline = "bottom";
      if (it.axis === "x") {
        ctx.textAlign = "right"; ctx.fillText(it.offset, x + w, y + h + gap + 2.2 * s.font);
      } else { ctx.textAlign = "left"; ctx.fillText(it.offset, x, y - 2); }
    }
  }
  ctx.restore();
}

function draw(ctx, items, clips) {
  ctx.clearRect(0, 0, ctx.canvas.width, ctx.canvas.height);
  const groups = new Map();
  for (const it of Object.values(items)) {
    if (!it || !it.on) continue;
    if (!groups.has(it.ax)) groups.set(it.ax, []);
    groups.get(it.ax).push(it);
  }
  const order = [...groups.keys()].sort((a, b) => (a === -1) - (b === -1) || a - b);
  for (const ax of order) {
    const items = groups.get(ax).sort((a, b) => a.z - b.z);
    const clip = ax >= 0 ? clips[ax] : null;
    for (const it of items) {
      ctx.save();
      if (clip && it.clip) {
        ctx.beginPath(); ctx.rect(clip[0], clip[1], clip[2], clip[3]); ctx.clip();
      }
      if (it.kind === "line") drawLine(ctx, it);
      else if (it.kind === "poly") drawPoly(ctx, it);
      else if (it.kind === "text") drawText(ctx, it);
      else if (it.kind === "ticks") drawTicks(ctx, it, clip);
      ctx.restore();
    }
  }
}

// --- the controls --------------------------------------------------------------------------

let counter = 0;

function decimals(spec) { return Math.max(0, spec.decimals || 0); }

function shown(spec, value) {  // the value as the readout shows it
  if (spec.kind === "log") {
    const v = Math.pow(spec.base, value);
    return Number(v.toPrecision(3)).toString();
  }
  if (spec.kind === "range") return Number(value).toFixed(spec.shown);
  return String(value);
}

function spoken(spec, value) {  // the value as a screen reader reads it
  const text = shown(spec, value).replace(/^-/, "minus ");
  return spec.words ? `${text} ${spec.words}` : text;
}

function snap(spec, raw) {  // a range input's value on its step, rounded as it is shown
  const v = Number(raw);
  const k = Math.round((v - spec.min) / spec.step);
  const snapped = Math.min(spec.max, Math.max(spec.min, spec.min + k * spec.step));
  return Number(snapped.toFixed(9));
}

function buildControls(s, specs, onChange, onArm) {
  const box = document.createElement("div");
  box.className = "bmc-controls";
  const id = `bmc-${++counter}`;
  const inputs = {};
  specs.forEach((spec, k) => {
    const cell = document.createElement("div");
    cell.className = "bmc-control";
    const row = document.createElement("div");
    row.className = `bmc-row bmc-${spec.kind}`;
    const label = document.createElement("label");
    const inputId = `${id}-${k}`;
    label.htmlFor = inputId;
    label.textContent = spec.label;
    let input, readout = null;
    const value = s.local[spec.name];
    if (spec.kind === "range" || spec.kind === "log") {
      input = document.createElement("input");
      input.type = "range";
      input.min = spec.min; input.max = spec.max; input.step = spec.step;
      input.value = value;
      readout = document.createElement("span");
      readout.className = "bmc-readout";
      readout.setAttribute("aria-hidden", "true");
      row.append(label, input, readout);
    } else if (spec.kind === "choice") {
      input = document.createElement("select");
      spec.options.forEach((text, i) => {
        const option = document.createElement("option");
        option.value = String(i); option.textContent = text;
        input.appendChild(option);
      });
      row.append(label, input);
    } else {
      input = document.createElement("input");
      input.type = "checkbox";
      row.append(input, label);
    }
    input.id = inputId;
    input.dataset.name = spec.name;
    // JupyterLab's shortcuts (arrow keys move between cells, selector "... :focus") must not
    // take the keys a focused control needs: Lumino skips an element with this attribute.
    input.dataset.lmSuppressShortcuts = "true";
    const read = () => {
      if (spec.kind === "range" || spec.kind === "log") return snap(spec, input.value);
      if (spec.kind === "choice") return Number(input.value);  // the option's index
      return input.checked;
    };
    const show = (v) => {
      if (spec.kind === "range" || spec.kind === "log") {
        if (document.activeElement !== input || Number(input.value) !== v) input.value = v;
        readout.textContent = shown(spec, v);
        input.setAttribute("aria-valuetext", spoken(spec, v));
      } else if (spec.kind === "choice") {
        input.value = String(v);
      } else {
        input.checked = !!v;
      }
    };
    const slider = spec.kind === "range" || spec.kind === "log";
    input.addEventListener(slider ? "input" : "change", () => {
      const v = read(); show(v); onChange(spec.name, v);
      // moved by keys: the next positions, computed once the kernel has drawn this one
      if (slider) onArm(spec.name, REACH_KEYS);
    });
    if (slider) {  // the pointer on it: about to be dragged, compute ahead now
      row.addEventListener("pointerenter", () => onArm(spec.name, REACH_POINTER));
      input.addEventListener("pointerdown", () => onArm(spec.name, REACH_POINTER));
      input.addEventListener("blur", () => onArm(spec.name, 0));
      row.addEventListener("pointerleave", () => {  // passed over, not taken: nothing ahead
        if (document.activeElement !== input) onArm(spec.name, 0);
      });
    }
    inputs[spec.name] = show;
    show(value);
    cell.appendChild(row);
    box.appendChild(cell);
  });
  return {box, inputs};
}

export default {
  initialize({model}) {
    const key = model.get("uid");
    store(model);
    return () => {  // the widget closed: its frames go with it
      const s = stores.get(key);
      if (s) { clearTimeout(s.timer); clearTimeout(s.syncTimer); s.sweeps.clear(); }
      stores.delete(key);
    };
  },
  render({model, el}) {
    const s = store(model);
    const mode = model.get("mode");
    const [w, h] = model.get("size");
    const clips = model.get("clips");
    el.classList.add("bmc-explorer-view");
    el.dataset.uid = model.get("uid");
    const controls = buildControls(s, model.get("controls"), (name, value) => {
      showing[name] = value;
      s.request({...s.local, [name]: value});
    }, s.arm);
    const showing = {...s.local};  // what this view's controls show
    const box = document.createElement("div");
    box.className = "bmc-figure";
    box.setAttribute("role", "img");
    box.style.cssText =
      `position:relative;width:${w}px;max-width:100%;aspect-ratio:${w} / ${h};`;
    const [lx, ly, lw, lh] = model.get("layer");
    const pct = (v, of) => `${(100 * v) / of}%`;
    const layer = (url) => {
      const img = document.createElement("img");
      img.alt = "";
      img.style.cssText = `position:absolute;left:${pct(lx, w)};top:${pct(ly, h)};`
        + `width:${pct(lw, w)};height:${pct(lh, h)};pointer-events:none;`;
      if (url) img.src = url;
      return img;
    };
    const live = document.createElement("div");
    live.className = "bmc-sr-only";
    live.setAttribute("aria-live", "polite");
    live.setAttribute("aria-atomic", "true");
    el.append(controls.box, box, live);
    let canvas = null, ctx = null, picture = null, bgUrl = null, fgUrl = null;
    const ratio = window.devicePixelRatio || 1;
    if (mode === "png") {
      picture = layer(s.png);
      box.appendChild(picture);
    } else {
      bgUrl = blobUrl(model.get("background")); fgUrl = blobUrl(model.get("foreground"));
      canvas = document.createElement("canvas");
      canvas.width = Math.round(w * ratio); canvas.height = Math.round(h * ratio);
      canvas.style.cssText = "position:absolute;left:0;top:0;width:100%;height:100%;";
      box.appendChild(layer(bgUrl));
      box.appendChild(canvas);
      if (fgUrl) box.appendChild(layer(fgUrl));
      ctx = canvas.getContext("2d");
    }
    let pending = false, frames = 0, last = -1e9, spoken = s.description, timer = null;
    let fromAhead = 0;  // paints of a frame computed ahead (no round trip)
    const describe = (text) => {
      box.setAttribute("aria-label", text || "figure");
      if (text !== spoken) {
        clearTimeout(timer);
        timer = setTimeout(() => {  // once the values rest: one polite announcement
          spoken = text;
          live.textContent = text;
        }, ANNOUNCE_AFTER);
      }
    };
    const paint = () => {
      pending = false;
      last = performance.now();
      // the student's values: a frame computed ahead, else what the kernel sent last
      const ahead = ctx ? s.frameFor(s.local) : null;
      if (ctx) {
        ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
        draw(ctx, ahead ? ahead.all : s.items, clips);
      } else if (picture && s.png && picture.src !== s.png) {
        picture.src = s.png;
      }
      frames += 1;
      if (ahead) fromAhead += 1;
      describe(ahead ? ahead.description : s.description);
      el.dataset.ahead = String(fromAhead);
      el.dataset.version = String(s.version);
      el.dataset.frames = String(frames);
    };
    const view = {
      // Draw at once (the next paint shows it), unless this frame has been drawn already:
      // then once at the next animation frame, with everything that arrived meanwhile.
      schedule() {
        if (pending) return;
        if (performance.now() - last > 16) { paint(); return; }
        pending = true;
        requestAnimationFrame(paint);
      },
      busy() {  // for the tests: values the kernel has still to draw
        el.dataset.busy = (s.inflight !== null && s.kind !== "sweep") || s.pending
          || s.unsynced ? "1" : "0";
        el.dataset.held = String(s.held);  // frames computed ahead received so far
      },
      show(values) {  // the student's values, in this view's controls too
        for (const [name, show] of Object.entries(controls.inputs)) {
          if (name in values && values[name] !== showing[name]) {
            showing[name] = values[name];
            show(values[name]);
          }
        }
      },
      update() {  // the kernel answered or changed something: show the student's values
        view.show(s.local);
        view.schedule();
      },
    };
    s.views.add(view);
    view.busy();
    view.schedule();
    return () => {
      s.views.delete(view);
      if (!s.views.size) { s.sweeps.clear(); s.asked.clear(); s.done.clear(); }  // none shown
      clearTimeout(timer);
      for (const url of [bgUrl, fgUrl]) if (url) URL.revokeObjectURL(url);
    };
  },
};
