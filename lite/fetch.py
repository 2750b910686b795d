"""Fetch the pinned files from the package registries (npm, PyPI) into the build cache, each checked by sha256.

A file already in the cache is used as it is, after its hash is checked again; a mismatch fails the build.
Nothing here talks to the network except `npm pack` and `pip download`.
"""
import hashlib
import subprocess
import sys
import tempfile
from pathlib import Path


class HashMismatch(RuntimeError):
    pass


def sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def check(path, expected, what=None):
    """Fail unless the file at `path` has the sha256 `expected`; return `path`."""
    found = sha256(path)
    if found != expected:
        raise HashMismatch(f"{what or Path(path).name}: sha256 is {found}, expected {expected} (pinned in "
                           f"lite/pins.py or the official pyodide-lock.json); delete {path} to fetch it again")
    return path


def npm_package(name, version, expected, cache):
    """The registry tarball of npm package `name@version` (e.g. "@viz-js/viz" -> viz-js-viz-3.31.0.tgz)."""
    folder = Path(cache) / "npm"
    path = folder / f"{name.lstrip('@').replace('/', '-')}-{version}.tgz"
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        run(["npm", "pack", "--silent", f"{name}@{version}"], cwd=folder,
            hint="the live edition needs npm (apt-get install npm) to fetch Pyodide and viz.js")
    return check(path, expected, f"npm {name}@{version}")


def pypi_wheels(pins, cache):
    """Download wheels from PyPI: `pins` maps "name==version" to (file name, sha256). Returns {requirement: path}.

    pip itself checks the hashes (--require-hashes), and we check them again, also for files already cached.
    """
    folder = Path(cache) / "pypi"
    folder.mkdir(parents=True, exist_ok=True)
    missing = {req: sha for req, (file, sha) in pins.items() if not (folder / file).exists()}
    if missing:
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as requirements:
            requirements.write("".join(f"{req} --hash=sha256:{sha}\n" for req, sha in missing.items()))
        run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
             "--require-hashes", "-r", requirements.name, "-d", str(folder)], hint="pip could not fetch from PyPI")
        Path(requirements.name).unlink()
    return {req: check(folder / file, sha, req) for req, (file, sha) in pins.items()}


def run(command, cwd=None, hint=""):
    try:
        done = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    except FileNotFoundError:
        raise SystemExit(f"error: {command[0]} not found: {hint}") from None
    if done.returncode != 0:
        raise SystemExit(f"error: {' '.join(command)} failed ({hint}):\n{done.stdout[-2000:]}{done.stderr[-3000:]}")
    return done.stdout
