"""Play a movement in the notebook: stick-figure poses drawn by the browser, frame by frame.

:func:`player` sends all poses to the browser once, as float32 data, and links an
``ipywidgets.Play`` and a frame slider to the drawing in the browser (``jslink``): playing,
pausing and scrubbing never wait for the kernel, so the animation runs at the requested rate
however busy the kernel is. On a static page the player shows the first frame as a PNG.

For assistive technology the drawing is an image whose accessible name says what it shows
(the title, the frame and its time), repeated by a polite live region once the frame rests;
the Play widget's icon buttons are named (Play or Pause, Stop, Loop, the loop button with
``aria-pressed``), and the frame slider is named by its label and read as "frame 4 of 61,
t = 0.050 s".
"""

from __future__ import annotations

from typing import Any

import anywidget
import numpy as np
import traitlets
from numpy.typing import ArrayLike

__all__ = ["PoseView", "player"]


def __dir__() -> list[str]:
    return sorted(__all__)

_ESM = r"""
export default {
  render({model, el}) {
    const [w, h] = model.get("size");
    const canvas = document.createElement("canvas");
    const ratio = window.devicePixelRatio || 1;
    canvas.width = Math.round(w * ratio); canvas.height = Math.round(h * ratio);
    canvas.style.cssText = `width:${w}px;max-width:100%;aspect-ratio:${w} / ${h};display:block;`;
    el.appendChild(canvas);
    const ctx = canvas.getContext("2d");
    let poses = null, times = null, path = null, pending = false, frames = 0;
    const load = () => {
      const p = model.get("poses"), t = model.get("times"), q = model.get("path");
      poses = new Float32Array(p.buffer.slice(p.byteOffset, p.byteOffset + p.byteLength));
      times = t && t.byteLength
        ? new Float64Array(t.buffer.slice(t.byteOffset, t.byteOffset + t.byteLength)) : null;
      path = q && q.byteLength
        ? new Float32Array(q.buffer.slice(q.byteOffset, q.byteOffset + q.byteLength)) : null;
    };
    const draw = () => {
      pending = false;
      const [nf, np_] = model.get("shape");
      const [x0, x1, y0, y1] = model.get("limits");
      const k = Math.max(0, Math.min(nf - 1, model.get("frame")));
      const scale = Math.min((w - 20) / (x1 - x0), (h - 30) / (y1 - y0));
      const ox = (w - scale * (x1 - x0)) / 2, oy = (h - 10 + scale * (y1 - y0)) / 2 + 10;
      const X = (x) => ox + (x - x0) * scale, Y = (y) => oy - (y - y0) * scale;
      ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
      ctx.clearRect(0, 0, w, h);
      ctx.strokeStyle = "#bbbbbb"; ctx.lineWidth = 1;
      ctx.strokeRect(X(x0), Y(y1), scale * (x1 - x0), scale * (y1 - y0));
      if (path) {  // the traced point's path up to this frame
        ctx.strokeStyle = "#666666"; ctx.lineWidth = 1.2; ctx.setLineDash([5, 4]);
        ctx.beginPath();
        let on = false;
        for (let f = 0; f <= k; f++) {
          const x = path[2 * f], y = path[2 * f + 1];
          if (Number.isNaN(x) || Number.isNaN(y)) { on = false; continue; }
          if (on) ctx.lineTo(X(x), Y(y)); else ctx.moveTo(X(x), Y(y));
          on = true;
        }
        ctx.stroke(); ctx.setLineDash([]);
      }
      const base = k * np_ * 2;
      ctx.strokeStyle = model.get("color"); ctx.lineWidth = 3; ctx.lineCap = "round";
      ctx.beginPath();
      for (const [i, j] of model.get("segments")) {
        const xi = poses[base + 2 * i], yi = poses[base + 2 * i + 1];
        const xj = poses[base + 2 * j], yj = poses[base + 2 * j + 1];
        if ([xi, yi, xj, yj].some(Number.isNaN)) continue;
        ctx.moveTo(X(xi), Y(yi)); ctx.lineTo(X(xj), Y(yj));
      }
      ctx.stroke();
      ctx.fillStyle = "#d62728";
      for (let i = 0; i < np_; i++) {
        const x = poses[base + 2 * i], y = poses[base + 2 * i + 1];
        if (Number.isNaN(x) || Number.isNaN(y)) continue;
        ctx.beginPath(); ctx.arc(X(x), Y(y), 3, 0, 2 * Math.PI); ctx.fill();
      }
      ctx.fillStyle = "#000000"; ctx.font = "13px DejaVu Sans, Arial, sans-serif";
      ctx.textBaseline = "top"; ctx.textAlign = "left";
      const label = times ? `t = ${times[k].toFixed(3)} s` : `frame ${k + 1} of ${nf}`;
      ctx.fillText(`${model.get("title")}  ${label}`.trim(), 8, 4);
      frames += 1;
      el.dataset.frame = String(k);
      el.dataset.frames = String(frames);
      name();
    };
    // --- what assistive technology gets ----------------------------------------------------
    canvas.setAttribute("role", "img");
    const live = document.createElement("div");
    live.setAttribute("aria-live", "polite");
    live.setAttribute("aria-atomic", "true");
    live.style.cssText = "position:absolute;width:1px;height:1px;overflow:hidden;"
      + "clip-path:inset(50%);white-space:nowrap;";
    el.appendChild(live);
    const frameText = () => {
      const [nf] = model.get("shape");
      const k = Math.max(0, Math.min(nf - 1, model.get("frame")));
      const when = times ? `, t = ${times[k].toFixed(3)} s` : "";
      return `frame ${k + 1} of ${nf}${when}`;
    };
    let spoken = "", timer = null;
    const name = () => {
      const title = model.get("title");
      const text = `${title ? title + ": " : ""}stick figure, ${frameText()}`;
      canvas.setAttribute("aria-label", text);
      clearTimeout(timer);
      timer = setTimeout(() => {  // once the frame rests (not at every frame of a play)
        if (text !== spoken) { spoken = text; live.textContent = text; }
      }, 700);
      nameControls();
    };
    const BUTTONS = {"fa-play": "Play", "fa-pause": "Pause", "fa-stop": "Stop",
                     "fa-retweet": "Loop", "fa-repeat": "Loop"};
    const nameControls = () => {  // the Play widget's icon buttons and the frame slider
      const root = el.closest(".bmc-player");
      if (!root) return;
      for (const button of root.querySelectorAll(".widget-play button")) {
        const icon = button.querySelector("i");
        const cls = icon ? Array.from(icon.classList).find((c) => c in BUTTONS) : null;
        const text = cls ? BUTTONS[cls] : "Play";
        if (button.getAttribute("aria-label") !== text) {
          button.setAttribute("aria-label", text);
          button.title = text;
        }
        // Enter and Space press the button, not JupyterLab's shortcuts (edit mode)
        if (!button.dataset.lmSuppressShortcuts) button.dataset.lmSuppressShortcuts = "true";
        if (text === "Loop") {
          const on = String(button.classList.contains("mod-active"));
          if (button.getAttribute("aria-pressed") !== on) button.setAttribute("aria-pressed", on);
        }
      }
      const slider = root.querySelector(".widget-slider");
      if (slider) {
        const label = slider.querySelector(".widget-label");
        const handle = slider.querySelector(".noUi-handle");
        const readout = slider.querySelector(".widget-readout");
        if (label && !label.id) label.id = `bmc-frame-${Math.random().toString(36).slice(2)}`;
        if (label && label.getAttribute("title") === "null") label.removeAttribute("title");
        if (handle && label && handle.getAttribute("aria-labelledby") !== label.id) {
          handle.setAttribute("aria-labelledby", label.id);
          handle.dataset.lmSuppressShortcuts = "true";
        }
        if (handle && handle.getAttribute("aria-valuetext") !== frameText()) {
          handle.setAttribute("aria-valuetext", frameText());
        }
        if (readout && !readout.getAttribute("role")) {
          readout.setAttribute("role", "textbox");
          readout.setAttribute("aria-label", "frame number");
        }
      }
    };
    const watcher = new MutationObserver(() => nameControls());
    const attach = () => {  // the controls render beside this view, possibly after it
      const root = el.closest(".bmc-player");
      if (!root) { requestAnimationFrame(attach); return; }
      nameControls();
      watcher.observe(root, {subtree: true, childList: true, attributes: true,
                             attributeFilter: ["class", "aria-valuetext"]});
    };
    attach();
    const schedule = () => { if (!pending) { pending = true; requestAnimationFrame(draw); } };
    load(); schedule();
    model.on("change:frame", schedule);
    model.on("change:poses", () => { load(); schedule(); });
    return () => { watcher.disconnect(); clearTimeout(timer); };
  },
};
"""


class PoseView(anywidget.AnyWidget):
    """Stick-figure poses drawn in the browser; ``frame`` selects the one shown.

    Build it with :func:`player`, which validates the data and adds the controls.
    """

    _esm = _ESM
    poses = traitlets.Bytes(b"").tag(sync=True)  # float32, (n_frames, n_points, 2) [m]
    times = traitlets.Bytes(b"").tag(sync=True)  # float64, (n_frames,) [s], or empty
    path = traitlets.Bytes(b"").tag(sync=True)  # float32, (n_frames, 2) [m], or empty
    shape = traitlets.List(traitlets.Int(), [0, 0]).tag(sync=True)
    segments = traitlets.List([]).tag(sync=True)
    limits = traitlets.List(traitlets.Float(), [0.0, 1.0, 0.0, 1.0]).tag(sync=True)
    size = traitlets.List(traitlets.Int(), [480, 360]).tag(sync=True)
    color = traitlets.Unicode("#1f77b4").tag(sync=True)
    title = traitlets.Unicode("").tag(sync=True)
    frame = traitlets.Int(0).tag(sync=True)


def _validated(poses: ArrayLike, segments: Any, times: ArrayLike | None,
               path: ArrayLike | None = None):
    from bmc._validation import as_array, integer

    poses = as_array(poses, "poses", unit="m", finite=False)  # NaN: a point left out
    if poses.ndim != 3 or poses.shape[2] != 2 or poses.shape[0] < 1 or poses.shape[1] < 1:
        raise ValueError(
            "poses must be an array of shape (n_frames, n_points, 2) with x, y positions "
            f"[m]; got shape {poses.shape}. Stack the frames on axis 0.")
    n_frames, n_points = poses.shape[:2]
    if not np.isfinite(poses).any():
        raise ValueError("poses holds no finite position [m]; nothing to draw")
    if segments is None:
        segments = [(i, i + 1) for i in range(n_points - 1)]
    if isinstance(segments, (str, bytes)):
        raise TypeError(f"segments must be pairs (i, j) of point indices; got {segments!r}")
    pairs = [tuple(integer(v, "segments", what="a point index") for v in pair)
             for pair in segments]
    bad = [pair for pair in pairs if len(pair) != 2 or not all(0 <= v < n_points for v in pair)]
    if bad:
        raise ValueError(
            f"segments must be pairs (i, j) of point indices in [0, {n_points - 1}]; got "
            f"{bad[:3]}")
    if times is not None:
        times = as_array(times, "times", unit="s")
        if times.shape != (n_frames,):
            raise ValueError(f"times must have shape ({n_frames},) [s], one per frame; got "
                             f"{times.shape}")
    if path is not None:
        path = as_array(path, "path", unit="m", finite=False)  # NaN: a gap
        if path.shape != (n_frames, 2):
            raise ValueError(f"path must have shape ({n_frames}, 2), a position x, y [m] per "
                             f"frame; got {path.shape}")
    return poses, pairs, times, path


def _limits(poses: np.ndarray, margin: float, path: np.ndarray | None = None) -> list[float]:
    if path is not None:
        poses = np.concatenate([poses.reshape(-1, 2), path])
    x, y = poses[..., 0], poses[..., 1]
    x0, x1, y0, y1 = np.nanmin(x), np.nanmax(x), np.nanmin(y), np.nanmax(y)
    pad = margin * max(x1 - x0, y1 - y0, 1e-3)
    return [float(x0 - pad), float(x1 + pad), float(y0 - pad), float(y1 + pad)]


def _static_figure(poses, pairs, limits, title, frame: int):
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(4.8, 3.6))
    pose = poses[frame]
    for i, j in pairs:
        ax.plot(pose[[i, j], 0], pose[[i, j], 1], color="C0", lw=3, solid_capstyle="round")
    ax.plot(pose[:, 0], pose[:, 1], "o", color="C3", ms=4)
    ax.set_xlim(limits[0], limits[1])
    ax.set_ylim(limits[2], limits[3])
    ax.set_aspect("equal")
    ax.set_xlabel("x [m]")
    ax.set_ylabel("y [m]")
    if title:
        ax.set_title(title)
    return fig


def player(
    poses: ArrayLike,
    segments: Any = None,
    *,
    fps: float = 30.0,
    times: ArrayLike | None = None,
    title: str = "",
    path: ArrayLike | None = None,
    margin: float = 0.05,
    size: tuple[int, int] = (480, 360),
    interactive: bool = True,
):
    """Play stick-figure poses in the browser with a Play button and a frame slider.

    Parameters
    ----------
    poses : array_like, shape (n_frames, n_points, 2)
        Positions x, y of the points in every frame [m]; NaN leaves a point (and its
        segments) out of that frame.
    segments : sequence of (int, int), optional
        Point index pairs drawn as segments; default: consecutive points, a chain.
    fps : float, optional
        Playback rate [frames/s] (keyword-only). Default 30.
    times : array_like, shape (n_frames,), optional
        Time of each frame [s], shown above the figure; default: the frame number.
    title : str, optional
        Text shown before the time.
    path : array_like, shape (n_frames, 2), optional
        Positions x, y of a traced point [m]: its path so far is drawn dashed under the
        poses; NaN leaves a gap. Default: no path.
    margin : float, optional
        Space around the poses as a fraction of their largest extent [-]. Default 0.05.
    size : (int, int), optional
        Width and height of the drawing [px]. Default (480, 360).
    interactive : bool, optional
        Return the player (default) or, if ``False``, a Matplotlib figure of the first
        frame (scripts, tests, static pages).

    Returns
    -------
    ipywidgets.VBox or matplotlib.figure.Figure
        The player (its ``view`` attribute is the :class:`PoseView`), or the figure.

    Examples
    --------
    >>> t = np.linspace(0, 1, 31)
    >>> arm = np.stack([np.zeros((31, 2)), np.column_stack([np.cos(t), np.sin(t)])], axis=1)
    >>> box = player(arm, fps=30, times=t)  # doctest: +SKIP
    """
    import base64
    import io

    import ipywidgets as widgets
    import matplotlib.pyplot as plt

    from bmc._validation import flag, integer, positive

    poses, pairs, times, path = _validated(poses, segments, times, path)
    fps = positive(fps, "fps", unit="frames/s")
    interactive = flag(interactive, "interactive")
    margin = positive(margin, "margin", allow_zero=True)
    if isinstance(size, (str, bytes)) or np.ndim(size) != 1 or len(size) != 2:
        raise TypeError(f"size must be (width, height) in pixels; got {size!r}")
    size = tuple(integer(v, "size", minimum=1, maximum=4000, what="pixels") for v in size)
    if not isinstance(title, str):
        raise TypeError(f"title must be text (str); got {type(title).__name__} {title!r}")
    limits = _limits(poses, margin, path)
    fig = _static_figure(poses, pairs, limits, title, 0)
    if not interactive:
        return fig
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", bbox_inches="tight")
    plt.close(fig)
    static = buffer.getvalue()
    n_frames, n_points = poses.shape[:2]
    view = PoseView(
        poses=poses.astype(np.float32).tobytes(),
        times=b"" if times is None else times.astype(np.float64).tobytes(),
        path=b"" if path is None else path.astype(np.float32).tobytes(),
        shape=[n_frames, n_points], segments=[list(p) for p in pairs], limits=limits,
        size=[int(size[0]), int(size[1])], title=title,
    )
    play = widgets.Play(value=0, min=0, max=n_frames - 1, step=1,
                        interval=max(1, int(round(1000.0 / fps))), description="play")
    slider = widgets.IntSlider(value=0, min=0, max=n_frames - 1, description="frame")
    widgets.jslink((play, "value"), (slider, "value"))
    widgets.jslink((slider, "value"), (view, "frame"))

    class Player(widgets.VBox):
        """The player; on a static page, the first frame."""

        def _repr_mimebundle_(self, **kwargs: Any) -> dict:
            data = super()._repr_mimebundle_(**kwargs)
            data["image/png"] = base64.b64encode(static).decode("ascii")
            return data

    box = Player([widgets.HBox([play, slider]), view])
    box.add_class("bmc-player")
    box.add_class("bmc-explorer")  # the browser tests move its frame slider like any other
    box.view = view
    return box
