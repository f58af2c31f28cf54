r"""Joint reaction forces by the augmented joint coordinate method (Blajer and Czaplicki 2005).

A planar multibody model of ``n`` rigid segments linked by pin joints into a tree is described
in three sets of coordinates:

- **absolute coordinates** ``p = [x_1, y_1, psi_1, ..., x_n, y_n, psi_n]`` (length
  ``3n``): the centre of mass (COM) and the orientation of every segment;
- **generalised (joint) coordinates** ``q = [x_B, y_B, psi_1, ..., psi_n]`` (length
  ``k = n + 2``): a base point (the proximal end of the root segment, the hip in the human
  model) and the absolute angle of every segment;
- **open-constraint coordinates** ``z`` (length ``m = 2(n - 1)``): the relative translations
  that the pin joints prohibit, two per joint (x, y), zero for a real motion.

The augmented map ``p = p(q, z)`` gives ``D = dp/dq`` and ``Z = dp/dz`` at ``z = 0`` (the paper's
``g(q, z)`` and ``E``: the course keeps ``g`` for gravity and ``E`` for the external term), and
``pddot = D qddot + gamma`` with ``gamma = Ddot qdot``. Projecting the Newton-Euler equations
``M pddot = h - C^T lambda`` with ``D^T`` gives the minimal form
``Mbar qddot + d = hbar`` (eq. 2.9 of the paper); projecting with ``Z^T`` gives the joint
reactions without any matrix inversion (eq. 2.10),

.. math:: \lambda = Z^T\,(h - M_p(D\ddot q + \gamma)),

while the classical formula (eq. 2.11) needs the implicit constraint Jacobian ``C`` and a
linear solve per frame,

.. math:: \lambda = (C M^{-1} C^T)^{-1} C (M^{-1} h - \gamma).

Conventions: SI units; x forward, y up; gravity ``g > 0`` along -y; angles in radians,
counter-clockwise positive; **axis 0 is time** (every function takes one frame or ``N``).
Segment ``i`` has a unit axis ``e_i = s_i (-sin psi_i, cos psi_i)`` pointing from its
proximal joint to its distal end, with ``s_i = +1`` for segments that point up at
``psi_i = 0`` (trunk, head) and ``-1`` for segments that hang down (limbs); so the paper's
``x = x_H + c sin(phi)``, ``y = y_H - c cos(phi)`` for the leg segments holds as printed (the
paper writes ``phi_i`` for the angle that notebook 5 and this module call ``psi_i``).
``lambda`` for a joint is the force that the distal (child) segment exerts on the proximal
(parent) segment there [N]; its vertical component is positive in compression.

Every function here takes any :class:`bmc.planar.PlanarModel` (Blajer's floating
:class:`bmc.tree.PlanarTree`, a fixed-base chain, a new model) and the state as arrays: the
model, then ``q, qd, qdd``, then the loads. Arguments are checked once, here; the model's
unchecked ``kernel`` does the arithmetic. For a fixed base the classical formula includes
the base's constraints (its pin, or a welded root), and the pin at the base is a joint like
any other. The paper's
seven-segment human model, its leg-only explicit formulas (3.3) and a generated somersault
to apply all this to are in :mod:`bmc.models.human` and :mod:`bmc.models.somersault`; the
sympy derivation of ``g``, ``D``, ``E`` and ``gamma`` is :func:`symbolic_model`.

References
----------
.. [1] W. Blajer, A. Czaplicki, "An alternative scheme for determination of joint reaction
   forces in human multibody models", *Journal of Theoretical and Applied Mechanics* 43(4),
   813-824, 2005.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
from numpy.typing import ArrayLike

from bmc._validation import as_array, frames
from bmc.planar import InverseDynamics, PlanarModel
from bmc.tree import PlanarTree

__all__ = [
    "InverseDynamics",
    "Trial",
    "SymbolicModel",
    "minimal_form",
    "motion_reactions",
    "reactions_augmented",
    "reactions_classical",
    "reactions_newton_euler",
    "symbolic_model",
]


def __dir__() -> list[str]:
    return sorted(__all__)


class Trial(Protocol):
    """A motion of a floating model with one contact, as :func:`motion_reactions` takes it.

    For example :class:`bmc.models.somersault.Motion` (this module does not import the
    models).

    Attributes
    ----------
    model : PlanarModel
    q, qd, qdd : numpy.ndarray, shape (N, k)
        Coordinates [m, rad] and their first and second time derivatives.
    contact_force : numpy.ndarray, shape (N, 2)
        Force of the environment [N] at ``contact_point``.
    contact_point : (str, float)
        Segment and distance from its proximal joint [m].
    """

    @property
    def model(self) -> PlanarModel:
        """The model that moved."""

    @property
    def q(self) -> np.ndarray:
        """Coordinates [m, rad], (N, k)."""

    @property
    def qd(self) -> np.ndarray:
        """Their rates, (N, k)."""

    @property
    def qdd(self) -> np.ndarray:
        """Their second derivatives, (N, k)."""

    @property
    def contact_force(self) -> np.ndarray:
        """Force of the environment [N], (N, 2)."""

    @property
    def contact_point(self) -> tuple[str, float]:
        """Segment and distance [m] where it acts."""


def _applied(model: PlanarModel, h: ArrayLike) -> np.ndarray:
    return as_array(h, "h", unit="N, N m", last=3 * model.n)


def _model(model: Any) -> PlanarModel:
    if not isinstance(model, PlanarModel):
        raise TypeError(f"model must be a planar model (bmc.planar.PlanarModel, e.g. "
                        f"human_model()); got {type(model).__name__}")
    return model


# ---------------------------------------------------------------------------- formulations
def minimal_form(model: PlanarModel, q: ArrayLike, qd: ArrayLike,
                 h: ArrayLike) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Project the Newton-Euler equations onto the model's coordinates (eq. 2.9).

    Parameters
    ----------
    model : PlanarModel
        The model, e.g. :func:`bmc.models.human.human_model`.
    q, qd : array_like, shape (..., k)
        Coordinates [m, rad] and velocities [m/s, rad/s].
    h : array_like, shape (..., 3n)
        Applied forces on ``[x_i, y_i, psi_i]`` (:meth:`PlanarModel.applied_forces`)
        [N, N m].

    Returns
    -------
    Mbar : numpy.ndarray, shape (..., k, k)
        ``D^T M D`` [kg, kg m, kg m^2].
    d : numpy.ndarray, shape (..., k)
        ``D^T M gamma``, centripetal and Coriolis terms [N, N m].
    hbar : numpy.ndarray, shape (..., k)
        ``D^T h``, generalised applied forces [N, N m].

    Examples
    --------
    >>> from bmc.models.human import human_model
    >>> tree = human_model()
    >>> Mbar, d, hbar = minimal_form(tree, np.zeros(9), np.zeros(9),
    ...                              tree.applied_forces(np.zeros(9)))
    >>> round(float(Mbar[0, 0]), 3) == round(tree.total_mass, 3)   # whole-body mass
    True
    """
    q, qd = _model(model).check_state(q=q, qd=qd)
    h = _applied(model, h)
    frames(("q", q, 1), ("h", h, 1))
    kernel = model.kernel
    D = kernel.jacobian_q(q)
    d = np.einsum("...ai,...a->...i", D, kernel.mass_diagonal() * kernel.gamma(q, qd))
    hbar = np.einsum("...ai,...a->...i", D, h)
    return kernel.mass_matrix(q), d, hbar


def reactions_augmented(model: PlanarModel, q: ArrayLike, qd: ArrayLike, qdd: ArrayLike,
                        h: ArrayLike, *, joints: Sequence[int | str] | None = None
                        ) -> np.ndarray:
    """Joint reactions by eq. (2.10): ``lambda = Z^T (h - M_p (D qdd + gamma))``.

    No matrix is inverted; only the columns of ``Z`` for the requested joints are used.

    Parameters
    ----------
    model : PlanarModel
        The model.
    q, qd, qdd : array_like, shape (..., k)
        Coordinates [m, rad] and their first and second time derivatives.
    h : array_like, shape (..., 3n)
        Applied forces (see :meth:`PlanarModel.applied_forces`) [N, N m].
    joints : sequence of str or int, optional
        Joints to compute (default all), by name or index.

    Returns
    -------
    numpy.ndarray, shape (..., 2 * len(joints))
        ``[lambda_x, lambda_y]`` per joint: force of the distal on the proximal segment
        (the ground, for a fixed base's pin) [N].
    """
    q, qd, qdd = _model(model).check_state(q=q, qd=qd, qdd=qdd)
    cols = model.joint_columns(joints)
    h = _applied(model, h)
    frames(("q", q, 1), ("h", h, 1))
    kernel = model.kernel
    pdd = np.einsum("...ai,...i->...a", kernel.jacobian_q(q), qdd) + kernel.gamma(q, qd)
    return (h - kernel.mass_diagonal() * pdd) @ kernel.jacobian_z()[:, cols]


def reactions_classical(model: PlanarModel, q: ArrayLike, qd: ArrayLike, h: ArrayLike, *,
                        joints: Sequence[int | str] | None = None) -> np.ndarray:
    """Joint reactions by the classical eq. (2.11): one linear solve per frame.

    ``lambda = (C M^-1 C^T)^-1 C (M^-1 h - gamma)``: the reactions of the motion that the
    applied forces ``h`` would produce. It uses no measured acceleration, and it agrees with
    :func:`reactions_augmented` only when ``qdd`` and ``h`` satisfy eq. (2.9). ``C`` holds
    every constraint of the model, a fixed base's included.

    Parameters
    ----------
    model : PlanarModel
        The model.
    q, qd : array_like, shape (..., k)
        Coordinates [m, rad] and velocities [m/s, rad/s].
    h : array_like, shape (..., 3n)
        Applied forces [N, N m].
    joints : sequence of str or int, optional
        Joints to compute (default all), by name or index.

    Returns
    -------
    numpy.ndarray, shape (..., 2 * len(joints))
        Force of the distal on the proximal segment at each joint [N].
    """
    q, qd = _model(model).check_state(q=q, qd=qd)
    cols = model.joint_columns(joints)
    h = _applied(model, h)
    frames(("q", q, 1), ("h", h, 1))
    kernel = model.kernel
    p = np.concatenate([kernel.points(q, model.com_lever), kernel.theta(q)[..., None]], axis=-1)
    C = kernel.constraints(p.reshape(p.shape[:-2] + (-1,)), values=False)[1]
    minv = 1.0 / kernel.mass_diagonal()
    A = np.einsum("...ia,a,...ja->...ij", C, minv, C)
    b = np.einsum("...ia,...a->...i", C, minv * h - kernel.gamma(q, qd))
    return np.linalg.solve(A, b[..., None])[..., 0][..., cols]


def reactions_newton_euler(model: PlanarModel, q: ArrayLike, qd: ArrayLike, qdd: ArrayLike,
                           contact_force: ArrayLike, contact_point: tuple[int | str, float], *,
                           contact_moment: ArrayLike = 0.0
                           ) -> tuple[np.ndarray, np.ndarray]:
    """Joint loads by the upward Newton-Euler recursion, from the contact segment.

    Starts at the contact segment with the contact load and goes from segment to parent
    through every joint on the way to the base (for the human model: foot, shank, thigh);
    each segment's proximal load, reversed, is the next one's distal load. The recursion
    is the package's one (``bmc._kernels.upward``, also that of
    :func:`bmc.newton_euler.lower_limb` and :func:`bmc.least_squares.newton_euler`).

    Parameters
    ----------
    model : PlanarModel
        The model.
    q, qd, qdd : array_like, shape (..., k)
        Coordinates and their derivatives [m, rad, s].
    contact_force : array_like, shape (..., 2)
        Force on the contact segment from the environment [N].
    contact_point : (segment, distance)
        Where it acts: a segment (name or index) whose proximal joint is a joint of the
        model (not a floating root) and the distance along its axis from that joint [m].
    contact_moment : array_like, shape (...,), optional
        Free moment of the environment on the contact segment [N m] (default 0); it changes
        the joint torques, not the reactions.

    Returns
    -------
    reactions : numpy.ndarray, shape (..., 2 p)
        For the ``p`` joints on the path, base side first (hip, knee, ankle for the human
        model), x and y of the force of the distal on the proximal segment [N].
    torques : numpy.ndarray, shape (..., p)
        Joint torques at the same joints [N m], on the segment the model's
        :attr:`~bmc.planar.PlanarModel.torque_on` names (by default the child, here the
        distal segment).
    """
    i, d = _model(model).locate(contact_point)
    q, qd, qdd = model.check_state(q=q, qd=qd, qdd=qdd)
    force = as_array(contact_force, "contact_force", unit="N", last=2)
    moment = as_array(contact_moment, "contact_moment", unit="N m")
    frames(("q", q, 1), ("contact_force", force, 1), ("contact_moment", moment, 0))
    children = set(model.kernel.topology.joint_child.tolist())
    path = []
    while i in children:
        path.append(i)
        i = model.parent[i]
    if not path:
        raise ValueError("contact_point must be on a segment whose proximal joint is a joint "
                         "of the model (not the floating root)")
    levers = np.vstack([model.kernel.lever_row(path[0], d), model.lever[path]])
    forces, moments = model.kernel.path_loads(q, qd, qdd, path, levers, force, moment)
    lam = -forces[..., ::-1, :]  # force of each (distal) segment on its parent
    # the moments on each segment at its proximal joint: torques on the child; the width
    # spelled out: -1 is ambiguous for zero frames (an empty record)
    return (lam.reshape(lam.shape[:-2] + (2 * lam.shape[-2],)),
            moments[..., ::-1] * model.kernel.torque_sign)


def motion_reactions(motion: Trial, *, contact_force: ArrayLike | None = None,
                     joints: Sequence[int | str] | None = None
                     ) -> tuple[np.ndarray, np.ndarray]:
    """Reactions along a motion by eq. (2.10) and eq. (2.11), from a measured contact force.

    Inverse dynamics with the given contact force (default: the motion's own) gives the
    joint torques and the free contact moment; with them ``h`` is complete and both
    formulas apply. They agree when the force is the true one and differ otherwise.

    Parameters
    ----------
    motion : Trial
        For example a :class:`bmc.models.somersault.Motion`: the model, ``q``, ``qd``,
        ``qdd``, ``contact_force`` and ``contact_point``.
    contact_force : array_like, shape (N, 2), optional
        A measured (for example noisy) contact force [N].
    joints : sequence of str or int, optional
        Joints to report (default all).

    Returns
    -------
    augmented, classical : numpy.ndarray, shape (N, 2 * len(joints))
        Eq. (2.10) and eq. (2.11) [N].
    """
    missing = [a for a in ("model", "q", "qd", "qdd", "contact_point", "contact_force")
               if not hasattr(motion, a)]
    if missing:
        raise TypeError("motion must be a trial with model, q, qd, qdd, contact_point and "
                        "contact_force (e.g. bmc.models.somersault.somersault_motion()); got "
                        f"{type(motion).__name__} without {', '.join(missing)}")
    model = motion.model
    R = motion.contact_force if contact_force is None else contact_force
    idr = model.contact_inverse_dynamics(motion.q, motion.qd, motion.qdd,
                                         contact_point=motion.contact_point, contact_force=R)
    h = model.applied_forces(motion.q, torques=idr.torques, contact_force=idr.contact_force,
                             contact_point=motion.contact_point,
                             contact_moment=idr.contact_moment)
    return (reactions_augmented(model, motion.q, motion.qd, motion.qdd, h, joints=joints),
            reactions_classical(model, motion.q, motion.qd, h, joints=joints))


# -------------------------------------------------------------------------- symbolic
@dataclass(frozen=True, eq=False)
class SymbolicModel:
    """The augmented map and its Jacobians of a :class:`PlanarTree`, in sympy.

    Attributes
    ----------
    q, qd, qdd, z : sympy.Matrix
        Column vectors of symbols: ``x_H, y_H, phi1..phin`` (the angles ``psi_i``, named with
        the paper's letter, as ``c`` and ``J`` are) and derivatives ``xd_H``...,
        open-constraint coordinates ``z1..zm``.
    p : sympy.Matrix
        ``p(q, z)``, shape (3n, 1).
    D, E : sympy.Matrix
        ``dp/dq`` (at ``z = 0``) and ``Z = dp/dz``; the attribute keeps the paper's name
        ``E`` (the course writes ``Z``: see :attr:`Z`).
    gamma : sympy.Matrix
        ``Ddot qdot``.
    M : sympy.Matrix
        ``diag(m1, m1, J1, ...)``.
    params : dict
        Numeric value of every parameter symbol (``m1``, ``J1``, ``c1``, ``l1``, ...).
    """

    q: Any
    qd: Any
    qdd: Any
    z: Any
    p: Any
    D: Any
    E: Any
    gamma: Any
    M: Any
    params: dict[Any, float]

    @property
    def Z(self) -> Any:  # noqa: N802 (the course's letter for the matrix)
        """``dp/dz``, the course's name for :attr:`E` (Blajer and Czaplicki's letter)."""
        return self.E

    def gravity(self) -> Any:
        """Return ``h`` of gravity alone, ``(0, -m_i g, 0)`` per segment, with symbol ``g``."""
        import sympy as sp

        g = sp.Symbol("g", positive=True)
        rows = []
        for i in range(self.M.shape[0] // 3):
            rows += [0, -self.M[3 * i, 3 * i] * g, 0]
        return sp.Matrix(rows)

    def reactions(self, h: Any, columns: Sequence[int] | None = None) -> Any:
        """Return eq. (2.10), ``Z^T (h - M_p (D qdd + gamma))``, for the chosen columns of Z."""
        if columns is not None:
            from bmc._validation import integer

            if isinstance(columns, (str, bytes)) or not hasattr(columns, "__iter__"):
                raise TypeError(f"columns must be a sequence of column indices of Z; got "
                                f"{columns!r}")
            columns = [integer(c, "columns", what="column index of Z") for c in columns]
            bad = [c for c in columns if not -self.E.shape[1] <= c < self.E.shape[1]]
            if bad:
                raise ValueError(f"columns must be indices of Z's {self.E.shape[1]} columns "
                                 f"(0 to {self.E.shape[1] - 1}); got {bad[0]}")
        from bmc._validation import sympy_object as _sympy

        h = _sympy(h, "h", matrix=True)
        if h.shape != (self.M.shape[0], 1):
            raise ValueError(f"h (applied forces) must be a column of {self.M.shape[0]} "
                             f"entries; got shape {h.shape}")
        E = self.E if columns is None else self.E[:, list(columns)]
        return E.T * (h - self.M * (self.D * self.qdd + self.gamma))

    def lambdify(self, expr: Any) -> Callable[[ArrayLike, ArrayLike, ArrayLike], np.ndarray]:
        """Return a NumPy function ``f(q, qd, qdd)`` of ``expr``, the parameters' numbers in.

        Built on :func:`bmc.symbolic.broadcast_lambdify`, the course's one lambdify path:
        ``q, qd, qdd`` are one frame, shape (k,), or ``N`` frames, shape (N, k); a matrix
        comes back as (..., rows, cols), a column vector as (..., rows).
        """
        from bmc._validation import sympy_object as _sympy
        from bmc.symbolic import broadcast_lambdify

        expr = _sympy(expr, "expr", matrix=True)
        f = broadcast_lambdify([*self.q, *self.qd, *self.qdd], expr.subs(self.params))

        def evaluate(q: ArrayLike, qd: ArrayLike, qdd: ArrayLike) -> np.ndarray:
            cols = [np.moveaxis(as_array(x, name), -1, 0)
                    for x, name in ((q, "q"), (qd, "qd"), (qdd, "qdd"))]
            return f(*cols[0], *cols[1], *cols[2])

        return evaluate


def symbolic_model(model: PlanarTree) -> SymbolicModel:
    """Build ``p = p(q, z)``, ``D``, ``Z`` and ``gamma`` of a tree symbolically (sympy).

    Segments are numbered from 1 as in the paper; a segment attached at its parent's distal
    end uses the parent's length symbol ``l_b``, one attached at the parent's proximal end
    uses 0, any other attachment a symbol ``a_i``.

    Examples
    --------
    >>> from bmc.models.human import human_model
    >>> sm = symbolic_model(human_model())
    >>> sm.p[3:6, 0].T      # thigh: the paper's eq. (3.1), first line
    Matrix([[c2*sin(phi2) + x_H + z1, -c2*cos(phi2) + y_H + z2, phi2]])
    """
    import sympy as sp

    if not isinstance(model, PlanarTree):
        raise TypeError("model must be a PlanarTree with a floating base (e.g. "
                        f"bmc.models.human.human_model()); got {type(model).__name__}")
    if not model.floating:
        raise ValueError("model must have a floating base (the hip's x_H, y_H are its first "
                         "coordinates); got a tree fixed at its base")
    n = model.n
    q = sp.Matrix(sp.symbols(f"x_H y_H phi1:{n + 1}"))
    qd = sp.Matrix(sp.symbols(f"xd_H yd_H phid1:{n + 1}"))
    qdd = sp.Matrix(sp.symbols(f"xdd_H ydd_H phidd1:{n + 1}"))
    z = sp.Matrix(sp.symbols(f"z1:{model.m + 1}")) if n > 1 else sp.zeros(0, 1)
    params: dict[Any, float] = {}
    sym = {}
    for i in range(n):
        for name, value in (("m", model.masses[i]), ("J", model.inertias[i]),
                            ("c", model.com[i]), ("l", model.lengths[i])):
            s = sp.Symbol(f"{name}{i + 1}", positive=True)
            sym[name, i] = s
            params[s] = float(value)
    prox: list[Any] = []
    rows: list[Any] = []
    for i in range(n):
        phi = q[2 + i]
        e = int(model.direction[i]) * sp.Matrix([-sp.sin(phi), sp.cos(phi)])
        if i == 0:
            P = sp.Matrix([q[0], q[1]])
        else:
            b = model.parent[i]
            att = model.attach[i]
            if att == 0.0:
                a = sp.Integer(0)
            elif np.isclose(att, model.lengths[b]):
                a = sym["l", b]
            else:
                a = sp.Symbol(f"a{i + 1}", positive=True)
                params[a] = float(att)
            eb = int(model.direction[b]) * sp.Matrix([-sp.sin(q[2 + b]), sp.cos(q[2 + b])])
            P = prox[b] + a * eb + sp.Matrix([z[2 * i - 2], z[2 * i - 1]])
        prox.append(P)
        r = P + sym["c", i] * e
        rows += [r[0], r[1], phi]
    p = sp.Matrix(rows)
    zero = dict.fromkeys(z, 0)
    D = p.jacobian(q).subs(zero)
    E = p.jacobian(z)
    gamma = (D * qd).jacobian(q) * qd
    M = sp.diag(*[sym[s, i] for i in range(n) for s in ("m", "m", "J")])
    return SymbolicModel(q, qd, qdd, z, p, D, E, gamma, M, params)
