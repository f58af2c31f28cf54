"""Print nbgitpuller links that open each course notebook and exercise set on a JupyterHub.

A link ``https://HUB/hub/user-redirect/git-pull?repo=...&urlpath=...`` logs the student in,
starts their server, clones the course into their home the first time and, every later time,
merges the course's new commits without overwriting the student's edits (nbgitpuller), then
opens the notebook in JupyterLab.

The exercise masters in ``exercises/`` hold the solutions, so exercise links point to a
separate repository of student versions (``--exercises-repo``): the contents of
``exercises/dist/NN_topic/student/`` for every set, each in a folder ``NN_topic/`` (see
docs/jupyterhub.md). Without ``--exercises-repo`` only the notebook links are printed.

Usage::

    python tools/hub_links.py --hub https://hub.example.edu
    python tools/hub_links.py --hub https://hub.example.edu --markdown
    python tools/hub_links.py --hub URL --exercises-repo https://github.com/me/bmc-exercises
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from urllib.parse import urlencode, urlsplit

__all__ = ["course_links", "nbgitpuller_link"]

ROOT = Path(__file__).resolve().parents[1]
COURSE_REPO = "https://github.com/bmc-course/bmc"


def _target(repo: str) -> str:
    """Folder nbgitpuller clones ``repo`` into: the last part of its URL, without ``.git``."""
    return repo.rstrip("/").rsplit("/", 1)[-1].removesuffix(".git")


def nbgitpuller_link(hub: str, repo: str, path: str, *, branch: str = "main",
                     app: str = "lab") -> str:
    """One nbgitpuller link that opens ``path`` of ``repo`` on ``hub``.

    Parameters
    ----------
    hub : str
        Base URL of the JupyterHub, e.g. ``"https://hub.example.edu"`` (http or https).
    repo : str
        URL of the git repository nbgitpuller clones into each student's home.
    path : str
        File to open, relative to the repository root (``/``-separated).
    branch : str, optional
        Branch to pull.
    app : {"lab", "notebook"}, optional
        Interface the link opens.

    Returns
    -------
    str
        The link.

    Examples
    --------
    >>> nbgitpuller_link("https://hub.example.edu", "https://github.com/o/bmc",
    ...                  "notebooks/01_one_link.ipynb")  # doctest: +NORMALIZE_WHITESPACE
    'https://hub.example.edu/hub/user-redirect/git-pull?repo=https%3A%2F%2Fgithub.com%2Fo%2Fbmc&branch=main&urlpath=lab%2Ftree%2Fbmc%2Fnotebooks%2F01_one_link.ipynb'
    """
    parts = urlsplit(hub)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"hub must be the URL of a JupyterHub such as "
                         f"'https://hub.example.edu'; got {hub!r}")
    if app not in ("lab", "notebook"):
        raise ValueError(f"app must be 'lab' or 'notebook'; got {app!r}")
    urlpath = f"{'lab/tree' if app == 'lab' else 'tree'}/{_target(repo)}/{path}"
    query = urlencode({"repo": repo, "branch": branch, "urlpath": urlpath})
    return f"{hub.rstrip('/')}/hub/user-redirect/git-pull?{query}"


def course_links(hub: str, *, repo: str = COURSE_REPO, branch: str = "main",
                 exercises_repo: str | None = None, exercises_branch: str = "main",
                 app: str = "lab") -> list[tuple[str, str]]:
    """(title, link) for every course notebook and, given ``exercises_repo``, exercise set.

    Parameters
    ----------
    hub : str
        Base URL of the JupyterHub.
    repo, branch : str, optional
        The course repository and branch (notebooks).
    exercises_repo, exercises_branch : str, optional
        Repository and branch of the student versions of the exercise sets.
    app : {"lab", "notebook"}, optional
        Interface the links open.

    Returns
    -------
    list of (str, str)
        Titles such as ``"notebook 01_one_link"`` and their links, in course order.
    """
    links = [(f"notebook {p.stem}",
              nbgitpuller_link(hub, repo, f"notebooks/{p.name}", branch=branch, app=app))
             for p in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))]
    if exercises_repo:
        links += [(f"exercises {p.stem}",
                   nbgitpuller_link(hub, exercises_repo, f"{p.stem}/{p.name}",
                                    branch=exercises_branch, app=app))
                  for p in sorted((ROOT / "exercises").glob("[0-9][0-9]_*.ipynb"))]
    return links


def main(argv: list[str] | None = None) -> int:
    """Command line: print one link per line (or a Markdown list with ``--markdown``)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hub", required=True, help="JupyterHub URL, https://hub.example.edu")
    parser.add_argument("--repo", default=COURSE_REPO, help="course repository (notebooks)")
    parser.add_argument("--branch", default="main")
    parser.add_argument("--exercises-repo", help="repository of the exercises' student versions")
    parser.add_argument("--exercises-branch", default="main")
    parser.add_argument("--app", choices=("lab", "notebook"), default="lab")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown list")
    args = parser.parse_args(argv)
    try:
        links = course_links(args.hub, repo=args.repo, branch=args.branch,
                             exercises_repo=args.exercises_repo,
                             exercises_branch=args.exercises_branch, app=args.app)
    except ValueError as err:
        parser.error(str(err))
    for title, link in links:
        print(f"- [{title}]({link})" if args.markdown else f"{title}\t{link}")
    if not args.exercises_repo:
        print("(no exercise links: pass --exercises-repo, the repository of the student "
              "versions; see docs/jupyterhub.md)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
