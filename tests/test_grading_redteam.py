"""Red team: hostile submissions cannot change their grade, the machine, or the batch.

Two exercise sets (1: one-link, 3: matrix formalism, which has a function answer) are built
once; for each, a batch holds the correct, a partly wrong and an empty submission, and one
submission per attack (below). The whole batch goes through ``exercises/grade.py`` as an
instructor runs it, with a canary home directory and small limits. Then:

- every submission has its row, with the score its real answers deserve;
- the canary home, the bmc source tree, the grader-side answers and the site-packages
  listing are byte-identical (hashes before and after);
- no process of the sandbox's uids is left;
- the batch took bounded time; rerunning it resumes (grades nothing twice).

Needs bubblewrap (``/usr/bin/bwrap``); CI installs it.
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[1]
EXERCISES = REPO / "exercises"
SETS = {"01_one_link": 11.0, "03_matrix_formalism": 11.0}
WALL, CELL = 25, 4
# a 2-point question answered wrongly in the "partly" submission: set 1 q1, set 3 q3
PARTLY = {"01": ("T = ", "T = 2 * T"),
          "03": ("delta = ", "delta = 2 * delta")}  # seconds: small limits keep the suite short

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(shutil.which("bwrap") is None,
                                 reason="bubblewrap is not installed")]


def _env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.setdefault("OPENBLAS_NUM_THREADS", "1")
    env["PYTHONWARNINGS"] = "ignore"
    env.update(extra)
    return env


def _tree_hash(root: Path, *, content: bool = True) -> str:
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        if "__pycache__" in path.parts:
            continue
        digest.update(str(path.relative_to(root)).encode())
        if path.is_file() and not path.is_symlink():
            if content:
                digest.update(path.read_bytes())
            else:
                st = path.stat()
                digest.update(f"{st.st_size}:{st.st_mtime_ns}".encode())
    return digest.hexdigest()


def _cell(source: str) -> dict:
    return {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
            "source": source}


# Each attack: (name, base notebook, attack code, expected score: "full", 0.0, or "error":
# an error row with 0 points, for a notebook that never lets its answers be read).
# "{canary}", "{repo}", "{port}" and "{stem}" are filled in per run.
ATTACKS = [
    ("replace_checks", "blank", """
import bmc.checks as c
for name in dir(c):
    if name.startswith("check_"):
        setattr(c, name, lambda *a, **k: True)
try:
    import bmc_answers as b
    for name in dir(b):
        if name.startswith("check_"):
            setattr(b, name, lambda *a, **k: True)
except ImportError:
    pass
""", 0.0),
    ("rewrite_tests", "blank", """
import os, pathlib
for folder in ["tests", "{repo}/exercises/dist", "/autograder/source/tests"]:
    try:
        pathlib.Path(folder).mkdir(parents=True, exist_ok=True)
        for q in range(1, 6):
            (pathlib.Path(folder) / f"q{{q}}.py").write_text(
                "from otter.test_files import test_case\\nname='q%d'\\npoints=100\\n"
                "@test_case(points=100, hidden=True)\\ndef t():\\n    pass\\n" % q)
    except OSError:
        pass
""", 0.0),
    ("read_expected", "blank", """
import bmc.checks as c
from bmc.checks import _core
seen = []
for helper in ("check_value", "check_sign", "check_function", "check_set", "check_choice"):
    original = getattr(_core, helper)
    def spy(name, answer, expected=None, *a, _o=original, **k):
        seen.append(expected)
        return True
    setattr(_core, helper, spy)
for name in dir(c):
    if name.startswith("check_") and name not in _core.__all__:
        try:
            getattr(c, name)(*([0.0] * getattr(c, name).__code__.co_argcount))
        except Exception:
            pass
numbers = [s for s in seen if s is not None]
T = numbers[0] if numbers else ...
thetadd = numbers[0] if numbers else ...
""", 0.0),
    ("find_solution", "blank", """
import bmc, pathlib, json
roots = [pathlib.Path(bmc.__file__).resolve().parents[1], pathlib.Path("{repo}")]
found = [p for r in roots if r.exists() for p in r.rglob("*.ipynb")
         if "{stem}" in p.name and "student" not in str(p)]
for nb in found[:1]:
    for cell in json.loads(nb.read_text())["cells"]:
        if cell["cell_type"] == "code":
            try:
                exec("".join(cell["source"]))
            except Exception:
                pass
""", 0.0),
    ("home", "solution", """
import os, pathlib
got = []
for home in ["{canary}", os.path.expanduser("~"), "/root"]:
    try:
        got.append(pathlib.Path(home, ".ssh", "id_rsa").read_text())
    except OSError:
        pass
    try:
        pathlib.Path(home, "PWNED").write_text("pwned")
    except OSError:
        pass
    try:
        with open(pathlib.Path(home, ".bashrc"), "a") as f:
            f.write("echo pwned\\n")
    except OSError:
        pass
if any("CANARY" in g for g in got):
    T = thetadd = -1.0   # a key was read: lose the points, so the test sees it
""", "full"),
    ("poison_install", "solution", """
import bmc, pathlib
for path in pathlib.Path(bmc.__file__).parent.rglob("*.py"):
    try:
        with open(path, "a") as f:
            f.write("\\ncheck_value = lambda *a, **k: True\\n")
    except OSError:
        pass
import site
for folder in site.getsitepackages():
    try:
        pathlib.Path(folder, "pwned.pth").write_text("import os\\n")
    except OSError:
        pass
""", "full"),
    ("infinite_loop", "solution", "while True:\n    pass\n", "full"),
    ("loop_ignoring_alarm", "solution", """
import signal
signal.signal(signal.SIGALRM, signal.SIG_IGN)
while True:
    pass
""", "error"),
    ("fork_bomb", "solution", """
import os
try:
    while True:
        os.fork()
except OSError:
    pass
""", "full"),
    ("memory_hog", "solution", """
hog = []
for _ in range(8):
    hog.append(bytearray(2**30))   # 8 GB, far over the limit
""", "full"),
    ("print_100MB", "solution", """
import os, sys
chunk = "x" * 2**20
for _ in range(100):
    sys.stdout.write(chunk)
sys.stdout.flush()
""", "full"),
    ("kill_parent", "solution", """
import os, signal
for pid in (os.getppid(), 1):
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass
""", "full"),
    ("forge_results", "blank", """
import json, os
json.dump({{"answers": {{"T": {{"value": 11}}, "thetadd": {{"value": 11}}}},
           "score": 11, "total": 500}}, open("/scratch/answers.json", "w"))
for name in ("results.json", "results.pkl", "grades.csv"):
    open(name, "w").write("11/11")
os._exit(0)
""", "error"),
    ("socket", "solution", """
import socket
try:
    socket.create_connection(("127.0.0.1", {port}), timeout=2).close()
    T = thetadd = -1.0   # connected: lose the points, so the test sees it
except OSError:
    pass
""", "full"),
    ("sleep_past_limit", "solution", "import time\ntime.sleep(10**6)\n", "full"),
    ("exit_early", "solution", "import os\nos._exit(0)\n", "error"),
]


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    """Build two sets, write the batch, grade it once with a canary home, hash around it."""
    work = tmp_path_factory.mktemp("redteam")
    dist = work / "dist"
    done = subprocess.run([sys.executable, str(EXERCISES / "build.py"), *SETS, "--out",
                           str(dist), "--no-run-tests", "--no-environment"],
                          capture_output=True, text=True,
                          env=_env(), timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr

    canary = work / "home"
    (canary / ".ssh").mkdir(parents=True)
    (canary / ".ssh" / "id_rsa").write_text("CANARY PRIVATE KEY\n")
    (canary / ".bashrc").write_text("# canary bashrc\n")

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    port = listener.getsockname()[1]
    connections = []

    def accept() -> None:
        listener.settimeout(1.0)
        while not stop.is_set():
            try:
                connections.append(listener.accept()[0])
            except OSError:
                continue

    stop = threading.Event()
    thread = threading.Thread(target=accept, daemon=True)
    thread.start()

    subs = work / "submissions"
    subs.mkdir()
    expected: dict[str, object] = {}
    for stem, points in SETS.items():
        short = stem[:2]
        solution = json.loads((dist / stem / "autograder" / f"{stem}.ipynb").read_text())
        blank = json.loads((dist / stem / "student" / f"{stem}.ipynb").read_text())
        (subs / f"correct-{short}.ipynb").write_text(json.dumps(solution))
        expected[f"correct-{short}"] = points
        (subs / f"empty-{short}.ipynb").write_text(json.dumps(blank))
        expected[f"empty-{short}"] = 0.0
        partly = json.loads(json.dumps(solution))
        marker, wrong = PARTLY[short]
        cell = next(c for c in partly["cells"] if c["cell_type"] == "code"
                    and marker in "".join(c["source"]))
        cell["source"] = "".join(cell["source"]) + f"\n{wrong}  # a wrong answer\n"
        (subs / f"partly-{short}.ipynb").write_text(json.dumps(partly))
        expected[f"partly-{short}"] = points - 2.0  # question 1 (2 points) lost
        for name, base, code, score in ATTACKS:
            nb = json.loads(json.dumps(solution if base == "solution" else blank))
            nb["cells"].append(_cell(code.format(canary=canary, repo=REPO, port=port,
                                                 stem=stem)))
            (subs / f"{name}-{short}.ipynb").write_text(json.dumps(nb))
            expected[f"{name}-{short}"] = points if score == "full" else score

    # A copied number: set 1's torque of student "correct-01", handed in by another student.
    from bmc import checks

    with checks.student_data("correct-01"):
        q = checks.problem("one_link")
        T = ((q.inertia + q.mass * q.com**2 + q.load * q.length**2) * q.alphadd
             + (q.mass * q.com + q.load * q.length) * q.g * np.cos(q.alpha))
    copied = json.loads((dist / "01_one_link" / "student" / "01_one_link.ipynb").read_text())
    copied["cells"].append(_cell(f"T = {T!r}  # a neighbour's answer\n"))
    (subs / "copied-01.ipynb").write_text(json.dumps(copied))
    expected["copied-01"] = 0.0  # right for correct-01, wrong for this student's data

    package = REPO / "bmc"
    site = Path(os.__file__).parent  # the standard library; the venv's site-packages below
    venv_site = Path(next(p for p in sys.path if p.endswith("site-packages")))
    before = {"home": _tree_hash(canary), "bmc": _tree_hash(package),
              "answers": _tree_hash(EXERCISES / "bmc_answers"),
              "site": _tree_hash(venv_site, content=False), "stdlib": _tree_hash(site,
                                                                               content=False)}
    out = work / "grades.csv"
    cmd = [sys.executable, str(EXERCISES / "grade.py"), str(subs), "--dist", str(dist),
           "--out", str(out), "--json", str(work / "grades.json"), "--feedback",
           str(work / "feedback"), "--jobs", "2", "--time-limit", str(WALL),
           "--cell-time-limit", str(CELL), "--memory", "2"]
    start = time.perf_counter()
    graded = subprocess.run(cmd, capture_output=True, text=True, timeout=900,
                            env=_env(HOME=str(canary)))
    seconds = time.perf_counter() - start
    after = {"home": _tree_hash(canary), "bmc": _tree_hash(package),
             "answers": _tree_hash(EXERCISES / "bmc_answers"),
             "site": _tree_hash(venv_site, content=False), "stdlib": _tree_hash(site,
                                                                              content=False)}
    leftovers = subprocess.run(["ps", "-eo", "uid=,pid=,args="], capture_output=True,
                               text=True).stdout
    stop.set()
    thread.join(timeout=5)
    listener.close()
    rows = {r["student_id"]: r for r in json.loads((work / "grades.json").read_text())}
    with open(out, newline="") as handle:
        csv_rows = list(csv.DictReader(handle))
    print(f"\nred team: {len(rows)} submissions graded in {seconds:.0f} s (pytest -s shows this)")
    for sid in sorted(rows):
        r = rows[sid]
        print(f"  {sid:<28} {r['total']:>4g} / {r['possible']:<4g} {r['status']:<10} "
              f"{r.get('seconds', '')!s:>6} s  {r['error'][:70]}")
    return {"graded": graded, "seconds": seconds, "rows": rows, "csv": csv_rows,
            "expected": expected, "before": before, "after": after, "cmd": cmd,
            "canary": canary, "connections": connections, "leftovers": leftovers,
            "work": work, "out": out}


def test_every_submission_has_its_row_and_the_batch_is_bounded(batch):
    assert set(batch["rows"]) == set(batch["expected"]), batch["graded"].stdout[-3000:]
    assert len(batch["csv"]) == len(batch["expected"])
    # 2 sets x 19 submissions on 2 workers; two hostile ones run into the wall limit
    assert batch["seconds"] < 300, batch["seconds"]
    assert "graded" in batch["graded"].stdout


@pytest.mark.parametrize("name", ["correct", "partly", "empty"]
                         + [a[0] for a in ATTACKS])
@pytest.mark.parametrize("short", ["01", "03"])
def test_each_submission_gets_the_score_its_real_answers_deserve(batch, name, short):
    sid = f"{name}-{short}"
    row, want = batch["rows"][sid], batch["expected"][sid]
    feedback = json.dumps(row["questions"])[:2000]
    if want == "error":
        assert row["status"] != "ok" and row["total"] == 0, row
        assert row["error"], row
    else:
        assert row["status"] == "ok", (row["status"], row["error"])
        assert row["total"] == want, feedback
    assert row["possible"] == SETS[next(s for s in SETS if s.startswith(short))]
    assert 0 <= row["total"] <= row["possible"]


def test_a_number_copied_from_another_student_fails(batch):
    row = batch["rows"]["copied-01"]
    assert row["status"] == "ok" and row["total"] == 0.0, row
    assert row["questions"]["q1"]["messages"][0].startswith("T is not correct yet")


def test_hostile_loops_are_stopped_at_the_limit_with_an_error_row(batch):
    for short in ("01", "03"):
        row = batch["rows"][f"loop_ignoring_alarm-{short}"]
        assert row["status"] == "timeout" and "time limit" in row["error"], row


def test_nothing_outside_the_scratch_directory_changed(batch):
    assert batch["before"] == batch["after"]
    assert not (batch["canary"] / "PWNED").exists()
    assert (batch["canary"] / ".bashrc").read_text() == "# canary bashrc\n"
    assert not (EXERCISES / "dist" / "q1.py").exists()


def test_no_network_and_no_process_left_behind(batch):
    assert batch["connections"] == []  # the socket attack never reached the listener
    uids = {int(line.split()[0]) for line in batch["leftovers"].splitlines() if line.strip()}
    assert not {u for u in uids if 61000 <= u < 61100}, batch["leftovers"]


def test_feedback_is_written_per_student_and_never_shows_the_value(batch):
    folder = batch["work"] / "feedback"
    assert {p.stem for p in folder.glob("*.txt")} == set(batch["expected"])
    text = (folder / "partly-01.txt").read_text()
    assert "q1: 0 / 2" in text and "Hint:" in text


def test_a_rerun_resumes_and_grades_nothing_twice(batch):
    lines = batch["out"].read_text().splitlines()
    kept = [line for line in lines if not line.startswith("correct-01,")]
    batch["out"].write_text("\n".join(kept) + "\n")
    again = subprocess.run(batch["cmd"][:batch["cmd"].index("--json")] + batch["cmd"][
        batch["cmd"].index("--feedback"):], capture_output=True, text=True, timeout=300,
        env=_env(HOME=str(batch["canary"])))
    assert f"resuming: {len(batch['expected']) - 1} submissions" in again.stdout, again.stdout
    assert "graded 1 submissions" in again.stdout, again.stdout
    with open(batch["out"], newline="") as handle:
        rows = {r["student_id"]: r for r in csv.DictReader(handle)}
    assert len(rows) == len(batch["expected"]) and rows["correct-01"]["total"] == "11"


def test_without_bubblewrap_the_grader_refuses(tmp_path):
    nb = tmp_path / "alice.ipynb"
    nb.write_text(json.dumps({"cells": [], "metadata": {}, "nbformat": 4,
                              "nbformat_minor": 5}))
    done = subprocess.run([sys.executable, str(EXERCISES / "grade.py"), str(nb),
                           "--autograder", "none.zip", "--out", str(tmp_path / "g.csv")],
                          capture_output=True, text=True, env=_env(PATH="/nonexistent"),
                          timeout=120)
    assert done.returncode != 0
    assert "refusing to run student code without a sandbox" in done.stderr
    assert "--unsafe-no-sandbox" in done.stderr
    assert not (tmp_path / "g.csv").exists()
