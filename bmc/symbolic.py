"""Symbolic equations of motion of planar chains, derived with SymPy.

The derivations follow the two-link notebook: write each segment's Newton-Euler
equations, eliminate the joint reaction forces from the distal segment inward, and collect
the joint torques into ``tau = M qdd + C + G + E``. A second, independent derivation with
``sympy.physics.mechanics.LagrangesMethod`` is used to check the first
(:func:`lagrange_equations`, :func:`symbolically_equal`).

Notation (the notebook's): link ``k`` has length ``L_k``, joint-to-centre-of-mass distance
``d_k``, mass ``m_k`` and moment of inertia ``I_k`` about its centre of mass; ``g`` is
gravity (acting along -y); ``(F_ex, F_ey)`` is a force on the endpoint. Joint coordinates
``alpha_k`` are those of :class:`bmc.chain.PlanarChain` (``alpha_1`` from the horizontal,
the others relative); segment coordinates ``varphi_k`` are absolute angles from the
forward horizontal.

:func:`broadcast_lambdify` turns a SymPy matrix into a NumPy function of arrays of frames.
Plain ``sympy.lambdify`` of a matrix whose entries are partly constant (``I_2 + m_2 d_2^2``)
and partly arrays builds a ragged nested list, which NumPy >= 1.24 refuses ("setting an
array element with a sequence ... inhomogeneous shape"); this version broadcasts every entry
to the common shape first.

This module imports SymPy; it loads only when used (``bmc.symbolic``), and
``sympy.physics.mechanics`` (slow to import) only inside :func:`lagrange_equations`.
:func:`latex` writes time derivatives with dots, as ``sympy.physics.vector.vlatex`` does,
without importing ``sympy.physics`` (whose units package alone takes about as long to import
as SymPy itself).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import sympy as sp
from sympy.core.function import AppliedUndef
from sympy.printing.latex import LatexPrinter
from sympy.simplify.fu import TR8

from bmc import constants
from bmc._validation import flag
from bmc._validation import sympy_object as _sympy

__all__ = [
    "Derivation",
    "broadcast_lambdify",
    "decompose",
    "lagrange_equations",
    "latex",
    "newton_euler_equations",
    "one_link",
    "symbolically_equal",
    "tidy",
    "two_link",
]


def __dir__() -> list[str]:
    return sorted(__all__)

t = sp.Symbol("t")


class _DotPrinter(LatexPrinter):
    """LaTeX with ``q(t)`` printed as ``q`` and its time derivatives as dots."""

    def _print_Function(self, expr, exp=None):
        if isinstance(expr, AppliedUndef) and expr.args == (t,):
            name = self._print(sp.Symbol(expr.func.__name__))
            return name if exp is None else f"{name}^{{{exp}}}"
        return super()._print_Function(expr, exp)

    def _print_Derivative(self, expr):
        f, variables = expr.expr, expr.variable_count
        if (isinstance(f, AppliedUndef) and f.args == (t,) and len(variables) == 1
                and variables[0][0] == t and variables[0][1] <= 4):
            dots = {1: r"\dot", 2: r"\ddot", 3: r"\dddot", 4: r"\ddddot"}[variables[0][1]]
            name = self._print(sp.Symbol(f.func.__name__))
            # a subscript goes outside the accent: \dot{\alpha}_{1}
            base, _, sub = name.partition("_")
            return f"{dots}{{{base}}}" + (f"_{sub}" if sub else "")
        return super()._print_Derivative(expr)

    def parenthesize_super(self, s):  # (q')^2 prints as \dot{q}^{2}, as vlatex does
        return s


def latex(expr) -> str:
    r"""Write a SymPy expression as LaTeX with time derivatives as dots.

    Functions of the time symbol ``t`` print without ``(t)``, and their time derivatives up
    to the fourth with ``\dot``, ``\ddot``, ...: the notation of
    ``sympy.physics.vector.vlatex``, without importing ``sympy.physics``.

    Parameters
    ----------
    expr : sympy.Basic
        An expression or matrix (or a list of them), with coordinates as functions of
        ``sympy.Symbol("t")``; never text (refused with a TypeError, as parsing it would
        run it as Python).

    Returns
    -------
    str
        LaTeX, for ``IPython.display.Math``.

    Examples
    --------
    >>> a = sp.Function("alpha_1")(t)
    >>> print(latex(a.diff(t, 2) + a.diff(t) ** 2 * sp.sin(a)))
    \sin{\left(\alpha_{1} \right)} \dot{\alpha}_{1}^{2} + \ddot{\alpha}_{1}
    """
    if isinstance(expr, (list, tuple)):  # a list prints as one, not as a column Matrix
        return _DotPrinter().doprint([_sympy(e, f"expr[{i}]") for i, e in enumerate(expr)])
    return _DotPrinter().doprint(_sympy(expr, "expr"))


def _cross(r: sp.Matrix, f: sp.Matrix) -> sp.Expr:
    """z-component of the planar cross product ``r x f``."""
    return r[0] * f[1] - r[1] * f[0]


def _unit(angle: sp.Expr) -> sp.Matrix:
    return sp.Matrix([sp.cos(angle), sp.sin(angle)])


def _plain(q: Sequence) -> tuple[dict, dict]:
    """Map ``q(t)`` and its derivatives to plain symbols, and back."""
    if isinstance(q, (str, bytes)) or not hasattr(q, "__iter__"):
        raise TypeError("q must be a sequence of the coordinates q(t) (sympy functions of t); "
                        f"got {type(q).__name__} {q!r}")
    forward = {}
    for i, v in enumerate(q):
        if not isinstance(v, sp.Basic):
            raise TypeError(f"q[{i}] must be a coordinate q(t) (a sympy function of t); got "
                            f"{type(v).__name__} {v!r}")
        forward[v.diff(t, 2)] = sp.Dummy(f"qdd{i}")
        forward[v.diff(t)] = sp.Dummy(f"qd{i}")
        forward[v] = sp.Dummy(f"q{i}")
    return forward, {b: a for a, b in forward.items()}


def tidy(expr: sp.Expr | sp.Matrix, q: Sequence, *, factor: bool = False):
    """Bring an equation-of-motion expression to a canonical, simplified form, fast.

    The terms of planar equations of motion are products of sines and cosines of the
    angles times parameters, velocities and accelerations. Expanding, turning every product
    of trigonometric functions into a sum (``cos a cos b = (cos(a-b) + cos(a+b)) / 2``,
    SymPy's ``TR8``) and expanding again gives a canonical sum in which
    ``sin^2 + cos^2 = 1`` and the other identities have already cancelled. This takes a
    fraction of a second where ``sympy.simplify`` takes tens of seconds for two links.

    Parameters
    ----------
    expr : sympy.Expr or sympy.Matrix
        Expression in ``q(t)`` and its time derivatives.
    q : sequence of sympy.Function
        Generalised coordinates.
    factor : bool, optional
        Factor the result (for display: ``g (...)``, ``L_1 d_2 m_2 sin(alpha_2) (...)``).

    Returns
    -------
    sympy.Expr or sympy.Matrix
        The same quantity, simplified.
    """
    factor = flag(factor, "factor")
    if isinstance(q, (str, bytes)) or not hasattr(q, "__iter__"):
        raise TypeError(f"q must be a sequence of the coordinates q(t) (sympy functions of t); "
                        f"got {type(q).__name__}")
    expr = _sympy(expr, "expr")
    for i, v in enumerate(q):
        if not isinstance(v, sp.Basic):
            raise TypeError(f"q[{i}] must be a coordinate q(t) (a sympy function of t); got "
                            f"{type(v).__name__} {v!r}")
    forward, back = _plain(q)
    return _canonical(expr.xreplace(forward), factor=factor).xreplace(back)


def _canonical(expr, *, factor: bool = False):
    """:func:`tidy` on an expression (or matrix) in plain symbols."""

    def one(e: sp.Expr) -> sp.Expr:
        e = sp.expand(TR8(sp.expand(e)))
        return sp.factor_terms(sp.factor(e)) if factor else e

    if isinstance(expr, sp.MatrixBase):
        return expr.applyfunc(one)
    return one(expr)


def _ddt(expr, q: Sequence, qd: Sequence, qdd: Sequence):
    """Time derivative of an expression in plain symbols by the chain rule."""
    out = 0
    for a, b in ((q, qd), (qd, qdd)):
        for x, xd in zip(a, b, strict=True):
            out = out + sp.diff(expr, x) * xd
    return out


@dataclass
class Derivation:
    """Equations of motion of a planar chain and their ``M, C, G, E`` decomposition.

    Attributes
    ----------
    n : int
        Number of links.
    coordinates : str
        ``"joint"`` (``alpha``, relative angles) or ``"segment"`` (``varphi``, absolute).
    method : str
        How the equations were obtained.
    q : tuple of sympy.Function
        Generalised coordinates (functions of ``t``) [rad].
    L, d, m, I : tuple of sympy.Symbol
        Lengths [m], joint-to-COM distances [m], masses [kg], inertias about the COM
        [kg m^2].
    g : sympy.Symbol
        Gravitational acceleration [m/s^2].
    F : tuple of sympy.Symbol
        ``(F_ex, F_ey)``, the force on the endpoint [N].
    tau : sympy.Matrix, shape (n, 1)
        The generalised forces [N m]: joint torques for joint coordinates; for segment
        coordinates the net joint moment on each segment, ``T_k - T_{k+1}``.
    M, C, G, E : sympy.Matrix
        ``tau = M qdd + C + G + E``: mass matrix (n, n), centripetal and Coriolis terms,
        gravity terms and external-force terms (n, 1).
    com : list of sympy.Matrix
        Centre-of-mass positions ``(x, y)`` of the links [m].
    reactions : list of sympy.Matrix
        Newton-Euler only: force on each link at its proximal joint from the link before
        (or the base) [N].
    """

    n: int
    coordinates: str
    method: str
    q: tuple
    L: tuple
    d: tuple
    m: tuple
    I: tuple  # noqa: E741 - the notebook's symbol for inertia
    g: sp.Symbol
    F: tuple
    tau: sp.Matrix
    M: sp.Matrix = field(init=False)
    C: sp.Matrix = field(init=False)
    G: sp.Matrix = field(init=False)
    E: sp.Matrix = field(init=False)
    com: list = field(default_factory=list)
    reactions: list = field(default_factory=list)
    simplify: bool = True

    def __post_init__(self) -> None:
        self.M, self.C, self.G, self.E = decompose(
            self.tau, self.q, self.g, self.F, simplify=self.simplify
        )

    @property
    def qd(self) -> tuple:
        """Generalised velocities [rad/s]."""
        return tuple(v.diff(t) for v in self.q)

    @property
    def qdd(self) -> tuple:
        """Generalised accelerations [rad/s^2]."""
        return tuple(v.diff(t, 2) for v in self.q)

    def parameters(
        self,
        lengths: Sequence[float],
        com: Sequence[float],
        masses: Sequence[float],
        inertias: Sequence[float],
        g: float = constants.G,
    ) -> dict:
        """Return a substitution dictionary for numerical parameter values (SI units)."""
        from bmc._validation import as_array, gravity

        values = {}
        for name, syms, vals, unit, zero in (
                ("lengths", self.L, lengths, "m", False), ("com", self.d, com, "m", True),
                ("masses", self.m, masses, "kg", False),
                ("inertias", self.I, inertias, "kg m^2", True)):
            arr = np.atleast_1d(as_array(vals, name, unit=unit))
            if arr.shape != (self.n,):
                raise ValueError(f"{name} [{unit}] must have {self.n} value(s), one per link; "
                                 f"got shape {np.shape(vals)}")
            if np.any(arr < 0) or (not zero and np.any(arr == 0)):
                need = "non-negative" if zero else "positive"
                raise ValueError(f"{name} [{unit}] must all be {need}; got {arr.tolist()}")
            values.update(zip(syms, arr.tolist(), strict=True))
        values[self.g] = gravity(g)
        return values


def _symbols(n: int) -> tuple:
    def many(name: str, **kw) -> tuple:
        if n == 1:
            return (sp.Symbol(name, **kw),)
        return tuple(sp.Symbol(f"{name}_{k + 1}", **kw) for k in range(n))

    lengths = many("L", positive=True)
    com = many("d", positive=True)
    masses = many("m", positive=True)
    inertias = many("I", positive=True)
    g = sp.Symbol("g", positive=True)
    force = sp.symbols("F_ex F_ey")
    return lengths, com, masses, inertias, g, force


def _coordinates(n: int, coordinates: str) -> tuple[tuple, list]:
    """Generalised coordinates and the absolute angle of each segment."""
    if coordinates not in ("joint", "segment"):
        raise ValueError(f'coordinates must be "joint" or "segment"; got {coordinates!r}')
    base = "alpha" if coordinates == "joint" else "varphi"
    names = [base] if n == 1 else [f"{base}{k + 1}" for k in range(n)]
    q = tuple(sp.Function(name)(t) for name in names)  # as mechanics.dynamicsymbols
    if coordinates == "joint":
        phi = [sum(q[: k + 1]) for k in range(n)]
    else:
        phi = list(q)
    return q, phi


def _geometry(phi: list, lengths: tuple, com: tuple) -> tuple[list, list, sp.Matrix]:
    """Joint positions, COM positions and the endpoint of the chain."""
    joints = [sp.zeros(2, 1)]
    coms = []
    for k, angle in enumerate(phi):
        coms.append(joints[k] + com[k] * _unit(angle))
        joints.append(joints[k] + lengths[k] * _unit(angle))
    return joints, coms, joints[-1]


#: Most links each derivation takes: the cost grows about five-fold per link (CPU on the
#: course's 2-core machine under load: Newton-Euler 1.4 s for 3 links, 6 s for 4;
#: Lagrange 3 s for 3 links, 9 s for 4), and a call must answer within 10 s.
MAX_LINKS = {"newton_euler_equations": 4, "lagrange_equations": 3}


def _check_n(n: int, method: str) -> int:
    if not isinstance(n, (int, np.integer)) or isinstance(n, bool):
        raise TypeError(f"n (number of links) must be an integer; got {type(n).__name__} "
                        f"{n!r}")
    if n < 1:
        raise ValueError(f"n (number of links) must be a positive integer; got {n!r}")
    most = MAX_LINKS[method]
    if n > most:
        raise ValueError(
            f"n (number of links) must be at most {most} for {method}, whose symbolic "
            f"derivation takes about three to five times longer per link (at most {most}, "
            f"so that it answers within 10 s); got {n}. For more links use the numeric "
            "bmc.chain.PlanarChain (mass matrix, inverse and forward dynamics of any number "
            "of links in milliseconds)"
            + ("" if method == "newton_euler_equations" else
               f", or newton_euler_equations(n) up to {MAX_LINKS['newton_euler_equations']} "
               "links"))
    return int(n)


def newton_euler_equations(
    n: int, *, coordinates: str = "joint", simplify: bool = True
) -> Derivation:
    """Derive a planar ``n``-link chain's equations with Newton-Euler, segment by segment.

    For each link, from the last to the first: Newton's law gives the force at its
    proximal joint from its COM acceleration, gravity and the force its distal neighbour
    (or the environment, at the endpoint) exerts; Euler's law about the COM then gives the
    joint torque. The reaction forces are eliminated by substitution, as by hand.

    Parameters
    ----------
    n : int
        Number of links.
    coordinates : {"joint", "segment"}, optional
        Joint angles ``alpha`` (default) or segment angles ``varphi``.
    simplify : bool, optional
        Simplify the torques and their decomposition with :func:`tidy` (default; under a
        second for two links, half a minute for four). ``False`` keeps the torques as the
        substitution leaves them, reaction forces and all.

    Returns
    -------
    Derivation
        Torques, ``M, C, G, E``, COM positions and the reaction forces.

    Examples
    --------
    >>> arm = newton_euler_equations(1)
    >>> arm.M
    Matrix([[I + d**2*m]])
    """
    n = _check_n(n, "newton_euler_equations")
    simplify = flag(simplify, "simplify")
    lengths, com, masses, inertias, g, force = _symbols(n)
    q, _ = _coordinates(n, coordinates)
    # Derive in plain symbols (fast), convert to functions of t at the end (for display).
    forward, back = _plain(q)
    qs = [forward[v] for v in q]
    qds = [forward[v.diff(t)] for v in q]
    qdds = [forward[v.diff(t, 2)] for v in q]
    phi = [sum(qs[: k + 1]) for k in range(n)] if coordinates == "joint" else list(qs)
    joints, coms, _ = _geometry(phi, lengths, com)

    def ddt(e):
        return sp.Matrix(e).applyfunc(lambda x: _ddt(x, qs, qds, qdds))

    fe = sp.Matrix(force)
    weight = sp.Matrix([0, -g])
    torques: list = [sp.Integer(0)] * (n + 1)  # torques[n] = 0: nothing beyond the endpoint
    reactions: list = [None] * n
    distal_force = fe  # force on link k at its distal end
    for k in reversed(range(n)):
        acc = ddt(ddt(coms[k]))
        proximal = masses[k] * acc - masses[k] * weight - distal_force
        if simplify:  # expanded sums keep the next steps fast
            proximal = proximal.applyfunc(sp.expand)
        moment = (
            inertias[k] * _ddt(_ddt(phi[k], qs, qds, qdds), qs, qds, qdds)
            - _cross(joints[k] - coms[k], proximal)
            - _cross(joints[k + 1] - coms[k], distal_force)
        )
        torque = moment + torques[k + 1]
        torques[k] = _canonical(torque) if simplify else torque
        reactions[k] = proximal
        distal_force = -proximal
    if coordinates == "joint":
        tau = sp.Matrix(torques[:n])
    else:
        tau = sp.Matrix([torques[k] - torques[k + 1] for k in range(n)])
    return Derivation(n, coordinates, "Newton-Euler, segment by segment", q, lengths, com,
                      masses, inertias, g, force, tau.xreplace(back),
                      com=[c.xreplace(back) for c in coms],
                      reactions=[r.xreplace(back) for r in reactions], simplify=simplify)


def lagrange_equations(
    n: int, *, coordinates: str = "joint", simplify: bool = True
) -> Derivation:
    """Derive the same equations with ``sympy.physics.mechanics.LagrangesMethod``.

    An independent route to :func:`newton_euler_equations` (energies of rigid bodies in
    reference frames, no free-body diagrams), with the same symbols, used to check it.

    Parameters
    ----------
    n : int
        Number of links.
    coordinates : {"joint", "segment"}, optional
        Joint angles (default) or segment angles.
    simplify : bool, optional
        Simplify the decomposition with :func:`tidy` (default).

    Returns
    -------
    Derivation
        With ``tau`` the generalised forces that produce the motion.
    """
    from sympy.physics import mechanics as me  # slow to import: only when needed

    n = _check_n(n, "lagrange_equations")
    simplify = flag(simplify, "simplify")
    lengths, com, masses, inertias, g, force = _symbols(n)
    q, phi = _coordinates(n, coordinates)
    frame_n = me.ReferenceFrame("N")
    origin = me.Point("O")
    origin.set_vel(frame_n, 0)
    bodies = []
    joint = origin
    coms = []
    for k in range(n):
        frame = me.ReferenceFrame(f"A{k + 1}")
        frame.orient_axis(frame_n, frame_n.z, phi[k])
        centre = joint.locatenew(f"G{k + 1}", com[k] * frame.x)
        centre.set_vel(frame_n, centre.pos_from(origin).dt(frame_n))
        body = me.RigidBody(f"B{k + 1}", centre, frame, masses[k],
                            (me.inertia(frame, 0, 0, inertias[k]), centre))
        body.potential_energy = masses[k] * g * centre.pos_from(origin).dot(frame_n.y)
        bodies.append(body)
        coms.append(sp.Matrix([centre.pos_from(origin).dot(frame_n.x),
                               centre.pos_from(origin).dot(frame_n.y)]))
        joint = joint.locatenew(f"P{k + 1}", lengths[k] * frame.x)
        joint.set_vel(frame_n, joint.pos_from(origin).dt(frame_n))
    lagrangian = me.Lagrangian(frame_n, *bodies)
    loads = [(joint, force[0] * frame_n.x + force[1] * frame_n.y)]
    method = me.LagrangesMethod(lagrangian, list(q), forcelist=loads, frame=frame_n)
    # form_lagranges_equations returns d/dt(dL/dqd) - dL/dq - Q(F_e): the generalised forces
    # that the joints must supply.
    tau = sp.Matrix(method.form_lagranges_equations())
    return Derivation(n, coordinates, "Lagrange (sympy.physics.mechanics)", q, lengths, com,
                      masses, inertias, g, force, tau, com=coms, simplify=simplify)


def one_link(*, about: str = "joint") -> Derivation:
    """One-link (inverted) pendulum with an endpoint force, by Newton-Euler.

    Parameters
    ----------
    about : {"joint", "com"}, optional
        Take moments about the fixed joint (``T = I_o alpha_dd + ...`` with
        ``I_o = I + m d^2``, no reaction force appears) or about the centre of mass (the
        reaction force appears and is eliminated with Newton's law; the result is the same).

    Returns
    -------
    Derivation
        ``tau`` is the joint torque ``T`` (not simplified when ``about="com"``, so that the
        centripetal terms are visible before they cancel).

    Examples
    --------
    >>> sp.simplify(one_link(about="com").tau - one_link().tau)
    Matrix([[0]])
    """
    if about == "com":
        raw = newton_euler_equations(1, simplify=False)
        return replace(raw, method="Newton-Euler about the centre of mass", simplify=True)
    if about != "joint":
        raise ValueError(f'about must be "joint" or "com"; got {about!r}')
    lengths, com, masses, inertias, g, force = _symbols(1)
    q, phi = _coordinates(1, "joint")
    (length,), (d,), (m,), (inertia,) = lengths, com, masses, inertias
    a = phi[0]
    i_o = inertia + m * d**2
    # Moments about the joint: gravity at the COM, the external force at the endpoint.
    torque = (i_o * a.diff(t, 2) - _cross(d * _unit(a), sp.Matrix([0, -m * g]))
              - _cross(length * _unit(a), sp.Matrix(force)))
    return Derivation(1, "joint", "Newton-Euler about the joint", q, lengths, com, masses,
                      inertias, g, force, sp.Matrix([sp.expand(torque)]),
                      com=[d * _unit(a)])


def two_link(*, coordinates: str = "joint") -> Derivation:
    """Two-link chain (the arm of the notebook) by Newton-Euler, simplified.

    Parameters
    ----------
    coordinates : {"joint", "segment"}, optional
        Joint angles ``alpha1, alpha2`` (default) or segment angles ``varphi1, varphi2``.

    Returns
    -------
    Derivation
        Joint torques (or, for segment angles, net joint moments on each segment) and
        their ``M, C, G, E`` decomposition.
    """
    return newton_euler_equations(2, coordinates=coordinates)


def decompose(
    tau: sp.Matrix, q: Sequence, g: sp.Symbol, force: Sequence, *, simplify: bool = True
) -> tuple[sp.Matrix, sp.Matrix, sp.Matrix, sp.Matrix]:
    """Split generalised forces into ``M qdd + C + G + E``.

    ``tau`` is linear in the accelerations, in ``g`` and in the external force, so ``M``,
    ``G`` and ``E`` are its derivatives with respect to them (times ``g`` or ``F``); ``C``
    is what remains: the terms in products of velocities.

    Parameters
    ----------
    tau : sympy.Matrix, shape (n, 1)
        Generalised forces in terms of ``q(t)`` and its derivatives.
    q : sequence of sympy.Function
        Generalised coordinates.
    g : sympy.Symbol
        Gravity.
    force : sequence of sympy.Symbol
        External force components.
    simplify : bool, optional
        Simplify each part with :func:`tidy` (default; ``C``, ``G`` and ``E`` factored).

    Returns
    -------
    M, C, G, E : sympy.Matrix
        Shapes (n, n), (n, 1), (n, 1), (n, 1).
    """
    tau = _sympy(tau, "tau", matrix=True)
    simplify = flag(simplify, "simplify")
    if not isinstance(g, sp.Symbol):
        raise TypeError(f"g must be the sympy Symbol of gravity in tau; got {type(g).__name__} "
                        f"{g!r}")
    if isinstance(force, (str, bytes)) or not hasattr(force, "__iter__") or not all(
            isinstance(f, sp.Symbol) for f in force):
        raise TypeError("force must be the sympy Symbols of the external force (F_ex, F_ey); "
                        f"got {force!r}")
    forward, back = _plain(q)
    tau = sp.Matrix(tau).xreplace(forward)
    qdd = sp.Matrix([forward[v.diff(t, 2)] for v in q])
    # An expanded sum of monomials differentiates fast (nested products do not).
    tau = _canonical(tau) if simplify else tau.applyfunc(sp.expand)
    mass = tau.jacobian(qdd)
    gravity = tau.diff(g) * g
    external = tau.jacobian(list(force)) * sp.Matrix(force)
    velocity = (tau - mass * qdd - gravity - external).applyfunc(sp.expand)  # cancels
    if simplify:
        mass = _canonical(mass)
        velocity, gravity, external = (_canonical(x, factor=True)
                                       for x in (velocity, gravity, external))
    return tuple(x.xreplace(back) for x in (mass, velocity, gravity, external))


def symbolically_equal(a: sp.Matrix | sp.Expr, b: sp.Matrix | sp.Expr) -> bool:
    """Return ``True`` if ``simplify(a - b)`` is exactly zero (every entry).

    The difference is first brought to canonical form with :func:`tidy` (over every
    function of ``t`` it contains), then passed to ``sympy.simplify``.

    Examples
    --------
    >>> x = sp.Symbol("x")
    >>> symbolically_equal(sp.sin(x)**2 + sp.cos(x)**2, 1)
    True
    """
    a, b = _sympy(a, "a"), _sympy(b, "b")
    if isinstance(a, sp.MatrixBase) != isinstance(b, sp.MatrixBase):
        return False  # a matrix is never equal to a scalar
    if isinstance(a, sp.MatrixBase) or isinstance(b, sp.MatrixBase):
        a, b = sp.Matrix(a), sp.Matrix(b)
        if a.shape != b.shape:
            return False
    diff = sp.sympify(a - b)
    funcs = sorted(diff.atoms(AppliedUndef), key=str)
    diff = sp.simplify(tidy(diff, funcs))
    if isinstance(diff, sp.MatrixBase):
        return diff.is_zero_matrix is True
    return diff == 0


def broadcast_lambdify(args: Sequence, expr: sp.Matrix | sp.Expr) -> Callable[..., np.ndarray]:
    """Lambdify a SymPy matrix into a NumPy function that handles arrays of frames.

    Each entry is evaluated separately and all are broadcast to a common shape before being
    stacked, so constant entries (``I_2 + m_2 d_2^2`` after substitution) and entries that
    depend on arrays of ``N`` frames combine into one array, time on axis 0.

    Parameters
    ----------
    args : sequence of sympy objects
        The arguments, as for ``sympy.lambdify`` (symbols, ``dynamicsymbols`` or their
        derivatives).
    expr : sympy.Matrix or sympy.Expr
        What to evaluate.

    Returns
    -------
    callable
        ``f(*values)`` returning an array of shape ``(..., rows, cols)`` for a matrix,
        ``(..., rows)`` for a column vector and ``(...)`` for a scalar, where ``...`` is the
        broadcast shape of the inputs.

    Examples
    --------
    >>> x = sp.Symbol("x")
    >>> f = broadcast_lambdify([x], sp.Matrix([[1, x], [x**2, 2]]))
    >>> f(np.array([1.0, 2.0, 3.0])).shape
    (3, 2, 2)
    """
    if isinstance(args, (str, bytes)) or not hasattr(args, "__iter__"):
        raise TypeError(f"args must be a sequence of the sympy symbols the expression takes; "
                        f"got {type(args).__name__}")
    args = list(args)
    for i, arg in enumerate(args):
        if not isinstance(arg, sp.Basic) or arg.is_number:
            raise TypeError(f"args[{i}] must be a SymPy symbol or function of time (what the "
                            f"expression depends on); got {type(arg).__name__} {arg!r}")
    expr = _sympy(expr, "expr")
    matrix = isinstance(expr, sp.MatrixBase)
    shape = expr.shape if matrix else ()
    entries = list(expr) if matrix else [expr]
    funcs = sp.lambdify(list(args), entries, modules="numpy")

    def evaluate(*values):
        arrays = [np.asarray(v, dtype=float) for v in funcs(*values)]
        common = np.broadcast_arrays(*arrays)
        out = np.stack(common, axis=-1).reshape(common[0].shape + shape)
        if matrix and shape[1] == 1:
            out = out[..., 0]
        return out

    evaluate.__doc__ = f"Evaluate {shape or 'a scalar'} expression on NumPy arrays of frames."
    return evaluate
