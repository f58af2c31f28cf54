"""Data sets used by the course, fetched on demand and verified by SHA-256.

The project commits no third-party data. Each file is listed in a registry with its URL and
SHA-256; :func:`load_running` fetches the files with pooch into the user's cache
(``pooch.os_cache("bmc")``) on first use and checks every byte against the registry.

Set the environment variable ``BMC_DATA_DIR`` to a directory that already holds the files to
work offline (the course's automated tests do): the files are then read from there,
verified by hash, and never downloaded.

A download has an overall deadline (:data:`DOWNLOAD_DEADLINE`, 60 s for all four files of
:func:`load_running`, 2.6 MB, or for one file of :func:`data_path`) besides a per-read
timeout, so a server that stalls, or trickles bytes slowly enough to defeat any per-read
timeout, stops the loader with an error that says how to get the files instead of hanging
the notebook. Pooch writes each download to a temporary name in the cache folder and
renames it only after its SHA-256 matches the registry; a failed, refused or interrupted
download deletes that temporary file, so the cache never holds a partial file.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from bmc._validation import positive

__all__ = ["DATA_DIR_ENV", "DOWNLOAD_DEADLINE", "REGISTRY", "Running", "SegmentSet",
           "data_path", "load_running"]

DOWNLOAD_DEADLINE = 60.0
"""Longest time one call of :func:`data_path` or :func:`load_running` may spend downloading
[s]: the four files of the running trial (2.6 MB in all) need a link of at least
0.35 Mbit/s (a slow mobile connection) to arrive in time."""

_READ_TIMEOUT = 30.0  # longest silence of the server within a download [s]
_CHUNK = 1 << 16


def __dir__() -> list[str]:
    return sorted(__all__)

DATA_DIR_ENV = "BMC_DATA_DIR"
"""Name of the environment variable that points to a local copy of the data files."""

_BASE_URL = "https://raw.githubusercontent.com/demotu/BMC/master/data/"

REGISTRY: dict[str, str] = {
    "all.frc": "sha256:5d45e04c439cb01133d19b1b20bbdb0585498269ab3baceab783f3234571ba8d",
    "all.kin": "sha256:ac9907f1bfd2260573e641280e7a74c7f2e50555399b42f005851a6168185480",
    "all.fmg": "sha256:a58a5233655a3e035fe7fc997cd56c823f31fabf2d4c195a9e4d81783288df96",
    "all.mom": "sha256:46def08e995c6542b8323a2a267784692795a22d99b69b6d1fddf764c053bc92",
}
"""File name -> ``"sha256:<hex>"`` for every file :mod:`bmc.datasets` can load."""

_HOW_TO_GET = (
    "Either connect to the internet once (the files are cached afterwards), or download "
    f"{', '.join(REGISTRY)} from {_BASE_URL} into a directory and set the environment "
    f"variable {DATA_DIR_ENV} to that directory (for example "
    f"`export {DATA_DIR_ENV}=$HOME/bmc-data`)."
)


@dataclass(frozen=True)
class SegmentSet:
    """Body-segment parameters of thigh, shank and foot (in that order).

    Attributes
    ----------
    names : tuple of str
        ``("thigh", "shank", "foot")``.
    mass : numpy.ndarray
        Segment masses, shape (3,) [kg].
    inertia : numpy.ndarray
        Moments of inertia about each centre of mass, z axis, shape (3,) [kg m^2].
    com_fraction : numpy.ndarray
        Distance from the proximal joint to the centre of mass as a fraction of the
        segment length, shape (3,) [-].
    """

    names: tuple[str, ...]
    mass: np.ndarray
    inertia: np.ndarray
    com_fraction: np.ndarray


@dataclass(frozen=True)
class Running:
    """Van den Bogert's simulated running trial, with its known true joint loads.

    All arrays have time on axis 0 (``N = 6001`` samples).

    Attributes
    ----------
    freq : float
        Sampling frequency [Hz].
    time : numpy.ndarray
        Time of each sample, shape (N,) [s], starting at 0.
    markers : numpy.ndarray
        Hip, knee, ankle and toe positions, columns ``x, y`` of each, shape (N, 8) [m].
    grf : numpy.ndarray
        Ground reaction force ``Fx, Fy`` [N] and centre of pressure ``x`` [m], shape (N, 3).
    true_forces : numpy.ndarray
        Magnitude of the true resultant joint force at hip, knee, ankle, shape (N, 3) [N].
    true_moments : numpy.ndarray
        True joint moments at hip, knee, ankle, shape (N, 3) [N m].
    segments : SegmentSet
        Thigh, shank and foot parameters used by the simulation.
    heel_strike : int
        Index (0-based) of the heel-strike sample (sample 3001 counted from 1).
    source : str
        Provenance of the data.
    """

    freq: float
    time: np.ndarray
    markers: np.ndarray
    grf: np.ndarray
    true_forces: np.ndarray
    true_moments: np.ndarray
    segments: SegmentSet
    heel_strike: int
    source: str = field(repr=False)


def _sha256(path: Path) -> str:
    import hashlib

    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _verified_local(name: str, directory: Path, label: str = DATA_DIR_ENV) -> Path:
    """Return ``directory/name`` after checking that it exists and matches the registry.

    ``label`` names where the directory came from (the argument, or the variable).
    """
    path = directory / name
    if not path.is_file():
        raise FileNotFoundError(
            f"{label}={str(directory)!r} does not contain {name!r}. " + _HOW_TO_GET
        )
    expected = REGISTRY[name].split(":", 1)[1]
    actual = _sha256(path)
    if actual != expected:
        raise OSError(
            f"checksum mismatch for {str(path)!r}: SHA-256 is {actual}, the registry expects "
            f"{expected}. The file is corrupted or truncated; replace it with a fresh copy "
            f"from {_BASE_URL}{name}."
        )
    return path


class _DeadlineDownloader:
    """A pooch downloader that gives up at an absolute time (``time.monotonic()``).

    Each read returns as soon as any bytes arrive (``read1``), so the deadline is checked
    between reads however slowly the server sends; a silent server trips the per-read
    socket timeout.
    """

    def __init__(self, stop: float, deadline: float) -> None:
        self.stop = stop
        self.deadline = deadline

    def _check(self, url: str, received: int) -> None:
        if time.monotonic() > self.stop:
            raise TimeoutError(
                f"the download of {url} passed its deadline of {self.deadline:g} s after "
                f"{received} bytes (the server is too slow or stalled)"
            )

    def __call__(self, url: str, output_file, pooch) -> None:
        import urllib.request

        self._check(url, 0)
        left = max(self.stop - time.monotonic(), 1e-3)
        with urllib.request.urlopen(url, timeout=min(_READ_TIMEOUT, left)) as response:
            handle = open(output_file, "wb") if isinstance(output_file, (str, os.PathLike)) \
                else output_file
            try:
                received = 0
                while True:
                    self._check(url, received)
                    chunk = response.read1(_CHUNK)
                    if not chunk:
                        break
                    handle.write(chunk)
                    received += len(chunk)
            finally:
                if handle is not output_file:
                    handle.close()


def data_path(name: str, *, data_dir: str | os.PathLike[str] | None = None,
              deadline: float | None = None) -> Path:
    """Return the local path of a registered data file, fetching it if needed.

    Parameters
    ----------
    name : str
        A file name from :data:`REGISTRY` (for example ``"all.kin"``).
    data_dir : str or path-like, optional
        Directory that already holds the file. Defaults to the environment variable
        ``BMC_DATA_DIR``; when neither is given the file is downloaded once into the
        user's cache.
    deadline : float, optional
        Longest time the download may take overall [s]; default
        :data:`DOWNLOAD_DEADLINE` (60 s). The server may also stay silent for at most
        30 s at a time.

    Returns
    -------
    pathlib.Path
        Path to a file whose SHA-256 matches the registry.

    Raises
    ------
    KeyError
        If ``name`` is not registered.
    FileNotFoundError
        If the local directory lacks the file.
    OSError
        If a file's checksum does not match, or it cannot be downloaded within the deadline.
    """
    limit = DOWNLOAD_DEADLINE if deadline is None else positive(deadline, "deadline", unit="s")
    return _data_path(name, data_dir, time.monotonic() + limit, limit)


def _data_path(name: str, data_dir: str | os.PathLike[str] | None, stop: float,
               limit: float) -> Path:
    """:func:`data_path` with a deadline shared by several files (``stop``, monotonic)."""
    if not isinstance(name, str):
        raise KeyError(f"name must be one of {sorted(REGISTRY)}; got {type(name).__name__} "
                       f"{name!r}")
    if name not in REGISTRY:
        raise KeyError(f"name must be one of {sorted(REGISTRY)}; got {name!r}")
    if data_dir is not None:
        if not isinstance(data_dir, (str, os.PathLike)) or not str(data_dir):
            raise TypeError(f"data_dir must be a directory (str or pathlib.Path) or None; got "
                            f"{type(data_dir).__name__} {data_dir!r}")
        return _verified_local(name, Path(data_dir).expanduser(), "data_dir")
    local = os.environ.get(DATA_DIR_ENV)
    if local:
        return _verified_local(name, Path(local).expanduser())

    import pooch

    fetcher = pooch.create(
        path=pooch.os_cache("bmc"), base_url=_BASE_URL, registry=REGISTRY, retry_if_failed=1
    )
    try:
        return Path(fetcher.fetch(name, downloader=_DeadlineDownloader(stop, limit)))
    except ValueError as exc:  # pooch's hash mismatch after download
        raise OSError(f"checksum mismatch for downloaded {name!r}: {exc}") from exc
    except Exception as exc:  # network errors come from requests, urllib3 or socket
        raise OSError(
            f"could not download {name!r} from {_BASE_URL} and it is not in the cache "
            f"{fetcher.path} ({type(exc).__name__}: {exc}). " + _HOW_TO_GET
        ) from exc


def load_running(*, data_dir: str | os.PathLike[str] | None = None,
                 deadline: float | None = None) -> Running:
    """Load van den Bogert's simulated running trial with its true joint loads.

    Parameters
    ----------
    data_dir : str or path-like, optional
        Directory holding ``all.kin``, ``all.frc``, ``all.fmg`` and ``all.mom``; defaults
        to ``BMC_DATA_DIR``, then to a download into the user's cache.
    deadline : float, optional
        Longest time the downloads of all four files may take together [s]; default
        :data:`DOWNLOAD_DEADLINE` (60 s).

    Returns
    -------
    Running
        Markers, ground reaction, true joint forces and moments, segment parameters.

    Notes
    -----
    A forward simulation of a running stride by A. J. van den Bogert, distributed by the
    International Society of Biomechanics (ISB) for testing inverse-dynamics software,
    sampled at 10 kHz; heel strike at sample 3001 (counted from 1). Because it is a
    simulation, the true joint forces and moments are known. Segment parameters of the
    trial: masses 6.85, 2.86, 1.00 kg (thigh, shank, foot); inertias about the centre of
    mass 0.145361267, 0.042996389, 0.0200 kg m^2; centre of mass at 0.4323725, 0.4334975
    and 0.0 of the segment length from the proximal joint. The files are copied in the
    data folder of the public BMC notebooks (Duarte, demotu/BMC on GitHub).

    References
    ----------
    .. [1] van den Bogert, A. J., and de Koning, J. J. (1996). On optimal filtering for
       inverse dynamics analysis. Proceedings of the IXth Biennial Conference of the
       Canadian Society for Biomechanics, Vancouver, 214-215.
    .. [2] Duarte, M. Notes on Scientific Computing for Biomechanics and Motor Control.
       https://github.com/demotu/BMC

    Examples
    --------
    >>> run = load_running()  # doctest: +SKIP
    >>> run.markers.shape, run.freq  # doctest: +SKIP
    ((6001, 8), 10000.0)
    """
    limit = DOWNLOAD_DEADLINE if deadline is None else positive(deadline, "deadline", unit="s")
    stop = time.monotonic() + limit  # one deadline for the four files together
    paths = {name: _data_path(name, data_dir, stop, limit) for name in REGISTRY}
    kin = np.loadtxt(paths["all.kin"])
    frc = np.loadtxt(paths["all.frc"])
    fmg = np.loadtxt(paths["all.fmg"])
    mom = np.loadtxt(paths["all.mom"])
    freq = 10_000.0
    segments = SegmentSet(
        names=("thigh", "shank", "foot"),
        mass=np.array([6.85, 2.86, 1.00]),
        inertia=np.array([0.145361267, 0.042996389, 0.0200]),
        com_fraction=np.array([0.4323725, 0.4334975, 0.0]),
    )
    return Running(
        freq=freq,
        time=np.arange(kin.shape[0]) / freq,
        markers=kin,
        grf=frc,
        true_forces=fmg,
        true_moments=mom,
        segments=segments,
        heel_strike=3000,
        source="van den Bogert, simulated running (ISB); via demotu/BMC data/",
    )
