"""The browser side of the explorers: an anywidget that draws a figure's items on a canvas.

:class:`FigureView` shows a :class:`bmc.widgets._scene.Scene`: the background PNG, a
``<canvas>`` on which the browser draws the changing items (lines, texts, ticks, patches,
arrows) from data, and the foreground PNG (legends) on top. The kernel sends only the items
that changed (:meth:`FigureView.apply`); the browser merges them and redraws at once, or,
when it has drawn within the last frame already, at the next animation frame, so a burst of
messages costs one paint per frame. After each paint the view's element
carries ``data-version`` (the last kernel version drawn) and ``data-frames`` (paints so far),
which the browser tests and the latency benchmark read.
"""

from __future__ import annotations

from typing import Any

import anywidget
import traitlets

__all__ = ["FigureView"]


def __dir__() -> list[str]:
    return sorted(__all__)

# The renderer. Items are in canvas pixels (origin top left); see _scene.py for their fields.
_ESM = r"""
const stores = new Map();  // model id -> {items, version, views}

function store(model) {
  const key = model.get("uid");
  if (!stores.has(key)) {
    stores.set(key, {items: {...model.get("scene")}, version: model.get("version"),
                     views: new Set()});
    model.on("msg:custom", (msg) => {
      const s = stores.get(key);
      if (!msg || msg.type !== "patch") return;
      for (const [id, item] of Object.entries(msg.items)) {
        if (item === null) delete s.items[id]; else s.items[id] = item;
      }
      s.version = msg.version;
      for (const view of s.views) view.schedule();
    });
  }
  return stores.get(key);
}

function pngUrl(view) {
  if (!view || view.byteLength === 0) return null;
  const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  return URL.createObjectURL(new Blob([bytes], {type: "image/png"}));
}

function polyline(ctx, pts) {
  let pen = false;
  for (let i = 0; i + 1 < pts.length; i += 2) {
    const x = pts[i], y = pts[i + 1];
    if (x === null || y === null) { pen = false; continue; }
    if (pen) ctx.lineTo(x, y); else { ctx.moveTo(x, y); pen = true; }
  }
}

function drawLine(ctx, it) {
  const pts = it.pts;
  if (it.lw > 0) {
    ctx.beginPath();
    polyline(ctx, pts);
    ctx.strokeStyle = it.color; ctx.lineWidth = it.lw;
    ctx.setLineDash(it.dash || []);
    ctx.lineJoin = "round"; ctx.lineCap = it.dash && it.dash.length ? "butt" : "round";
    ctx.stroke();
    ctx.setLineDash([]);
  }
  if (it.ms) {
    ctx.fillStyle = it.mfc; ctx.strokeStyle = it.mec; ctx.lineWidth = 1;
    for (let i = 0; i + 1 < pts.length; i += 2) {
      if (pts[i] === null || pts[i + 1] === null) continue;
      ctx.beginPath(); ctx.arc(pts[i], pts[i + 1], it.ms / 2, 0, 2 * Math.PI);
      ctx.fill(); ctx.stroke();
    }
  }
}

function drawPoly(ctx, it) {
  for (const pts of it.pts) {
    ctx.beginPath(); polyline(ctx, pts); ctx.closePath();
    if (it.fill) { ctx.fillStyle = it.fill; ctx.fill(); }
    if (it.lw > 0) { ctx.strokeStyle = it.edge; ctx.lineWidth = it.lw; ctx.stroke(); }
  }
}

function drawArrows(ctx, it) {
  const w = Math.max(it.width, 1), hw = it.head[0] * w / 2, hl = it.head[1] * w;
  for (let i = 0; 2 * i + 1 < it.from.length; i++) {
    const x0 = it.from[2 * i], y0 = it.from[2 * i + 1];
    const x1 = it.to[2 * i], y1 = it.to[2 * i + 1];
    if ([x0, y0, x1, y1].includes(null)) continue;
    const len = Math.hypot(x1 - x0, y1 - y0);
    if (len < 1e-6) continue;
    const ux = (x1 - x0) / len, uy = (y1 - y0) / len, head = Math.min(hl, len);
    const bx = x1 - ux * head, by = y1 - uy * head;
    ctx.fillStyle = it.colors[i % it.colors.length];
    ctx.beginPath();
    ctx.moveTo(x0 - uy * w / 2, y0 + ux * w / 2); ctx.lineTo(bx - uy * w / 2, by + ux * w / 2);
    ctx.lineTo(bx - uy * hw, by + ux * hw); ctx.lineTo(x1, y1);
    ctx.lineTo(bx + uy * hw, by - ux * hw); ctx.lineTo(bx + uy * w / 2, by - ux * w / 2);
    ctx.lineTo(x0 + uy * w / 2, y0 - ux * w / 2); ctx.closePath(); ctx.fill();
  }
}

const BASELINE = {top: "top", bottom: "bottom", center: "middle", baseline: "alphabetic",
                  center_baseline: "middle"};

function font(size, family, weight) {
  const fam = family === "monospace" ? "DejaVu Sans Mono, monospace"
    : family === "serif" ? "DejaVu Serif, serif" : "DejaVu Sans, Arial, sans-serif";
  const bold = weight === "bold" || Number(weight) >= 600 ? "bold " : "";
  return `${bold}${size}px ${fam}`;
}

function drawText(ctx, it) {
  const lines = String(it.t).split("\n");
  const step = it.size * it.spacing;
  ctx.save();
  ctx.translate(it.x, it.y);
  if (it.rot) ctx.rotate(-it.rot * Math.PI / 180);
  ctx.font = font(it.size, it.family, it.weight);
  ctx.fillStyle = it.color;
  ctx.textAlign = it.ha === "center" ? "center" : it.ha === "right" ? "right" : "left";
  let y0 = 0;
  const extra = (lines.length - 1) * step;
  if (it.va === "center" || it.va === "center_baseline") y0 = -extra / 2;
  else if (it.va === "bottom" || it.va === "baseline") y0 = -extra;
  ctx.textBaseline = BASELINE[it.va] || "alphabetic";
  lines.forEach((line, k) => ctx.fillText(line, 0, y0 + k * step));
  ctx.restore();
}

function drawTicks(ctx, it, clip) {
  const s = it.style, [x, y, w, h] = clip;
  const out = s.dir === "out" ? 1 : s.dir === "inout" ? 0.5 : 0;
  ctx.save();
  if (s.grid) {
    ctx.strokeStyle = s.gridcolor; ctx.lineWidth = s.gridwidth; ctx.beginPath();
    for (const p of it.major) {
      if (it.axis === "x") { ctx.moveTo(p, y); ctx.lineTo(p, y + h); }
      else { ctx.moveTo(x, p); ctx.lineTo(x + w, p); }
    }
    ctx.stroke();
  }
  if (s.on) {
    ctx.strokeStyle = s.color; ctx.lineWidth = s.width; ctx.beginPath();
    for (const [list, len] of [[it.major, s.size], [it.minor, s.minor]]) {
      for (const p of list) {
        if (it.axis === "x") {
          ctx.moveTo(p, y + h - len * (1 - out)); ctx.lineTo(p, y + h + len * out);
        } else { ctx.moveTo(x + len * (1 - out), p); ctx.lineTo(x - len * out, p); }
      }
    }
    ctx.stroke();
  }
  if (s.label) {
    ctx.font = font(s.font, s.family, "normal"); ctx.fillStyle = s.fontcolor;
    const gap = (s.on ? s.size * out : 0) + s.pad;
    it.major.forEach((p, k) => {
      if (it.axis === "x") {
        ctx.textAlign = "center"; ctx.textBaseline = "top";
        ctx.fillText(it.labels[k], p, y + h + gap);
      } else {
        ctx.textAlign = "right"; ctx.textBaseline = "middle";
        ctx.fillText(it.labels[k], x - gap, p);
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

function draw(ctx, s, clips) {
  ctx.clearRect(0, 0, ctx.canvas.width, ctx.canvas.height);
  const groups = new Map();
  for (const [id, it] of Object.entries(s.items)) {
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
      else if (it.kind === "arrows") drawArrows(ctx, it);
      else if (it.kind === "text") drawText(ctx, it);
      else if (it.kind === "ticks") drawTicks(ctx, it, clip);
      ctx.restore();
    }
  }
}

export default {
  initialize({model}) { store(model); },
  render({model, el}) {
    const s = store(model);
    const [w, h] = model.get("size");
    const clips = model.get("clips");
    const box = document.createElement("div");
    box.className = "bmc-figure";
    box.style.cssText =
      `position:relative;width:${w}px;max-width:100%;aspect-ratio:${w} / ${h};`;
    const [lx, ly, lw, lh] = model.get("layer");
    const pct = (v, of) => `${(100 * v) / of}%`;
    const layer = (url) => {
      const img = document.createElement("img");
      img.style.cssText = `position:absolute;left:${pct(lx, w)};top:${pct(ly, h)};`
        + `width:${pct(lw, w)};height:${pct(lh, h)};pointer-events:none;`;
      if (url) img.src = url;
      return img;
    };
    const bgUrl = pngUrl(model.get("background")), fgUrl = pngUrl(model.get("foreground"));
    const canvas = document.createElement("canvas");
    const ratio = window.devicePixelRatio || 1;
    canvas.width = Math.round(w * ratio); canvas.height = Math.round(h * ratio);
    canvas.style.cssText = "position:absolute;left:0;top:0;width:100%;height:100%;";
    box.appendChild(layer(bgUrl));
    box.appendChild(canvas);
    if (fgUrl) box.appendChild(layer(fgUrl));
    el.appendChild(box);
    const ctx = canvas.getContext("2d");
    let pending = false, frames = 0, last = -1e9;
    const paint = () => {
      pending = false;
      last = performance.now();
      ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
      draw(ctx, s, clips);
      frames += 1;
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
    };
    s.views.add(view);
    view.schedule();
    return () => {
      s.views.delete(view);
      for (const url of [bgUrl, fgUrl]) if (url) URL.revokeObjectURL(url);
    };
  },
};
"""

_CSS = """
.bmc-figure canvas { display: block; }
"""


class FigureView(anywidget.AnyWidget):
    """A figure drawn in the browser from a :class:`~bmc.widgets._scene.Scene`.

    Parameters
    ----------
    scene : bmc.widgets._scene.Scene
        The figure, split into layers and items; its current items are sent at once.
    """

    _esm = _ESM
    _css = _CSS
    uid = traitlets.Unicode("").tag(sync=True)
    size = traitlets.List(traitlets.Int(), [0, 0]).tag(sync=True)
    clips = traitlets.List([]).tag(sync=True)
    layer = traitlets.List(traitlets.Int(), [0, 0, 0, 0]).tag(sync=True)
    background = traitlets.Bytes(b"").tag(sync=True)
    foreground = traitlets.Bytes(b"").tag(sync=True)
    scene = traitlets.Dict({}).tag(sync=True)
    version = traitlets.Int(0).tag(sync=True)

    def __init__(self, scene: Any, **kwargs: Any) -> None:
        import uuid

        super().__init__(
            uid=uuid.uuid4().hex, size=[scene.width, scene.height], clips=scene.clips,
            layer=scene.layer,
            background=scene.background, foreground=scene.foreground,
            scene=scene.changes(), **kwargs,
        )
        self._scene = scene
        self.sent_items = 0  # items sent after the first state (for tests and benchmarks)
        self.patches = 0  # patches sent; the browser shows the last one drawn as data-version

    def apply(self) -> dict[str, Any]:
        """Send the items that changed since the last call; return them (empty: nothing)."""
        changed = self._scene.changes()
        if not changed:
            return changed
        # The synced trait keeps the full current scene for views created later (e.g. after
        # a page reload); it is updated in place, so that only the patch goes over the wire.
        current = self.scene
        for key, item in changed.items():
            if item is None:
                current.pop(key, None)
            else:
                current[key] = item
        self.sent_items += len(changed)
        self.patches += 1
        self.send({"type": "patch", "items": changed, "version": self.patches})
        return changed
