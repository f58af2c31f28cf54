r"""Joint reaction forces by the augmented joint coordinate method (Blajer and Czaplicki 2005).

A planar multibody model of ``n`` rigid segments linked by pin joints into a tree is described
in three sets of coordinates:

- **absolute coordinates** ``p = [x_1, y_1, theta_1, ..., x_n, y_n, theta_n]`` (length
  ``3n``): the centre of mass (COM) and the orientation of every segment;
- **generalised (joint) coordinates** ``q = [x_B, y_B, phi_1, ..., phi_n]`` (length
  ``k = n + 2``): a base point (the proximal end of the root segment, the hip in the human
  model) and the absolute angle of every segment;
- **open-constraint coordinates** ``z`` (length ``m = 2(n - 1)``): the relative translations
  that the pin joints prohibit, two per joint (x, y), zero for a real motion.

The augmented map ``p = g(q, z)`` gives ``D = dg/dq`` and ``E = dg/dz`` at ``z = 0``, and
``pddot = D qddot + gamma`` with ``gamma = Ddot qdot``. Projecting the Newton-Euler equations
``M pddot = h - C^T lambda`` with ``D^T`` gives the minimal form
``Mbar qddot + d = hbar`` (eq. 2.9 of the paper); projecting with ``E^T`` gives the joint
reactions without any matrix inversion (eq. 2.10),

.. math:: \lambda = E^T\,(h - M(D\ddot q + \gamma)),

while the classical formula (eq. 2.11) needs the implicit constraint Jacobian ``C`` and a
linear solve per frame,

.. math:: \lambda = (C M^{-1} C^T)^{-1} C (M^{-1} h - \gamma).

Conventions: SI units; x forward, y up; gravity ``g > 0`` along -y; angles in radians,
counter-clockwise positive; **axis 0 is time** (every function takes one frame or ``N``).
Segment ``i`` has a unit axis ``e_i = s_i (-sin phi_i, cos phi_i)`` pointing from its
proximal joint to its distal end, with ``s_i = +1`` for segments that point up at
``phi_i = 0`` (trunk, head) and ``-1`` for segments that hang down (limbs); so the paper's
``x = x_H + c sin(phi)``, ``y = y_H - c cos(phi)`` for the leg segments holds as printed.
``lambda`` for a joint is the force that the distal (child) segment exerts on the proximal
(parent) segment there [N]; its vertical component is positive in compression.

The model is a :class:`bmc.tree.PlanarTree`; every function here takes any tree. The paper's
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

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import numpy as np
from numpy.typing import ArrayLike

from bmc._validation import as_array, frames
from bmc.newton_euler import invdyn2d
from bmc.tree import InverseDynamics, PlanarTree

__all__ = [
    "InverseDynamics",
    "Trial",
    "SymbolicModel",
    "contact_inverse_dynamics",
    "minimal_form",
    "motion_reactions",
    "reactions_augmented",
    "reactions_classical",
    "reactions_newton_euler",
    "symbolic_model",
]


def __dir__() -> list[str]:
    return sorted(__all__)


@runtime_checkable
class Trial(Protocol):
    """A motion of a tree, which every formulation here takes in place of ``model, q, qd, qdd``.

    Any object with these attributes will do (duck typing), for example
    :class:`bmc.models.somersault.Motion`; this module does not import the models.

    Attributes
    ----------
    model : PlanarTree
    q, qd, qdd : numpy.ndarray, shape (..., k)
        Generalised coordinates [m, rad] and their first and second time derivatives.
    """

    model: PlanarTree
    q: Any
    qd: Any
    qdd: Any


def _unpack(func: str, model: Any, state: tuple[str, ...], args: tuple[Any, ...],
            rest: tuple[str, ...] = ()) -> tuple[Any, ...]:
    """Return ``(tree, *state arrays, *rest)`` from a tree and arrays or from a :class:`Trial`.

    ``args`` are the values of the parameters ``state + rest`` as called. With a tree they
    are returned as they are (a missing one is an error). With a trial the state comes from
    it, and the values meant for ``rest`` may be given by position (they then arrive in the
    slots of ``state``) or by name; one given neither way is the trial's attribute of that
    name, if it has one.
    """
    if isinstance(model, PlanarTree):
        for name, value in zip(state + rest, args, strict=True):
            if value is None:
                raise TypeError(f"{func}() needs {name} when model is a PlanarTree; pass "
                                f"{', '.join(state + rest)}, or a trial with the attributes "
                                f"model, q, qd, qdd (e.g. a Motion) in place of the model")
        return (model, *args)
    if not isinstance(model, Trial) or not isinstance(model.model, PlanarTree):
        raise TypeError(f"model must be a PlanarTree (e.g. human_model()) or a trial with the "
                        f"attributes model (a PlanarTree), q, qd, qdd (e.g. a Motion); got "
                        f"{type(model).__name__}")
    k, r = len(state), len(rest)
    given = [(name, value) for name, value in zip(state, args[:k], strict=True)
             if value is not None]
    if len(given) > r:
        raise TypeError(f"{func}() takes {state} from the trial {type(model).__name__}; pass "
                        f"only {rest or 'keyword arguments'} after it, got "
                        f"{[name for name, _ in given]}")
    values = []
    for j, name in enumerate(rest):
        by_position = args[j] if j < k else None
        by_name = args[k + j]
        if by_position is not None and by_name is not None:
            raise TypeError(f"{func}() got {name} twice (by position and by name)")
        value = by_name if by_position is None else by_position
        if value is None:
            value = getattr(model, name, None)
        if value is None:
            raise TypeError(f"{func}() needs {name}; the trial {type(model).__name__} has "
                            f"no attribute {name}")
        values.append(value)
    trial = tuple(getattr(model, name) for name in state)
    return (model.model, *trial, *values)


_UNITS = {"q": "m, rad", "qd": "m/s, rad/s", "qdd": "m/s^2, rad/s^2"}


def _state(model: PlanarTree, *more: tuple[str, np.ndarray, int],
           **state: ArrayLike) -> list[np.ndarray]:
    """Return the state arrays (any of ``q``, ``qd``, ``qdd``) checked against the tree.

    ``more`` are further checked arrays as ``(name, array, per-frame dimensions)``; all of
    them must describe the same frames (or one frame), or a ValueError names them.
    """
    arrays = [model.check_coordinates(value, name, _UNITS[name]) for name, value in state.items()]
    frames(*[(name, arr, 1) for name, arr in zip(state, arrays, strict=True)], *more)
    return arrays


# ---------------------------------------------------------------------------- formulations
def minimal_form(model: PlanarTree | Trial, q: ArrayLike | None = None,
                 qd: ArrayLike | None = None, h: ArrayLike | None = None
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Project the Newton-Euler equations onto the joint coordinates (eq. 2.9).

    Parameters
    ----------
    model : PlanarTree or Trial
        The tree, or a trial (e.g. a :class:`bmc.models.somersault.Motion`) in place of
        ``model, q, qd``: ``minimal_form(motion, h)``.
    q, qd : array_like, shape (..., k)
        Generalised coordinates [m, rad] and velocities [m/s, rad/s].
    h : array_like, shape (..., 3n)
        Applied forces [N, N m].

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
    model, q, qd, h = _unpack("minimal_form", model, ("q", "qd"), (q, qd, h), ("h",))
    h = model.check_vector(h, "h", 3 * model.n, "N, N m")
    q, qd = _state(model, ("h", h, 1), q=q, qd=qd)
    D = model.jacobian_q(q)
    d = np.einsum("...ai,...a->...i", D, model.mass_diagonal() * model.gamma(q, qd))
    hbar = np.einsum("...ai,...a->...i", D, h)
    return model.mass_matrix(q), d, hbar


def reactions_augmented(model: PlanarTree | Trial, q: ArrayLike | None = None,
                        qd: ArrayLike | None = None, qdd: ArrayLike | None = None,
                        h: ArrayLike | None = None, *,
                        joints: Sequence[int | str] | None = None) -> np.ndarray:
    """Joint reactions by eq. (2.10): ``lambda = E^T (h - M (D qdd + gamma))``.

    No matrix is inverted; only the columns of ``E`` for the requested joints are used.

    Parameters
    ----------
    model : PlanarTree or Trial
        The tree, or a trial (e.g. a :class:`bmc.models.somersault.Motion`) in place of
        ``model, q, qd, qdd``: ``reactions_augmented(motion, h)``.
    q, qd, qdd : array_like, shape (..., k)
        Generalised coordinates [m, rad] and their first and second time derivatives.
    h : array_like, shape (..., 3n)
        Applied forces (see :meth:`PlanarTree.applied_forces`) [N, N m].
    joints : sequence of str or int, optional
        Joints to compute (default all), by name or index.

    Returns
    -------
    numpy.ndarray, shape (..., 2 * len(joints))
        ``[lambda_x, lambda_y]`` per joint: force of the distal on the proximal segment [N].
    """
    model, q, qd, qdd, h = _unpack("reactions_augmented", model, ("q", "qd", "qdd"),
                                   (q, qd, qdd, h), ("h",))
    cols = model.joint_columns(joints)
    h = model.check_vector(h, "h", 3 * model.n, "N, N m")
    q, qd, qdd = _state(model, ("h", h, 1), q=q, qd=qd, qdd=qdd)
    pdd = np.einsum("...ai,...i->...a", model.jacobian_q(q), qdd) + model.gamma(q, qd)
    return (h - model.mass_diagonal() * pdd) @ model.jacobian_z()[:, cols]


def reactions_classical(model: PlanarTree | Trial, q: ArrayLike | None = None,
                        qd: ArrayLike | None = None, h: ArrayLike | None = None, *,
                        joints: Sequence[int | str] | None = None) -> np.ndarray:
    """Joint reactions by the classical eq. (2.11): one linear solve per frame.

    ``lambda = (C M^-1 C^T)^-1 C (M^-1 h - gamma)``: the reactions of the motion that the
    applied forces ``h`` would produce. It uses no measured acceleration, and it agrees with
    :func:`reactions_augmented` only when ``qdd`` and ``h`` satisfy eq. (2.9).

    Parameters
    ----------
    model : PlanarTree or Trial
        The tree, or a trial in place of ``model, q, qd``: ``reactions_classical(motion, h)``.
    q, qd : array_like, shape (..., k)
        Generalised coordinates [m, rad] and velocities [m/s, rad/s].
    h : array_like, shape (..., 3n)
        Applied forces [N, N m].
    joints : sequence of str or int, optional
        Joints to compute (default all), by name or index.

    Returns
    -------
    numpy.ndarray, shape (..., 2 * len(joints))
        Force of the distal on the proximal segment at each joint [N].
    """
    model, q, qd, h = _unpack("reactions_classical", model, ("q", "qd"), (q, qd, h), ("h",))
    cols = model.joint_columns(joints)
    h = model.check_vector(h, "h", 3 * model.n, "N, N m")
    q, qd = _state(model, ("h", h, 1), q=q, qd=qd)
    C = model.constraint_jacobian(model.absolute_coordinates(q))
    minv = 1.0 / model.mass_diagonal()
    A = np.einsum("...ia,a,...ja->...ij", C, minv, C)
    b = np.einsum("...ia,...a->...i", C, minv * h - model.gamma(q, qd))
    return np.linalg.solve(A, b[..., None])[..., 0][..., cols]


def reactions_newton_euler(model: PlanarTree | Trial, q: ArrayLike | None = None,
                           qd: ArrayLike | None = None, qdd: ArrayLike | None = None,
                           contact_force: ArrayLike | None = None,
                           contact_point: tuple[int | str, float] | None = None, *,
                           contact_moment: ArrayLike | None = None
                           ) -> tuple[np.ndarray, np.ndarray]:
    """Joint loads by the recursive Newton-Euler pass, from the contact segment upward.

    Uses :func:`bmc.invdyn2d` for the contact segment and each of its ancestors in turn, up
    to the child of the root (for the human model: foot, shank, thigh); each segment's
    proximal load, reversed, is the next one's distal load.

    Parameters
    ----------
    model : PlanarTree or Trial
        The tree, or a trial (e.g. a :class:`bmc.models.somersault.Motion`) in place of
        ``model, q, qd, qdd``; its ``contact_force``, ``contact_point`` and
        ``contact_moment``, if it has them, are the defaults of those arguments:
        ``reactions_newton_euler(motion)``.
    q, qd, qdd : array_like, shape (..., k)
        Generalised coordinates and their derivatives [m, rad, s].
    contact_force : array_like, shape (..., 2)
        Force on the contact segment from the environment [N].
    contact_point : (segment, distance)
        Where it acts: a segment (name or index, not the root) and the distance along its
        axis from its proximal joint [m].
    contact_moment : array_like, shape (...,), optional
        Free moment of the environment on the contact segment [N m] (default 0, or the
        trial's); it changes the joint torques, not the reactions.

    Returns
    -------
    reactions : numpy.ndarray, shape (..., 2 p)
        For the ``p`` joints on the path, root side first (hip, knee, ankle for the human
        model), x and y of the force of the distal on the proximal segment [N].
    torques : numpy.ndarray, shape (..., p)
        Joint torques on the distal segment at the same joints [N m].
    """
    if contact_moment is None:
        contact_moment = 0.0 if isinstance(model, PlanarTree) else \
            getattr(model, "contact_moment", 0.0)
    model, q, qd, qdd, contact_force, contact_point = _unpack(
        "reactions_newton_euler", model, ("q", "qd", "qdd"),
        (q, qd, qdd, contact_force, contact_point), ("contact_force", "contact_point"))
    model.check_contact_point(contact_point)
    path = []
    i = model.segment_index(contact_point[0])
    while model.parent[i] >= 0:
        path.append(i)
        i = model.parent[i]
    if not path:
        raise ValueError("contact_point must be on a segment other than the root")
    F = as_array(contact_force, "contact_force", unit="N", last=2)
    Md = as_array(contact_moment, "contact_moment", unit="N m")
    q, qd, qdd = _state(model, ("contact_force", F, 1), ("contact_moment", Md, 0),
                        q=q, qd=qd, qdd=qdd)
    r, _, a = model.kinematics(q, qd, qdd)
    joints = model.joint_positions(q)
    rd = model.point(q, path[0], float(contact_point[1]))
    forces, moments = [], []
    for i in path:  # from the contact segment up
        Fp, Mp = invdyn2d(r[..., i, :], rd, joints[..., i, :], a[..., i, :],
                          qdd[..., 2 + i], model.masses[i], model.inertias[i], F, Md, g=model.g)
        forces.append(-Fp)  # force of this (distal) segment on its parent
        moments.append(Mp)  # moment on this segment at its proximal joint
        F, Md, rd = -Fp, -Mp, joints[..., i, :]
    lam = np.concatenate(forces[::-1], axis=-1)
    return lam, np.stack(moments[::-1], axis=-1)


def contact_inverse_dynamics(model: PlanarTree | Trial, q: ArrayLike | None = None,
                             qd: ArrayLike | None = None, qdd: ArrayLike | None = None, *,
                             contact_point: tuple[int | str, float] | None = None,
                             contact_force: ArrayLike | None = None,
                             contact_moment: ArrayLike | None = None) -> InverseDynamics:
    """Contact load and joint torques from the minimal-form equations (2.9).

    :meth:`bmc.tree.PlanarTree.contact_inverse_dynamics` (see there for the method), taking
    a trial in place of ``model, q, qd, qdd`` too. For the joint torques alone, as every
    model's ``inverse_dynamics`` returns them, see :meth:`bmc.tree.PlanarTree.inverse_dynamics`.

    Parameters
    ----------
    model : PlanarTree or Trial
        The tree, or a trial (e.g. a :class:`bmc.models.somersault.Motion`) in place of
        ``model, q, qd, qdd``, whose ``contact_point``, if it has one, is the default:
        ``contact_inverse_dynamics(motion)``.
    q, qd, qdd : array_like, shape (..., k)
        Generalised coordinates and their derivatives [m, rad, s].
    contact_point : (segment, distance)
        Segment (name or index) and distance from its proximal joint [m] where the contact
        force acts.
    contact_force : array_like, shape (..., 2), optional
        A measured contact force [N]; computed when omitted.
    contact_moment : array_like, shape (...,), optional
        A measured free contact moment [N m]; computed when omitted.

    Returns
    -------
    InverseDynamics
        Contact force [N] and free moment [N m] (computed, or the ones given), joint torques
        on the child segments [N m] and the residual of the whole-body equations [N, N m].

    Examples
    --------
    Standing still, the bed carries the body weight:

    >>> from bmc.models.human import human_model
    >>> tree = human_model()
    >>> q, zero = np.zeros(9), np.zeros(9)
    >>> q[5] = np.pi / 2                                    # feet flat, all else upright
    >>> res = contact_inverse_dynamics(tree, q, zero, zero, contact_point=("foot", 0.1))
    >>> bool(np.isclose(res.contact_force[1], tree.body_weight))
    True
    """
    model, q, qd, qdd, contact_point = _unpack(
        "contact_inverse_dynamics", model, ("q", "qd", "qdd"), (q, qd, qdd, contact_point),
        ("contact_point",))
    return model.contact_inverse_dynamics(q, qd, qdd, contact_point=contact_point,
                                          contact_force=contact_force,
                                          contact_moment=contact_moment)


def motion_reactions(motion: Any, *, contact_force: ArrayLike | None = None,
                     joints: Sequence[int | str] | None = None
                     ) -> tuple[np.ndarray, np.ndarray]:
    """Reactions along a motion by eq. (2.10) and eq. (2.11), from a measured contact force.

    Inverse dynamics with the given contact force (default: the motion's own) gives the
    joint torques and the free contact moment; with them ``h`` is complete and both
    formulas apply. They agree when the force is the true one and differ otherwise.

    Parameters
    ----------
    motion : bmc.models.somersault.Motion
        For example from :func:`bmc.models.somersault.somersault`; any object with the attributes
        ``model``, ``q``, ``qd``, ``qdd``, ``contact_force`` and ``contact_point`` will do.
    contact_force : array_like, shape (N, 2), optional
        A measured (for example noisy) contact force [N].
    joints : sequence of str or int, optional
        Joints to report (default all).

    Returns
    -------
    augmented, classical : numpy.ndarray, shape (N, 2 * len(joints))
        Eq. (2.10) and eq. (2.11) [N].
    """
    R = motion.contact_force if contact_force is None else contact_force
    idr = contact_inverse_dynamics(motion, contact_point=motion.contact_point, contact_force=R)
    h = motion.model.applied_forces(motion.q, torques=idr.torques,
                                    contact_force=idr.contact_force,
                                    contact_point=motion.contact_point,
                                    contact_moment=idr.contact_moment)
    return (reactions_augmented(motion, h, joints=joints),
            reactions_classical(motion, h, joints=joints))


# -------------------------------------------------------------------------- symbolic
@dataclass(frozen=True, eq=False)
class SymbolicModel:
    """The augmented map and its Jacobians of a :class:`PlanarTree`, in sympy.

    Attributes
    ----------
    q, qd, qdd, z : sympy.Matrix
        Column vectors of symbols: ``x_H, y_H, phi1..phin`` and derivatives ``xd_H``...,
        open-constraint coordinates ``z1..zm``.
    p : sympy.Matrix
        ``g(q, z)``, shape (3n, 1).
    D, E : sympy.Matrix
        ``dg/dq`` (at ``z = 0``) and ``dg/dz``.
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
    params: dict

    def gravity(self) -> Any:
        """Return ``h`` of gravity alone, ``(0, -m_i g, 0)`` per segment, with symbol ``g``."""
        import sympy as sp

        g = sp.Symbol("g", positive=True)
        rows = []
        for i in range(self.M.shape[0] // 3):
            rows += [0, -self.M[3 * i, 3 * i] * g, 0]
        return sp.Matrix(rows)

    def reactions(self, h: Any, columns: Sequence[int] | None = None) -> Any:
        """Return eq. (2.10), ``E^T (h - M (D qdd + gamma))``, for the chosen columns of E."""
        E = self.E if columns is None else self.E[:, list(columns)]
        return E.T * (h - self.M * (self.D * self.qdd + self.gamma))

    def lambdify(self, expr: Any):
        """Return a NumPy function ``f(q, qd, qdd)`` of ``expr``, the parameters' numbers in.

        Built on :func:`bmc.symbolic.broadcast_lambdify`, the course's one lambdify path:
        ``q, qd, qdd`` are one frame, shape (k,), or ``N`` frames, shape (N, k); a matrix
        comes back as (..., rows, cols), a column vector as (..., rows).
        """
        import sympy as sp

        from bmc.symbolic import broadcast_lambdify

        f = broadcast_lambdify([*self.q, *self.qd, *self.qdd], sp.Matrix(expr).subs(self.params))

        def evaluate(q: ArrayLike, qd: ArrayLike, qdd: ArrayLike) -> np.ndarray:
            cols = [np.moveaxis(as_array(x, name), -1, 0)
                    for x, name in ((q, "q"), (qd, "qd"), (qdd, "qdd"))]
            return f(*cols[0], *cols[1], *cols[2])

        return evaluate


def symbolic_model(model: PlanarTree) -> SymbolicModel:
    """Build ``p = g(q, z)``, ``D``, ``E`` and ``gamma`` of a tree symbolically (sympy).

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

    n = model.n
    q = sp.Matrix(sp.symbols(f"x_H y_H phi1:{n + 1}"))
    qd = sp.Matrix(sp.symbols(f"xd_H yd_H phid1:{n + 1}"))
    qdd = sp.Matrix(sp.symbols(f"xdd_H ydd_H phidd1:{n + 1}"))
    z = sp.Matrix(sp.symbols(f"z1:{model.m + 1}")) if n > 1 else sp.zeros(0, 1)
    params: dict = {}
    sym = {}
    for i in range(n):
        for name, value in (("m", model.masses[i]), ("J", model.inertias[i]),
                            ("c", model.com[i]), ("l", model.lengths[i])):
            s = sp.Symbol(f"{name}{i + 1}", positive=True)
            sym[name, i] = s
            params[s] = float(value)
    prox, rows = [], []
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
