"""Check the student pins against the image Binder builds, without Docker.

Binder builds the course with repo2docker: a conda base environment (JupyterLab, notebook,
jupyterhub-singleuser, ... at versions fixed by repo2docker's lock file), then
``pip install -r binder/requirements.txt`` on top, then ``binder/postBuild``. A pin that
breaks a package of the base environment (for example ``jupyterlab`` newer than what the
base's ``notebook`` accepts) installs without error and then fails ``pip check`` or, worse,
at the student's first click. This script

1. runs ``repo2docker --no-build --debug`` on the repository and reads, in the Dockerfile it
   prints, which base lock file Binder uses and that it installs ``binder/requirements.txt``
   and runs ``binder/postBuild``;
2. forms the environment that results: every pinned package at its pin, every other Python
   package of the base at its base version;
3. reads the declared requirements of all of them (``pip install --dry-run --no-deps
   --report``, metadata only, nothing installed) and reports, as ``pip check`` would in the
   built image, every requirement that is missing or not satisfied. Requirements the student
   environment omits on purpose (listed in ``binder/requirements-nodeps.txt``) are allowed.

Usage (needs jupyter-repo2docker installed and network access to PyPI)::

    python tools/check_binder.py                     # exit 1 on any conflict
    python tools/check_binder.py --requirements FILE # check another pin file in its place
    python tools/check_binder.py --pip-check PYTHON  # pip check of a built student env,
                                                     # allowing only the declared omissions
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
REQUIREMENTS = ROOT / "binder" / "requirements.txt"
NODEPS = ROOT / "binder" / "requirements-nodeps.txt"

_CONDA_RENAMES = {"jupyterhub-base": "jupyterhub", "brotli-python": "brotli",
                  "python-fastjsonschema": "fastjsonschema", "nbconvert-core": "nbconvert"}


def binder_dockerfile(repo: Path = ROOT) -> str:
    """Print, with repo2docker ``--no-build`` (no Docker needed), the Dockerfile for ``repo``.

    Parameters
    ----------
    repo : Path
        Root of a checkout with a ``binder/`` folder.

    Returns
    -------
    str
        repo2docker's debug output, which contains the generated Dockerfile.
    """
    exe = shutil.which("repo2docker", path=str(Path(sys.executable).parent)) or "repo2docker"
    run = subprocess.run([exe, "--no-build", "--debug", "--user-id", "1000",
                          "--user-name", "jovyan", str(repo)],
                         capture_output=True, text=True, timeout=300)
    if run.returncode:
        raise SystemExit(f"repo2docker --no-build failed:\n{run.stderr[-3000:]}")
    return run.stdout + run.stderr


def base_lock(dockerfile: str) -> Path:
    """Find the conda lock file of the base environment named in ``dockerfile``.

    Parameters
    ----------
    dockerfile : str
        Output of :func:`binder_dockerfile`.

    Returns
    -------
    Path
        The lock file inside the installed repo2docker package.
    """
    import repo2docker.buildpacks.conda as conda

    unescaped = re.sub(r"-([0-9a-f]{2})", lambda m: chr(int(m.group(1), 16)), dockerfile)
    found = re.findall(r"environment\.py-(\d+\.\d+)-linux-64\.lock", unescaped)
    if not found:
        raise SystemExit("repo2docker's Dockerfile names no conda lock file: has Binder "
                         "stopped using its Python buildpack for binder/?")
    return Path(conda.__file__).parent / f"environment.py-{found[0]}-linux-64.lock"


def read_lock(lock: Path) -> dict[str, str]:
    """Python packages of a conda explicit lock file: canonical PyPI name -> version."""
    base = {}
    for line in lock.read_text().splitlines():
        if line.startswith("https://"):
            stem = re.sub(r"\.(conda|tar\.bz2)(#.*)?$", "", line.rsplit("/", 1)[1])
            name, version, build = stem.rsplit("-", 2)
            if build.startswith("py"):  # Python packages, not conda-only ones (nodejs, ...)
                base[canonicalize_name(_CONDA_RENAMES.get(name, name))] = version
    return base


def read_pins(*files: Path) -> dict[str, str]:
    """``name==version`` lines of pip requirement files: canonical name -> version."""
    pins = {}
    for file in files:
        for line in file.read_text().splitlines():
            line = line.split("#")[0].strip()
            if "==" in line:
                name, version = line.split("==")
                pins[canonicalize_name(name)] = version.strip()
    return pins


def allowed_omissions(nodeps: Path = NODEPS) -> set[tuple[str, str]]:
    """(package, requirement) pairs the student environment omits on purpose."""
    pairs = re.findall(r"^#\s+([\w.-]+) -> ([\w.-]+)", nodeps.read_text(), re.M)
    return {(canonicalize_name(a), canonicalize_name(b)) for a, b in pairs}


_REQUIRES: dict[tuple[str, str], list[str]] = {}  # (name, version) -> requirements, read once


def _metadata(env: dict[str, str]) -> dict[str, list[str]]:
    """Read the requirements of each ``name==version`` (pip's dry-run report, no install).

    Each distribution's metadata is fetched once per process: a second check that changes
    two pins asks pip for those two only.
    """
    missing = sorted((n, v) for n, v in env.items() if (n, v) not in _REQUIRES)
    if missing:
        run = subprocess.run(
            [sys.executable, "-m", "pip", "install", "--dry-run", "--quiet", "--no-deps",
             "--ignore-installed", "--report", "-", *(f"{n}=={v}" for n, v in missing)],
            capture_output=True, text=True)
        if run.returncode:
            raise SystemExit(f"pip could not fetch the metadata:\n{run.stderr[-3000:]}")
        asked = {canonicalize_name(n): (n, v) for n, v in missing}
        for item in json.loads(run.stdout)["install"]:
            meta = item["metadata"]
            _REQUIRES[asked[canonicalize_name(meta["name"])]] = meta.get("requires_dist", [])
    return {canonicalize_name(n): _REQUIRES[n, v] for n, v in env.items()}


def conflicts(pins: dict[str, str], base: dict[str, str],
              allowed: set[tuple[str, str]] = frozenset()) -> list[str]:
    """Unmet requirements in the environment Binder builds, as ``pip check`` reports them.

    Parameters
    ----------
    pins : dict of str to str
        The course's pins (canonical name -> version), installed over the base.
    base : dict of str to str
        The base environment's Python packages (canonical name -> version).
    allowed : set of (str, str)
        (package, requirement) pairs that may be missing (deliberate omissions).

    Returns
    -------
    list of str
        One line per unmet requirement; empty when the image would pass ``pip check``.
    """
    env = {**base, **pins}
    markers = {**default_environment(), "extra": ""}
    problems = []
    for name, requires in sorted(_metadata(env).items()):
        for text in requires:
            req = Requirement(text)
            if req.marker is not None and not req.marker.evaluate(markers):
                continue
            dep = canonicalize_name(req.name)
            where = "pinned" if name in pins else "Binder base"
            if dep not in env:
                if (name, dep) not in allowed:
                    problems.append(f"{name} {env[name]} ({where}) requires {text}, "
                                    "which is not installed")
            elif not req.specifier.contains(Version(env[dep]), prereleases=True):
                dwhere = "pinned" if dep in pins else "Binder base"
                problems.append(f"{name} {env[name]} ({where}) requires {req}, but "
                                f"{dep} {env[dep]} ({dwhere}) is installed")
    return problems


def pip_check(python: str) -> list[str]:
    """``pip check`` of the environment of ``python``, less the declared omissions.

    Parameters
    ----------
    python : str
        Interpreter of a built student environment.

    Returns
    -------
    list of str
        The lines of ``pip check`` that are not a deliberate omission (empty when clean).
    """
    run = subprocess.run([python, "-m", "pip", "check"], capture_output=True, text=True)
    allowed = allowed_omissions()
    unexpected = []
    for line in run.stdout.splitlines():
        match = re.match(r"([\w.-]+) \S+ requires ([\w.-]+), which is not installed", line)
        if not (match and tuple(map(canonicalize_name, match.groups())) in allowed):
            if line.strip() and not line.startswith("No broken requirements"):
                unexpected.append(line)
    return unexpected


def main(argv: list[str] | None = None) -> int:
    """Command line: check the pins against Binder's base environment."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--requirements", type=Path, default=REQUIREMENTS,
                        help="pin file to check in place of binder/requirements.txt")
    parser.add_argument("--pip-check", metavar="PYTHON",
                        help="instead: pip check the environment of PYTHON")
    args = parser.parse_args(argv)
    if args.pip_check:
        problems = pip_check(args.pip_check)
        for line in problems:
            print("pip check:", line)
        print(f"pip check: {'FAILED' if problems else 'clean'} (omitted on purpose: "
              + ", ".join(f"{a} -> {b}" for a, b in sorted(allowed_omissions())) + ")")
        return 1 if problems else 0
    dockerfile = binder_dockerfile()
    for step in ('pip install --no-cache-dir -r "binder/requirements.txt"', "./binder/postBuild"):
        if step not in dockerfile:
            print(f"repo2docker's Dockerfile no longer runs {step!r}; update this check")
            return 1
    lock = base_lock(dockerfile)
    base = read_lock(lock)
    pins = read_pins(args.requirements, NODEPS)
    problems = conflicts(pins, base, allowed_omissions())
    print(f"Binder base: {lock.name} ({len(base)} Python packages); "
          f"course pins: {len(pins)}; overridden base packages: {len(set(pins) & set(base))}")
    for line in problems:
        print("CONFLICT:", line)
    if problems:
        print("Fix: pin a version the base accepts, or pin the base package too; "
              "then run python tools/pin_environments.py")
        return 1
    print("pip check in the Binder image: no conflict")
    return 0


if __name__ == "__main__":
    sys.exit(main())
