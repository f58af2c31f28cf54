"""Sphinx extension of the course site: launch links at the top of every notebook page.

A page built from ``notebooks/NN_topic.ipynb`` gets

- **Binder**: JupyterLab on that notebook, ``{binder}/v2/gh/{repo}/{branch}?urlpath=lab/tree/
  notebooks/NN_topic.ipynb``;
- **JupyterHub** (only when ``bmc_hub_url`` is set): an nbgitpuller link that clones or updates
  the course in the student's own hub account and opens the notebook,
  ``{hub}/hub/user-redirect/git-pull?repo=...&branch=...&urlpath=lab/tree/{name}/notebooks/
  NN_topic.ipynb`` (nbgitpuller clones into a folder named after the repository);
- **Download notebook**: the stored ``.ipynb`` beside the page.

A page built from ``exercises/NN_topic.ipynb`` (a student version) gets a link to the
student zip (the notebook with its public tests), the file students work in.
"""

from __future__ import annotations

from html import escape
from urllib.parse import quote, urlencode

from docutils import nodes
from sphinx.application import Sphinx

BINDER = "https://mybinder.org"


def binder_url(repository: str, branch: str, path: str) -> str:
    """Return the Binder link that opens ``path`` (repository-relative) in JupyterLab."""
    return f"{BINDER}/v2/gh/{repository}/{branch}?urlpath={quote(f'lab/tree/{path}', safe='')}"


def hub_url(hub: str, repository: str, branch: str, path: str) -> str:
    """Return the nbgitpuller link that pulls the course into ``hub`` and opens ``path``."""
    folder = repository.rsplit("/", 1)[-1]
    query = urlencode({"repo": f"https://github.com/{repository}", "branch": branch,
                       "urlpath": f"lab/tree/{folder}/{path}"})
    return f"{hub}/hub/user-redirect/git-pull?{query}"


def _links(app: Sphinx, docname: str) -> list[tuple[str, str, str]]:
    """Return (label, href, css class) of the launch links of a page, or []."""
    config = app.config
    folder, _, stem = docname.partition("/")
    if folder == "notebooks" and stem:
        path = f"notebooks/{stem}.ipynb"
        links = [("Launch on Binder", binder_url(config.bmc_repository, config.bmc_branch,
                                                 path), "bmc-binder")]
        if config.bmc_hub_url:
            links.append(("Open in JupyterHub", hub_url(config.bmc_hub_url,
                                                        config.bmc_repository,
                                                        config.bmc_branch, path), "bmc-hub"))
        links.append(("Download notebook", f"{stem}.ipynb", "bmc-download"))
        return links
    if folder == "exercises" and stem:
        return [("Download the exercise (notebook and checks, zip)", f"{stem}-student.zip",
                 "bmc-download")]
    return []


def _add_launch_links(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Insert the launch links under the page title (a raw HTML block)."""
    links = _links(app, docname)
    if not links:
        return
    anchors = "".join(
        f'<a class="{css}" href="{escape(href)}"'
        + (" download" if css == "bmc-download" else ' target="_blank" rel="noopener"')
        + f">{escape(label)}</a>"
        for label, href, css in links)
    block = nodes.raw("", f'<div class="bmc-launch">{anchors}</div>', format="html")
    section = next(iter(doctree.findall(nodes.section)), None)
    if section is None:
        doctree.insert(0, block)
        return
    title = next(iter(section.findall(nodes.title)), None)
    section.insert(section.index(title) + 1 if title is not None else 0, block)


def setup(app: Sphinx) -> dict:
    """Register the configuration values and the launch-link hook."""
    app.add_config_value("bmc_repository", "bmc-course/bmc", "html")
    app.add_config_value("bmc_branch", "main", "html")
    app.add_config_value("bmc_hub_url", "", "html")
    app.connect("doctree-resolved", _add_launch_links)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
