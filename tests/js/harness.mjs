// A small stand-in for the page and the widget model, enough for explorer.js's
// initialize() and render() under Node: elements that keep attributes, listeners and
// children; a canvas context that accepts every call; a clock moved by hand.
let now = 0;
const timers = [];
globalThis.performance = {now: () => now};
globalThis.setTimeout = (f, ms = 0) => {
  const t = {at: now + ms, f, id: timers.length + 1};
  timers.push(t);
  return t.id;
};
globalThis.clearTimeout = (id) => {
  const i = timers.findIndex((t) => t.id === id);
  if (i >= 0) timers.splice(i, 1);
};
globalThis.requestAnimationFrame = (f) => setTimeout(f, 16);
// move the clock, running what falls due on the way, in order
export function advance(ms) {
  const end = now + ms;
  for (;;) {
    timers.sort((a, b) => a.at - b.at || a.id - b.id);
    if (!timers.length || timers[0].at > end) break;
    const t = timers.shift();
    now = t.at;
    t.f();
  }
  now = end;
}

function element(tag) {
  const e = {
    tag, children: [], dataset: {}, style: {}, attrs: {}, listeners: {}, value: "",
    className: "", checked: false, labels: [],
    classList: {add() {}},
    append(...c) { this.children.push(...c); },
    appendChild(c) { this.children.push(c); },
    setAttribute(k, v) { this.attrs[k] = String(v); },
    getAttribute(k) { return this.attrs[k]; },
    addEventListener(t, f) { (this.listeners[t] ||= []).push(f); },
    fire(t) { for (const f of this.listeners[t] || []) f(); },
    getContext() {
      return new Proxy({canvas: this}, {
        get: (o, k) => (k in o ? o[k] : () => ({width: 0})),
        set: (o, k, v) => { o[k] = v; return true; },
      });
    },
  };
  Object.defineProperty(e, "textContent", {get() { return this._t || ""; },
                                           set(v) { this._t = v; }});
  return e;
}
globalThis.document = {createElement: element, activeElement: null};
globalThis.window = {devicePixelRatio: 1};
globalThis.URL = {createObjectURL: () => "blob:", revokeObjectURL() {}};
globalThis.Blob = class {};

export function model(attrs) {
  const handlers = {};
  const sent = [];
  return {sent, get: (k) => attrs[k], on: (ev, f) => { handlers[ev] = f; },
          send: (c) => sent.push(c), recv: (msg, buffers) => handlers["msg:custom"](msg, buffers || [])};
}

export function find(root, pred, out = []) {
  if (pred(root)) out.push(root);
  for (const c of root.children || []) find(c, pred, out);
  return out;
}

export {element};
