"""The package's layering, read from its source (CONTRIBUTING.md, "Architecture").

Three layers, each importing only from the ones below it: the core (models of segments,
chains and trees, their kinematics, signals, data), the formulations (methods that take any
model of the core) and the serving layer (worked models and trials, plotting, widgets,
checks). These tests parse every module's imports, so a shortcut across the layers, an import
cycle or a reach into another module's private names fails here before it spreads.
"""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import bmc

PACKAGE = Path(bmc.__file__).parent

CORE = {
    "bmc", "bmc._kernels", "bmc._planar", "bmc._validation", "bmc.anthropometry", "bmc.chain",
    "bmc.constants", "bmc.datasets", "bmc.kinematics", "bmc.muscles", "bmc.planar",
    "bmc.precomputed", "bmc.rotations", "bmc.signals", "bmc.simulate", "bmc.symbolic", "bmc.tree",
}
FORMULATIONS = {"bmc.least_squares", "bmc.matrix_form", "bmc.newton_euler", "bmc.reactions"}
# the serving layer: these modules and the packages' submodules
SERVING = {"bmc.models", "bmc.plotting", "bmc.drawing", "bmc.widgets", "bmc.checks"}


def _layer(module: str) -> int | None:
    """The module's layer, or None when it is in none (test_every_module_has_a_layer)."""
    if module in CORE:
        return 0
    if module in FORMULATIONS:
        return 1
    if any(module == s or module.startswith(s + ".") for s in SERVING):
        return 2
    return None


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


MODULES = _modules()


def _imports(module: str) -> list[tuple[str, list[str], int]]:
    """Every ``bmc`` import of a module: (target module, imported names, line)."""
    tree = ast.parse(MODULES[module].read_text())
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "bmc" or node.module.startswith("bmc."):
                names = [a.name for a in node.names]
                sub = [f"{node.module}.{n}" for n in names if f"{node.module}.{n}" in MODULES]
                if sub:
                    found += [(s, [], node.lineno) for s in sub]
                    names = [n for n in names if f"{node.module}.{n}" not in MODULES]
                if names or not sub:
                    found.append((node.module, names, node.lineno))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("bmc"):
                    found.append((alias.name, [], node.lineno))
    return [(t, n, line) for t, n, line in found if t in MODULES]


def test_every_module_has_a_layer():
    # a new module is placed on purpose, never by default
    unplaced = [module for module in MODULES if _layer(module) is None]
    assert not unplaced, (f"modules in no layer: {unplaced}; add them to CORE, FORMULATIONS "
                          "or SERVING here and to CONTRIBUTING.md's picture")
    assert _layer("bmc.newcomer") is None


def test_the_module_list_is_not_empty():
    # A parser that finds nothing would pass every test below.
    assert {"bmc.chain", "bmc.reactions", "bmc.models.human"} <= set(MODULES)
    assert any(_imports("bmc.chain")), "bmc.chain imports nothing from bmc?"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_a_module_imports_only_from_its_layer_or_below(module):
    mine = _layer(module)
    if mine is None:
        pytest.skip("in no layer: test_every_module_has_a_layer fails for it")
    for target, _, line in _imports(module):
        if _layer(target) is None:
            continue  # that module's own placement fails test_every_module_has_a_layer
        assert _layer(target) <= mine, (
            f"{module} (layer {mine}) imports {target} (layer {_layer(target)}) at line "
            f"{line}: a lower layer must not depend on a higher one"
        )


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_module_imports_a_private_name_of_another(module):
    for target, names, line in _imports(module):
        private = [n for n in names if n.startswith("_") and not n.startswith("__")]
        # Modules of one subpackage (bmc.checks, bmc.widgets, ...) may share its helpers;
        # the top-level modules of bmc may not share theirs.
        package = module.rsplit(".", 1)[0]
        own_package = package != "bmc" and target.rsplit(".", 1)[0] == package
        if private and not own_package:
            pytest.fail(f"{module} imports {private} from {target} at line {line}")


# Public protocols despite the underscore: namedtuple methods and IPython's display protocol.
NAMEDTUPLE_API = {"_replace", "_asdict", "_fields", "_make", "_repr_mimebundle_"}
# Matplotlib internals the browser renderer reads, because Matplotlib has no public accessor
# for the left/right title and suptitle artists or for a tick's geometry. Allowed in that one
# module only (matplotlib is pinned; tests/test_widgets_base.py fails if they change).
THIRD_PARTY_INTERNALS = {
    "bmc.widgets._scene": {"_left_title", "_right_title", "_suptitle", "_tickdir",
                           "_get_tick", "_size", "_width", "_base_pad"},
    # SymPy's printers are extended by defining _print_<Class> methods and deferring to the
    # parent's (the documented way): symbolic.latex's dot notation
    "bmc.symbolic": {"_print_Function", "_print_Derivative"},
}


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_module_reads_a_private_attribute_of_another_object(module):
    """``x._name`` is allowed on ``self``/``cls`` only (a class's own state)."""
    tree = ast.parse(MODULES[module].read_text())
    bad = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and node.attr.startswith("_")
                and not node.attr.startswith("__")
                and node.attr not in NAMEDTUPLE_API
                and node.attr not in THIRD_PARTY_INTERNALS.get(module, ())
            and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))):
            bad.append(f"line {node.lineno}: .{node.attr}")
    assert not bad, f"{module} reads private attributes of other objects: {bad}"


def test_the_private_import_check_spans_top_level_modules(tmp_path, monkeypatch):
    # bmc.chain importing kinematics' private helper must fail (both sit directly in bmc)
    fake = tmp_path / "chain.py"
    fake.write_text("from bmc.kinematics import _chain_args\n")
    monkeypatch.setitem(MODULES, "bmc.chain", fake)
    with pytest.raises(pytest.fail.Exception, match="_chain_args"):
        test_no_module_imports_a_private_name_of_another("bmc.chain")


def test_the_private_attribute_check_fails_on_a_read_of_another_object(tmp_path, monkeypatch):
    # the checker itself, on a module that reads a model's private state (and its own)
    fake = tmp_path / "reactions.py"
    fake.write_text("def f(model, q):\n    self_ok = q\n    return model._state(q)\n")
    monkeypatch.setitem(MODULES, "bmc.reactions", fake)
    with pytest.raises(AssertionError, match=r"line 3: \._state"):
        test_no_module_reads_a_private_attribute_of_another_object("bmc.reactions")
    fake.write_text("class A:\n    def f(self):\n        return self._state\n")
    test_no_module_reads_a_private_attribute_of_another_object("bmc.reactions")


def test_there_is_no_import_cycle():
    graph = {m: {t for t, _, _ in _imports(m) if t != m} for m in MODULES}
    # A package's __init__ importing its own submodules is not a cycle of the design.
    for m in graph:
        graph[m] = {t for t in graph[m] if not t.startswith(m + ".")}
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> None:
        state[m] = 1
        stack.append(m)
        for t in sorted(graph[m]):
            if state.get(t) == 1:
                cycle = stack[stack.index(t):] + [t]
                pytest.fail("import cycle: " + " -> ".join(cycle))
            if t not in state:
                visit(t)
        stack.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m)


def test_importing_rotations_loads_no_formulation_or_model():
    code = (
        "import sys, bmc.rotations\n"
        "print(' '.join(sorted(m for m in sys.modules if m.startswith('bmc.'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert not [m for m in out if _layer(m) != 0], f"import bmc.rotations loaded {out}"


PUBLIC_MODULES = [m for m in sorted(MODULES) if not any(p.startswith("_") for p in m.split("."))]


@pytest.mark.parametrize("module", PUBLIC_MODULES)
def test_tab_completion_shows_only_public_names(module):
    mod = importlib.import_module(module)
    listed = set(dir(mod))
    hidden = {n for n in listed if not n.startswith("__")} - set(mod.__all__)
    assert not hidden, f"dir({module}) shows names outside __all__: {sorted(hidden)}"
    assert set(mod.__all__) <= listed


def _code_lines(path: Path) -> int:
    """Lines of code: not blank, not comments, not docstrings."""
    source = path.read_text()
    tree = ast.parse(source)
    doc_lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(
                    getattr(body[0], "value", None), ast.Constant) and isinstance(
                    body[0].value.value, str):
                doc_lines.update(range(body[0].lineno, body[0].end_lineno + 1))
    return sum(
        1 for i, line in enumerate(source.splitlines(), 1)
        if line.strip() and not line.strip().startswith("#") and i not in doc_lines
    )


def test_code_line_counter_skips_docstrings_and_comments(tmp_path):
    f = tmp_path / "m.py"
    f.write_text('"""Doc.\n\nMore.\n"""\n# comment\n\ndef f():\n    """Doc."""\n    return 1\n')
    assert _code_lines(f) == 2


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_module_is_over_500_lines_of_code(module):
    n = _code_lines(MODULES[module])
    assert n <= 500, f"{module} has {n} lines of code (docstrings excluded): split it"


# Formulas that used to be written several times, each with the places it may stand and
# how often: a match count of zero means the home was rewritten and the pattern must
# follow, one more means a copy came back. Scanned: the package, bmc.checks included, and
# the grader's exact checks (exercises/bmc_answers). Each pattern also takes the forms a
# copy would plausibly use (other index spellings, the expanded polynomial, ...).
_IDX = r"\[[^\]\n]*"  # an index expression up to its last component: [..., 0], [:, 1], [0]
WRITTEN_ONCE = {
    "planar cross product": (
        rf"\w+{_IDX}0\] ?\* ?\w+{_IDX}1\] ?- ?\w+{_IDX}1\] ?\* ?\w+{_IDX}0\]"
        r"|\bx\w* ?\* ?\w*y\b ?- ?y\w* ?\* ?\w*x\b",  # x * ay - y * ax
        # bmc._kernels.cross (kinematics.cross2 checks and calls it); symbolic writes it
        # once more on sympy expressions, which the float kernels cannot take
        {"bmc._kernels": 1, "bmc.symbolic": 1}),
    "rotation by +90 degrees": (rf"np\.stack\(\[-\w+{_IDX}1\], \w+{_IDX}0\]\]",
                                {"bmc._kernels": 1}),
    "root-mean-square error": (
        # the root of the mean square of a difference, or of an error array by its name
        r"np\.sqrt\(np\.mean\(\(\w+ - \w+\) ?\*\* ?2"
        r"|np\.sqrt\(\(\(?\w+ - \w+\)? ?\*\* ?2\)\.mean\("
        r"|np\.sqrt\(\(?np\.mean\(\(?\w*err\w*\)? ?\*\* ?2"
        r"|np\.sqrt\(\(\w*err\w* ?\*\* ?2\)\.mean\(",
        {"bmc.signals": 1}),
    "double-pendulum 2x2 solve": (r"\(c \* r1 - m12 \* r2\) / det",
                                  {"bmc.models.double_pendulum": 1}),
    "eq. (3.3), hip x": (r"Rx - m2 \* ax2 - m3 \* ax3 - m4 \* ax4", {"bmc.models.human": 1}),
    "Newton-Euler force balance": (
        r"\w+ \* \w+\[\"acm\"\] - \w+ \* gravity|\w+ \* a\w* - \w+ \* g\w* - F_?d\b"
        r"|\w+ \* acm - \w+ \* np\.array\(\[0\.0, -g\]\) - Fd\b",
        # the planar step (bmc._kernels.newton_euler_step, behind invdyn2d) and the 3D one
        {"bmc._kernels": 1, "bmc.newton_euler": 1}),
    # the upward recursion: each segment's proximal load, reversed, passed on to the next.
    # The planar one is bmc._kernels.upward (lower_limb, reactions_newton_euler and
    # least_squares.newton_euler run it); the 3D one is joint_loads3d's.
    "upward Newton-Euler recursion": (
        r"(?m)^ +\w+, \w+(?:, \w+)? = -[Ff]\w*(?:\[[^\]\n]*\])?, -[Mm]",
        {"bmc._kernels": 1, "bmc.newton_euler": 1}),
    "acceleration of a point on rotating segments": (
        # the components (-(al s + w^2 c), al c - w^2 s) as kinematics forms them in place,
        # or the broadcast forms al perp(e) - w^2 e and -(w^2 e) a copy would likely use
        r"np\.multiply\(w, wc, out=wc\)"
        r"|\w+\[\.\.\., None\] \* \w+ - \(\w+ ?\*\* ?2\)\[\.\.\., None\] \* \w+"
        r"|\w+ \* (?:en|perp\(\w+\)) - \w+ ?\*\* ?2 \* e\b"  # al * perp(e) - w**2 * e
        r"|\bw2 \* e\b",  # w2 * e with w2 = w**2
        {"bmc._kernels": 1}),
    # 10 s^3 - 15 s^4 + 6 s^5, factored as in its home or expanded as the source writes it
    "minimum-jerk step": (r"10(?:\.0)? - 15(?:\.0)? \* \w+|10(?:\.0)? \* \w+ ?\*\* ?3",
                          {"bmc.kinematics": 1}),
    # Retired (a single home makes them moot): "lever matrix" and "chain forward
    # kinematics". Every model's levers come from its parents in bmc._planar.topology and
    # every position from bmc._kernels.points_on_segments; a model is a PlanarModel (the
    # type checker refuses another kind), so no model has kinematics of its own to copy.
    # the 3D acceleration of a point carried by a rotating body
    "3D point acceleration": (r"np\.cross\(\w+, np\.cross\(\w+,", {"bmc.rotations": 1}),
}


def test_the_patterns_catch_the_copies_that_were_removed():
    import re

    removed = {
        "planar cross product": ["(x * ay - y * ax) @ m", "a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0]"],
        "root-mean-square error": ["np.sqrt((err**2).mean(axis=(1, 2)))",
                                   "np.sqrt(np.mean((a - b) ** 2, axis=0))"],
        "acceleration of a point on rotating segments": [
            "a0 = rc @ (al0 * en - w**2 * e)",
            'acc = -np.einsum("ik,...kd->...id", self.com_lever, w2 * e)'],
        "minimum-jerk step": ["pos = 10 * s**3 - 15 * s**4 + 6 * s**5",
                              "val = s**3 * (10 - 15 * s + 6 * s**2)"],
        "upward Newton-Euler recursion": [
            "        force, torque = -Fp, -Mp",
            "        F, Md, rd = -Fp, -Mp, joints[..., i, :]",
            "        Fd, Md, rd = -forces[:, i], -moments[:, i], prox[:, i]"],
        "3D point acceleration": ["np.cross(ag, r) + np.cross(wg, np.cross(wg, r))"],
    }
    for formula, copies in removed.items():
        for copy in copies:
            assert re.search(WRITTEN_ONCE[formula][0], copy), (formula, copy)
    # and not other physics that only looks alike
    unrelated = {
        "root-mean-square error": ["amplitude = np.sqrt(np.mean(x**2))"],
        "acceleration of a point on rotating segments": ["damping = c * v - k**2 * x",
                                                         "energy = 0.5 * m * v**2 * e"],
        "planar cross product": ["al1 = (c * r1 - m12 * r2) / det"],
        "upward Newton-Euler recursion": ["    pass ``-Fp, -Mp`` as ``Fd, Md``",
                                          "        u, v = -force_x, speed_y"],
    }
    for formula, lines in unrelated.items():
        for line in lines:
            assert not re.search(WRITTEN_ONCE[formula][0], line), (formula, line)


ANSWERS = PACKAGE.parent / "exercises" / "bmc_answers"
SCANNED = {**MODULES, **{f"bmc_answers.{p.stem}": p for p in sorted(ANSWERS.glob("*.py"))}}


def test_the_scan_covers_the_checks_and_the_grader_answers():
    assert "bmc.checks._joint_reactions" in SCANNED and "bmc_answers.reactions" in SCANNED


@pytest.mark.parametrize("formula", sorted(WRITTEN_ONCE))
def test_a_formula_is_written_once(formula):
    import re

    pattern, homes = WRITTEN_ONCE[formula]
    hits = {
        m: n for m, path in SCANNED.items()
        for n in [len(re.findall(pattern, path.read_text()))] if n
    }
    assert hits == homes, f"{formula}: expected {homes}, found {hits}"


def test_the_planar_models_are_instances_of_the_one_interface():
    # A chain, Blajer's tree and Kuo's standing body are PlanarModels that keep their
    # parameters and coordinates and override none of the interface's algorithms (the type
    # checker refuses an override of a final method: tests/test_types.py; this is the same
    # fact at run time, for every subclass in the package).
    import inspect

    from bmc.chain import PlanarChain
    from bmc.models.standing import FourSegmentModel
    from bmc.planar import PlanarModel
    from bmc.tree import PlanarTree

    final = {name for name, f in vars(PlanarModel).items() if getattr(f, "__final__", False)}
    assert {"inverse_dynamics", "mass_matrix", "bias_forces", "kinematics"} <= final
    for cls in (PlanarChain, PlanarTree, FourSegmentModel):
        assert issubclass(cls, PlanarModel)
        overridden = final & {name for klass in cls.__mro__[:-2] for name in vars(klass)
                              if klass is not PlanarModel}
        assert not overridden, (cls.__name__, overridden)
    # and the check can fail
    cheat = type("Cheat", (PlanarChain,), {"mass_matrix": lambda self, q: q})
    assert final & set(vars(cheat))
    # the formulations take the interface, by annotation (mypy checks the calls)
    from bmc import least_squares, reactions
    for func in (reactions.minimal_form, reactions.reactions_augmented,
                 reactions.reactions_classical, reactions.reactions_newton_euler,
                 least_squares.newton_euler, least_squares.system, least_squares.least_squares,
                 least_squares.newton_euler_gain):
        hints = inspect.get_annotations(func, eval_str=True)
        assert hints["model"] is PlanarModel, func.__name__
