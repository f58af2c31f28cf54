// Cases for bmc/widgets/explorer.js's store and views under Node (tests/test_explorer_js.py):
// node explorer_cases.mjs <explorer.js copied as .mjs>. Prints one line per case; exits 1
// if any fails.
import {advance, element, find, model} from "./harness.mjs";

const W = (await import(process.argv[2])).default;
const range = (name, min, max, step) => ({name, label: name, kind: "range", min, max, step,
                                         decimals: 3, shown: 3, words: ""});
let uid = 0;
function open(values, controls, description = "kernel") {
  const m = model({uid: `u${++uid}`, scene: {}, state: {values, description}, controls,
                   mode: "canvas", size: [100, 100], clips: [], layer: [0, 0, 100, 100],
                   background: null, foreground: null, version: 0});
  W.initialize({model: m});
  return m;
}
function view(m) { const el = element("div"); W.render({model: m, el}); return el; }
const inputs = (el) => find(el, (e) => e.tag === "input");
const rows = (el) => find(el, (e) => (e.className || "").startsWith("bmc-row"));
const label = (el) => find(el, (e) => e.attrs.role === "img")[0].attrs["aria-label"];
const sets = (m) => m.sent.filter((c) => c.type === "set");
const sweeps = (m) => m.sent.filter((c) => c.type === "sweep");
function move(input, value) { input.value = String(value); input.fire("input"); }
function answer(m, ask, frames, extra = {}) {  // the kernel's answer to a sweep
  m.recv({type: "frames", seq: ask.seq, ctx: ask.ctx, at: ask.at,
          tried: ask.at.map((p) => p[0]), paths: [], frames, ...extra});
}

const cases = {
  "a second view of the explorer shows the values moved in the first"() {
    const m = open({phase: 0}, [range("phase", 0, 3, 0.1)]);
    const v1 = view(m), v2 = view(m);
    move(inputs(v1)[0], 0.7);
    const set = sets(m).at(-1);
    if (!set || set.values.phase !== 0.7) return "no set for 0.7";
    if (Number(inputs(v2)[0].value) !== 0.7) return `view 2's slider at ${inputs(v2)[0].value}`;
    m.recv({type: "patch", seq: set.seq, items: {}, paths: [], version: 1,
            values: {phase: 0.7}, description: "at 0.7"});
    advance(50);
    if (label(v2) !== "at 0.7") return `view 2's figure says ${label(v2)}`;
    if (!inputs(v2)[0].attrs["aria-valuetext"].startsWith("0.700")) return "view 2's value text";
    return "";
  },
  "values the kernel sets reach every view's controls"() {
    const m = open({phase: 0}, [range("phase", 0, 3, 0.1)]);
    const v1 = view(m), v2 = view(m);
    m.recv({type: "patch", seq: null, items: {}, paths: [], version: 1, values: {phase: 1.2},
            description: "at 1.2"});
    advance(50);
    const shown = [v1, v2].map((v) => Number(inputs(v)[0].value));
    return shown.every((x) => x === 1.2) ? "" : `the sliders show ${shown}`;
  },
  "a frame is used only at exactly the values it was computed for"() {
    // opened off the step (1.54 on a 0.05 step from 0.5; 0.171 on a 0.005 step from 0.05)
    const m = open({mass: 1.54, com: 0.171}, [range("mass", 0.5, 5, 0.05),
                                              range("com", 0.05, 0.432, 0.005)],
                   "kernel: 1.54, 0.171");
    const v = view(m);
    rows(v)[1].fire("pointerenter");  // the pointer rests on com
    const ask = sweeps(m).at(-1);
    if (!ask || ask.control !== "com") return "no sweep of com asked";
    if (ask.values.mass !== 1.54) return "the sweep's values are not the browser's";
    answer(m, ask, ask.at.map(([k, value]) => ({k, v: value, items: {},
                                                description: `frame at ${value}`})));
    m.recv({type: "patch", seq: null, items: {}, paths: [], version: 1});  // a paint
    advance(50);
    if (label(v) !== "kernel: 1.54, 0.171") return `0.171 drawn as ${label(v)}`;
    if (v.dataset.ahead !== "0") return "a frame computed at another value was painted";
    const before = sets(m).length;
    move(inputs(v)[1], 0.175);
    advance(20);
    if (label(v) !== "frame at 0.175") return `0.175 drawn as ${label(v)}`;
    if (v.dataset.ahead !== "1" || sets(m).length !== before) return "not drawn ahead";
    if (v.dataset.busy !== "1") return "the kernel has still to be told: busy";
    advance(400);  // the values rest: the kernel is told, once the sweep asked is answered
    const asked = sweeps(m).at(-1);
    if (asked !== ask) answer(m, asked, []);
    const set = sets(m).at(-1);
    if (sets(m).length !== before + 1 || set.values.com !== 0.175 || set.values.mass !== 1.54) {
      return `told ${JSON.stringify(set && set.values)}`;
    }
    return "";
  },
  "a sweep left unanswered is not asked again and the sets still go"() {
    const m = open({phase: 0}, [range("phase", 0, 3, 0.1)]);
    const v = view(m);
    rows(v)[0].fire("pointerenter");
    if (sweeps(m).length !== 1) return "no sweep asked";
    advance(3 * 4100);  // the answer never comes (a long cell, a dead kernel)
    if (sweeps(m).length !== 1) return `${sweeps(m).length} sweeps asked`;
    move(inputs(v)[0], 0.5);
    return sets(m).length === 1 && sets(m)[0].values.phase === 0.5 ? "" : "no set after it";
  },
  "an explorer that shows an error is asked nothing more until the kernel draws"() {
    const m = open({phase: 0}, [range("phase", 0, 3, 0.1)]);
    const v = view(m);
    rows(v)[0].fire("pointerenter");
    const ask = sweeps(m).at(-1);
    m.recv({type: "frames", seq: ask.seq, ctx: ask.ctx, at: ask.at, tried: [], paths: [],
            frames: [], later: true});
    advance(100);
    if (sweeps(m).length !== 1) return "asked again while the error shows";
    move(inputs(v)[0], 0.2);
    const set = sets(m).at(-1);
    m.recv({type: "patch", seq: set.seq, items: {}, paths: [], version: 1,
            values: {phase: 0.2}});
    advance(100);
    return sweeps(m).length === 2 ? "" : "not asked again after the kernel drew";
  },
  "the least recently used frames go first and the ones in use stay"() {
    const m = open({x: 0, y: 0}, [range("x", 0, 1, 0.1), range("y", 0, 3, 1)]);
    const v = view(m);
    const big = (mb) => ({line: {kind: "line", on: true, z: 1, ax: -1, lw: 1, pts: null}});
    const frame = (ctx, x, mb) => m.recv({
      type: "frames", seq: null, ctx, at: [[1, x]], tried: [1],
      paths: [[0, "items", "line", "pts"]], frames: [{k: 1, v: x, items: big(mb), description: ctx}],
    }, [new Float32Array(mb * 262144)]);
    const ctx = (y) => JSON.stringify(["x", [y]]);
    frame(ctx(0), 0.1, 1); frame(ctx(1), 0.1, 20); frame(ctx(2), 0.1, 20);
    frame(ctx(0), 0.2, 10);  // y = 0 used again: 51 MB in all, over the 48 kept
    move(inputs(v)[1], 1); move(inputs(v)[0], 0.1);  // at y = 1: its frames went
    advance(20);
    if (v.dataset.ahead !== "0") return "the least recently used frames were kept";
    move(inputs(v)[1], 0);  // at y = 0, x = 0.1: kept
    advance(20);
    if (v.dataset.ahead !== "1" || label(v) !== ctx(0)) return "the frames in use went";
    move(inputs(v)[1], 2);  // at y = 2: kept too
    advance(20);
    return v.dataset.ahead === "2" ? "" : "frames within the limit went";
  },
};

let failed = 0;
for (const [name, run] of Object.entries(cases)) {
  let problem;
  try { problem = run(); } catch (e) { problem = `raised ${e.stack}`; }
  if (problem) failed += 1;
  console.log(`${problem ? "FAIL" : "ok  "} ${name}${problem ? ": " + problem : ""}`);
}
process.exit(failed ? 1 : 0);
