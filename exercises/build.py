"""Build the student and autograder versions of the exercise notebooks with otter-grader.

Usage (from the repository root)::

    python exercises/build.py                    # every master notebook -> exercises/dist/
    python exercises/build.py 01 04              # some topics, by number or name
    python exercises/build.py --out /tmp/dist    # elsewhere
    python exercises/build.py --no-run-tests     # skip grading the solutions
    python exercises/build.py --no-environment   # no pins or bmc wheel in the autograders

Each master notebook ``exercises/NN_topic.ipynb`` (otter-grader's assign format: a raw
``# ASSIGNMENT CONFIG`` cell, ``# BEGIN QUESTION`` / ``# BEGIN SOLUTION`` /
``# BEGIN TESTS`` blocks) goes through ``otter assign`` (its Python API,
``otter.assign.main``, the same as the command ``otter assign MASTER RESULT``) and gives::

    dist/NN_topic/
        student/NN_topic.ipynb, student/tests/   hand these out (no solutions, no outputs)
        NN_topic-student.zip                     the same folder as one file
        autograder/NN_topic.ipynb                the solutions, with autograder/tests/
        NN_topic-autograder.zip                  what `grade.py` and `otter run` grade with

Each check cell (``grader.check("q1")``, ``grader.check_all()``) is wrapped in
``checks.report(...)``, which heads otter's result with what the check judged ("right on the
practice data", "judged at grading", "not right yet"), never otter's "All test cases passed!"
for a value no check looked at.

By default the solution notebook is then graded by ``grade.py`` (sandboxed, hidden tests),
so a build fails if a solution or a check is wrong. The autograder zip holds the grader-side
``bmc_answers`` at its top (not under ``files/``, which otter copies next to the student's
notebook) and, in ``otter_config.json``, the otter plugin ``bmc_grading.gradescope.BmcGrading``
(``exercises/gradescope.py``), which on Gradescope and under ``otter run`` takes the student
from the LMS, keeps ``bmc_answers`` out of the student's kernel and judges outside it, as
``grade.py`` does. It also gets the course's exact pins (``requirements.txt``, Python of
``binder/runtime.txt`` in ``environment.yml``) and wheels of ``bmc`` and of the plugin under
``files/``, so that otter's Docker mode and Gradescope build the course's environment from
the zip alone. After each build this script checks that the student version holds no
solution marker, no solution line of the master, no output, no hidden test and no copy of
``bmc_answers``, that every question of the autograder has a hidden test, and that
``bmc_answers`` is nowhere under the zip's ``files/``; it stops with an error otherwise: a
student version with answers in it is never written silently.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
MARKERS = ("BEGIN SOLUTION", "END SOLUTION", "# SOLUTION")
_SOLUTION_SUFFIX = re.compile(r"\s*#\s*SOLUTION(\s+NO PROMPT)?\s*$")


def masters(selection: list[str] | None = None, *, folder: Path = HERE) -> list[Path]:
    """Return the master notebooks, optionally only those whose name starts with a selection.

    Parameters
    ----------
    selection : list of str, optional
        Topic numbers (``"01"``) or names (``"01_one_link"``, ``"one_link"``).
    folder : pathlib.Path, optional
        Where the masters are (default: this script's folder).

    Returns
    -------
    list of pathlib.Path
        Sorted paths.
    """
    found = sorted(folder.glob("[0-9][0-9]_*.ipynb"))
    if not selection:
        return found
    chosen = [nb for nb in found
              if any(nb.stem == s or nb.stem.startswith(f"{s}_") or nb.stem[3:] == s
                     for s in selection)]
    missing = [s for s in selection
               if not any(nb.stem == s or nb.stem.startswith(f"{s}_") or nb.stem[3:] == s
                          for nb in found)]
    if missing:
        raise SystemExit(f"no master notebook for {missing}; have {[nb.stem for nb in found]}")
    return chosen


def _raw_kind(cell: dict) -> str:
    """Return the block keyword of an otter raw boundary cell ('' for other cells)."""
    if cell["cell_type"] != "raw":
        return ""
    first = "".join(cell["source"]).strip().splitlines()[:1]
    return first[0].lstrip("#").strip().upper() if first else ""


def solution_lines(master: dict) -> list[str]:
    """Return the solution code lines and solution Markdown paragraphs of a master notebook.

    A line is a solution line when it ends with ``# SOLUTION`` (the marker removed) or sits
    between ``# BEGIN SOLUTION`` and ``# END SOLUTION`` comments, in a code cell of a
    solution block; Markdown cells of a solution block count whole.
    """
    found: list[str] = []
    in_block = False
    for cell in master["cells"]:
        kind = _raw_kind(cell)
        if kind == "BEGIN SOLUTION":
            in_block = True
            continue
        if kind == "END SOLUTION":
            in_block = False
            continue
        if not in_block:
            continue
        text = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            found.extend(p.strip() for p in text.split("\n\n") if p.strip())
            continue
        inside = False
        for line in text.splitlines():
            stripped = line.strip()
            if stripped.startswith("# BEGIN SOLUTION"):
                inside = True
                continue
            if stripped.startswith("# END SOLUTION"):
                inside = False
                continue
            if inside or _SOLUTION_SUFFIX.search(line):
                code = _SOLUTION_SUFFIX.sub("", line).strip()
                if code and not code.startswith("#"):
                    found.append(code)
    return found


def leaks(student: dict, master: dict) -> list[str]:
    """Return every way in which a student notebook reveals the master's solutions."""
    problems = []
    lines = set()
    texts = []
    for i, cell in enumerate(student["cells"]):
        text = "".join(cell["source"])
        texts.append(text)
        lines.update(line.strip() for line in text.splitlines())
        for marker in MARKERS:
            if marker in text:
                problems.append(f"cell {i} contains the marker {marker!r}")
        if cell["cell_type"] == "code" and cell.get("outputs"):
            problems.append(f"cell {i} has stored outputs")
    for sol in solution_lines(master):
        # a Markdown paragraph or a long line may be wrapped into other text: look anywhere;
        # a short code line must not appear as a line of its own
        hit = any(sol in t for t in texts) if ("\n" in sol or len(sol) > 60) else sol in lines
        if hit:
            problems.append(f"solution present: {sol[:80]!r}")
    return problems


def hidden_leaks(student: Path) -> list[str]:
    """Return every way in which a student folder holds a hidden test or an expected value.

    The student version may hold the public tests only: no test case marked hidden, no
    import of the grader-side ``bmc_answers`` (which computes the expected values), and no
    copy of that package.
    """
    problems = []
    for path in sorted(student.rglob("*")):
        rel = path.relative_to(student)
        if "bmc_answers" in rel.parts or path.name == "bmc_answers.py":
            problems.append(f"{rel}: the grader-side answers are in the student version")
        elif path.suffix in (".py", ".ipynb") and path.is_file():
            text = path.read_text(encoding="utf-8")
            if "hidden=True" in text or "bmc_answers" in text or "# HIDDEN" in text:
                problems.append(f"{rel}: holds a hidden test")
    return problems


def unhidden_questions(autograder: Path) -> list[str]:
    """Return the questions of an autograder zip that have no hidden (exact-value) test."""
    with zipfile.ZipFile(autograder) as zf:
        tests = {n: zf.read(n).decode() for n in zf.namelist()
                 if n.startswith("tests/") and n.endswith(".py")}
        shipped = any(n.startswith("bmc_answers/") for n in zf.namelist())
        exposed = [n for n in zf.namelist() if n.startswith("files/") and "bmc_answers" in n]
    missing = [Path(n).stem for n, text in sorted(tests.items())
               if "hidden=True" not in text or "bmc_answers" not in text]
    return (missing + ([] if shipped else ["(bmc_answers is not at the top of the zip)"])
            + [f"({n}: otter copies files/ next to the student's notebook)" for n in exposed])


_CHECK = re.compile(r'^grader\.(check\("[\w.-]+"\)|check_all\(\))$')


def wrap_checks(notebook: dict) -> int:
    """Wrap otter's check cells in ``checks.report(...)``; return how many were wrapped.

    ``checks.report`` heads the result with what the check judged: otter's own headline
    says "All test cases passed!" whenever nothing raised, also for a value the check could
    not judge.
    """
    count = 0
    for cell in notebook["cells"]:
        if cell["cell_type"] != "code":
            continue
        text = "".join(cell["source"]).strip()
        if _CHECK.match(text):
            cell["source"] = f"checks.report({text})"
            count += 1
    return count


def _grade_solution(result: Path, stem: str) -> None:
    """Grade the solution notebook with the real grader (sandboxed); demand full marks."""
    import grade
    import sandbox

    autograder = grade.Autograder.load(result / f"{stem}-autograder.zip")
    unsafe = sandbox.bwrap_path() is None
    row = grade.grade_file(result / "autograder" / f"{stem}.ipynb", autograder, "",
                           limits=sandbox.Limits(wall=300), unsafe=unsafe)
    if row["status"] != "ok" or row["total"] != row["possible"]:
        failed = {q: r["messages"] for q, r in row["questions"].items()
                  if r["score"] != r["possible"]}
        raise RuntimeError(f"{stem}: the solutions score {row['total']:g} / "
                           f"{row['possible']:g} ({row['status']} {row['error']}): {failed}")


REPO = HERE.parent
_ENVIRONMENT = """name: otter-env
channels:
  - conda-forge
dependencies:
  - python={python}
  - pip
  - pip:
      - -r /autograder/source/requirements.txt
      - /autograder/source/files/{wheel}
      - /autograder/source/files/{plugin}
"""


#: The otter plugin's modules (``exercises/``), shipped as the package ``bmc_grading``.
GRADING_MODULES = ("gradescope.py", "grade.py", "_runner.py", "sandbox.py", "_launch.py",
                   "_seccomp.py", "gradebook.py")
PLUGIN = "bmc_grading.gradescope.BmcGrading"


def grading_package(out: Path) -> Path:
    """Write the package ``bmc_grading`` (the otter plugin and the grader it reuses) into
    ``out / "pkg"`` and return that folder (put it on ``PYTHONPATH`` to run the plugin
    without installing it)."""
    root = out / "pkg"
    package = root / "bmc_grading"
    if package.exists():
        shutil.rmtree(package)
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(
        '"""Grading of the bmc exercises on Gradescope (otter plugin) and by grade.py."""\n')
    for name in GRADING_MODULES:
        shutil.copy(HERE / name, package / name)
    return root


def _wheel(out: Path, name: str, files: dict[str, bytes], summary: str) -> Path:
    """Write a pure-Python wheel (PEP 427: a zip with the files and a ``.dist-info``)."""
    import base64
    import hashlib

    out.mkdir(parents=True, exist_ok=True)
    version = "0.1.0"
    path = out / f"{name}-{version}-py3-none-any.whl"
    info = f"{name}-{version}.dist-info"
    files = dict(files)
    files[f"{info}/METADATA"] = (f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
                                 f"Summary: {summary}\n").encode()
    files[f"{info}/WHEEL"] = (b"Wheel-Version: 1.0\nGenerator: bmc exercises/build.py\n"
                              b"Root-Is-Purelib: true\nTag: py3-none-any\n")
    record = []
    for member, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
        record.append(f"{member},sha256={digest.decode()},{len(data)}")
    record.append(f"{info}/RECORD,,")
    files[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for member, data in files.items():
            zf.writestr(member, data)
    return path


def grading_wheel(out: Path) -> Path:
    """Write a wheel of ``bmc_grading`` (the otter plugin; no answers in it) into ``out``.

    The autograder environment installs it so that otter finds the plugin; the
    grader-side ``bmc_answers`` is not in it (it travels at the top of the zip and the
    plugin deletes it before the student's kernel starts).
    """
    package = grading_package(out) / "bmc_grading"
    files = {f"bmc_grading/{p.name}": p.read_bytes() for p in sorted(package.glob("*.py"))}
    return _wheel(out, "bmc_grading", files, "grading of the bmc exercises (otter plugin)")


def bmc_wheel(out: Path) -> Path:
    """Build a wheel of this repository's ``bmc`` into ``out`` (once) and return it."""
    found = sorted(out.glob("bmc-[0-9]*.whl"))
    if found:
        return found[-1]
    out.mkdir(parents=True, exist_ok=True)
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w",
                           str(out), str(REPO)], capture_output=True, text=True)
    found = sorted(out.glob("bmc-[0-9]*.whl"))
    if done.returncode != 0 or not found:
        raise RuntimeError(f"could not build the bmc wheel:\n{done.stdout}{done.stderr}")
    return found[-1]


def pin_environment(autograder: Path, wheel: Path, plugin: Path) -> None:
    """Make an autograder zip install this course's environment (for otter's Docker mode and
    Gradescope): the exact pins of ``binder/requirements.txt`` plus otter-grader (with
    its own requirements), Python of
    ``binder/runtime.txt``, and the wheels of ``bmc`` and of the plugin ``bmc_grading``,
    shipped in the zip under ``files/``."""
    python = (REPO / "binder" / "runtime.txt").read_text().strip().removeprefix("python-")
    python = ".".join(python.split(".")[:2])
    # The student pins, plus otter-grader itself with its own requirements (the student
    # environment installs it --no-deps; grading needs all of it).
    nodeps = [line for line in (REPO / "binder" / "requirements-nodeps.txt").read_text()
              .splitlines() if "==" in line and not line.startswith("#")]
    pins = ((REPO / "binder" / "requirements.txt").read_text()
            + "# otter-grader and fica with their requirements, for grading\n"
            + "".join(f"{line}\n" for line in nodeps))
    with zipfile.ZipFile(autograder) as zf:
        members = {n: zf.read(n) for n in zf.namelist()
                   if n not in ("environment.yml", "requirements.txt")}
    members["environment.yml"] = _ENVIRONMENT.format(python=python, wheel=wheel.name,
                                                     plugin=plugin.name).encode()
    members["requirements.txt"] = pins.encode()
    members[f"files/{wheel.name}"] = wheel.read_bytes()
    members[f"files/{plugin.name}"] = plugin.read_bytes()
    with zipfile.ZipFile(autograder, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)


def solutions_on_practice_data(notebook: dict) -> None:
    """Give the solution notebook the empty id: it runs on the practice data (the course's
    subject) in a plain kernel, where the students' placeholder id is refused."""
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            text = "".join(cell["source"])
            cell["source"] = text.replace(
                'STUDENT_ID = "your student id"  # replace it with your id, as your '
                'instructor gave it', 'STUDENT_ID = ""  # the solutions: the practice data, '
                'the course\'s subject')


def ship_answers(autograder: Path) -> None:
    """Put ``bmc_answers`` at the top of an autograder zip and the plugin in its config.

    Not under ``files/``: otter copies that folder next to the student's notebook, where
    the submission could import it. The plugin (``exercises/gradescope.py``) imports it
    into otter's own process and deletes it before the student's kernel starts.
    """
    with zipfile.ZipFile(autograder) as zf:
        members = {n: zf.read(n) for n in zf.namelist() if not n.startswith("bmc_answers/")}
    config = json.loads(members["otter_config.json"])
    config["plugins"] = [{PLUGIN: {}}]
    config["show_hidden"] = True  # per question: the judge's message, after publishing
    # no "Public Tests" entry: otter would head it "All test cases passed!" whatever the
    # practice checks found (the plugin replaces the in-kernel results)
    config["force_public_test_summary"] = False
    members["otter_config.json"] = json.dumps(config, indent=2).encode()
    for path in sorted((HERE / "bmc_answers").glob("*.py")):
        members[f"bmc_answers/{path.name}"] = path.read_bytes()
    with zipfile.ZipFile(autograder, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)


def build_one(master: Path, out: Path, *, run_tests: bool = True,
              environment: bool = True) -> Path:
    """Run otter assign on one master notebook and tidy the result.

    Parameters
    ----------
    master : pathlib.Path
        The master notebook.
    out : pathlib.Path
        The dist folder; the result goes to ``out / master.stem``.
    environment : bool, optional
        Ship the course's pins and a ``bmc`` wheel in the autograder zip, for otter's Docker
        mode and Gradescope (default; builds the wheel with pip once per ``out``).
    run_tests : bool, optional
        Let otter execute the solutions and run every test on them (default).

    Returns
    -------
    pathlib.Path
        The result folder.
    """
    from otter.assign import main as otter_assign

    # the hidden tests import the grader-side package exercises/bmc_answers
    if str(HERE) not in sys.path:
        sys.path.insert(0, str(HERE))
    paths = os.environ.get("PYTHONPATH", "").split(os.pathsep)
    if str(HERE) not in paths:
        os.environ["PYTHONPATH"] = os.pathsep.join([str(HERE), *filter(None, paths)])
    result = out / master.stem
    if result.exists():
        shutil.rmtree(result)
    result.mkdir(parents=True)
    otter_assign(str(master), str(result), no_run_tests=True, no_pdfs=True)

    zips = sorted((result / "autograder").glob("*-autograder_*.zip"))
    if len(zips) != 1:
        raise RuntimeError(f"expected one autograder zip in {result / 'autograder'}, got {zips}")
    zips[0].replace(result / f"{master.stem}-autograder.zip")
    ship_answers(result / f"{master.stem}-autograder.zip")
    plugin = grading_wheel(out / "_wheel")  # also for `otter run` here: pip install it
    if environment:
        pin_environment(result / f"{master.stem}-autograder.zip", bmc_wheel(out / "_wheel"),
                        plugin)

    student_nb = result / "student" / master.name
    for notebook in (student_nb, result / "autograder" / master.name):
        data = json.loads(notebook.read_text(encoding="utf-8"))
        if wrap_checks(data) < 2:
            raise RuntimeError(f"{notebook}: no otter check cells found to wrap")
        if notebook.parent.name == "autograder":
            solutions_on_practice_data(data)
        notebook.write_text(json.dumps(data, indent=1, ensure_ascii=False),
                            encoding="utf-8")
    found = leaks(json.loads(student_nb.read_text()), json.loads(master.read_text()))
    found += hidden_leaks(result / "student")
    missing = unhidden_questions(result / f"{master.stem}-autograder.zip")
    if missing:
        raise RuntimeError(f"{master.name}: questions without a hidden test: {missing}")
    if found:
        shutil.rmtree(result / "student")
        raise RuntimeError(f"{master.name}: the student version reveals solutions, deleted it:\n  "
                           + "\n  ".join(found))

    if run_tests:
        _grade_solution(result, master.stem)

    with zipfile.ZipFile(result / f"{master.stem}-student.zip", "w",
                         zipfile.ZIP_DEFLATED) as zf:
        for path in sorted((result / "student").rglob("*")):
            if path.is_file():
                zf.write(path, Path(master.stem) / path.relative_to(result / "student"))
    return result


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("topics", nargs="*", help="topic numbers or names (default: all)")
    parser.add_argument("--out", type=Path, default=HERE / "dist",
                        help="output folder (default: exercises/dist)")
    parser.add_argument("--no-run-tests", action="store_true",
                        help="do not execute the solutions against the tests")
    parser.add_argument("--no-environment", action="store_true",
                        help="do not ship the pins and a bmc wheel in the autograder zips "
                        "(they are only needed for otter's Docker mode and Gradescope)")
    args = parser.parse_args(argv)

    chosen = masters(args.topics)
    if not chosen:
        raise SystemExit(f"no master notebooks NN_*.ipynb in {HERE}")
    args.out.mkdir(parents=True, exist_ok=True)
    for master in chosen:
        start = time.perf_counter()
        result = build_one(master, args.out, run_tests=not args.no_run_tests,
                           environment=not args.no_environment)
        print(f"{master.name}: built {result} in {time.perf_counter() - start:.1f} s"
              + ("" if args.no_run_tests else " (solutions pass every test)"), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
