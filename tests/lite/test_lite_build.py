"""The live edition's build, piece by piece, offline: Pyodide's files are checked against the official lock, the
lock is trimmed to what ships, the chapters' copies differ from book/ only by what the browser needs, and
NOTICE.md names everything that ships.
"""
import hashlib
import io
import json
import re
import tarfile
import zipfile
from pathlib import Path

import pytest

from lite import notebooks, pins, pyodide_dist
from lite.fetch import HashMismatch

ROOT = Path(__file__).resolve().parents[2]
LOCK = {"info": {"version": "0.27.7"}, "packages": {
    "numpy": {"file_name": "numpy-2.0.2.whl", "depends": [], "data": b"numpy"},
    "ipython": {"file_name": "ipython-8.whl", "depends": ["prompt_toolkit"], "data": b"ipython"},
    "prompt-toolkit": {"file_name": "prompt_toolkit-3.whl", "depends": [], "data": b"ptk"},
    "scipy": {"file_name": "scipy-1.whl", "depends": ["numpy"], "data": b"scipy"},
}}


def fake_pyodide(tmp_path, corrupt=None):
    """An npm `pyodide` tarball (core + lock) and a wheel carrying the package files, as in pins.py."""
    lock = {"info": LOCK["info"], "packages": {}}
    packages = tmp_path / "packages.whl"
    with zipfile.ZipFile(packages, "w") as z:
        for name, entry in LOCK["packages"].items():
            data = entry["data"]
            lock["packages"][name] = {"file_name": entry["file_name"], "depends": entry["depends"],
                                      "sha256": hashlib.sha256(data).hexdigest()}
            z.writestr("assets/pyodide/" + entry["file_name"], b"tampered" if name == corrupt else data)
    npm = tmp_path / "pyodide.tgz"
    with tarfile.open(npm, "w:gz") as t:
        files = [(c, c.encode()) for c in pyodide_dist.CORE] + [("pyodide-lock.json", json.dumps(lock).encode())]
        for name, data in files:
            info = tarfile.TarInfo("package/" + name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    return npm, pyodide_dist.Source(packages, "assets/pyodide/")


def test_the_closure_follows_depends_whatever_the_spelling():
    assert pyodide_dist.closure(LOCK["packages"], ["ipython"]) == {"ipython", "prompt-toolkit"}
    with pytest.raises(KeyError, match="'torch' is not in Pyodide's lock"):
        pyodide_dist.closure(LOCK["packages"], ["torch"])


def test_only_what_is_needed_ships_and_the_book_wheels_join_the_lock(tmp_path):
    npm, source = fake_pyodide(tmp_path)
    wheel = tmp_path / "minigrad_book-0.1.0-py3-none-any.whl"
    wheel.write_bytes(b"the book")
    out = tmp_path / "pyodide"
    lock = pyodide_dist.assemble(out, npm, source, ["ipython", "numpy"],
                                 [(wheel, "minigrad-book", ["minigrad", "widgets"], ["numpy"])])
    assert sorted(lock["packages"]) == ["ipython", "minigrad-book", "numpy", "prompt-toolkit"], "scipy is not needed"
    assert not (out / "scipy-1.whl").exists() and (out / "prompt_toolkit-3.whl").read_bytes() == b"ptk"
    entry = lock["packages"]["minigrad-book"]
    assert entry["sha256"] == hashlib.sha256(b"the book").hexdigest() and entry["imports"] == ["minigrad", "widgets"]
    assert json.loads((out / "pyodide-lock.json").read_text()) == lock
    assert all((out / core).exists() for core in pyodide_dist.CORE)


def test_a_file_that_does_not_match_the_official_lock_fails_the_build(tmp_path):
    npm, source = fake_pyodide(tmp_path, corrupt="numpy")
    with pytest.raises(HashMismatch, match=r"numpy-2.0.2.whl .*the official pyodide-lock.json of Pyodide 0.27.7"):
        pyodide_dist.assemble(tmp_path / "out", npm, source, ["numpy"], [])


def test_a_distribution_without_a_needed_file_is_refused(tmp_path):
    with pytest.raises(FileNotFoundError, match="numpy-2.0.2.whl .* must be a Pyodide 0.27.7 distribution"):
        pyodide_dist.Source(tmp_path).read_all(["numpy-2.0.2.whl"])


def test_a_dependency_that_is_not_shipped_is_refused(tmp_path):
    npm, source = fake_pyodide(tmp_path)
    wheel = tmp_path / "ipywidgets-8.1.9-py3-none-any.whl"
    wheel.write_bytes(b"w")
    with pytest.raises(AssertionError, match="depends on \\['comm'\\]"):
        pyodide_dist.assemble(tmp_path / "out", npm, source, ["numpy"],
                              [(wheel, "ipywidgets", ["ipywidgets"], ["comm"])])


def test_every_chapter_is_copied_with_one_set_up_cell_and_book_is_left_as_it_is(tmp_path):
    before = {p.name: p.read_bytes() for p in notebooks.chapters(ROOT / "book")}
    names = notebooks.copy_book(ROOT / "book", tmp_path)
    assert names == [Path(n).stem for n in sorted(before)], "every book/NN_*.ipynb, found by the glob"
    assert {p.name: p.read_bytes() for p in notebooks.chapters(ROOT / "book")} == before, "book/ must not change"
    for name in names:
        live = json.loads((tmp_path / f"{name}.ipynb").read_text())
        book = json.loads(before[f"{name}.ipynb"])
        setup = [i for i, c in enumerate(live["cells"]) if notebooks.is_setup_cell(c)]
        assert setup == [1], f"{name}: one set-up cell, right after the title"
        assert "await widgets.browser.ready()" in "".join(live["cells"][1]["source"])
        assert [c["source"] for c in live["cells"] if not notebooks.is_setup_cell(c)] == \
            [c["source"] for c in book["cells"]]
        assert live["metadata"]["kernelspec"]["name"] == "python", f"{name}: the Pyodide kernel"
        assert notebooks.WIDGET_VIEW not in json.dumps(live), f"{name}: a stored widget view is left"
    assert (tmp_path / "images").is_dir()


def test_the_chinese_edition_is_copied_into_zh_with_its_own_set_up_cell(tmp_path):
    before = {p.name: p.read_bytes() for p in notebooks.chapters(ROOT / "book" / "zh")}
    names = notebooks.copy_editions(ROOT / "book", tmp_path)
    chinese = [Path(n).stem for n in sorted(before)]
    assert names == [Path(n).stem for n in sorted(p.name for p in notebooks.chapters(ROOT / "book"))] + \
        [f"zh/{name}" for name in chinese], "both editions, the Chinese one in zh/"
    assert {p.name: p.read_bytes() for p in notebooks.chapters(ROOT / "book" / "zh")} == before, "book/zh must not change"
    for name in chinese:
        live = json.loads((tmp_path / "zh" / f"{name}.ipynb").read_text(encoding="utf-8"))
        book = json.loads(before[f"{name}.ipynb"])
        setup = [i for i, c in enumerate(live["cells"]) if notebooks.is_setup_cell(c)]
        assert setup == [1], f"zh/{name}: one set-up cell, right after the title"
        source = "".join(live["cells"][1]["source"])
        assert "await widgets.browser.ready()" in source and f"chapter_links({name!r}, 'zh')" in source
        assert "在你的浏览器中运行" in source and "Live edition" not in source, f"zh/{name}: comments in Chinese"
        assert [c["source"] for c in live["cells"] if not notebooks.is_setup_cell(c)] == \
            [c["source"] for c in book["cells"]]
        assert live["metadata"]["kernelspec"]["name"] == "python", f"zh/{name}: the Pyodide kernel"
    assert (tmp_path / "zh" / "README.md").read_bytes() == (ROOT / "book" / "zh" / "README.md").read_bytes()


def test_a_stored_widget_keeps_its_picture_and_text_but_not_its_view():
    cell = {"cell_type": "code", "source": "view", "outputs": [
        {"output_type": "display_data", "data": {notebooks.WIDGET_VIEW: {"model_id": "x"}, "image/png": "iVBO",
                                                 "text/plain": "<GraphView>"}},
        {"output_type": "display_data", "data": {notebooks.WIDGET_VIEW: {"model_id": "y"}}},
        {"output_type": "stream", "name": "stdout", "text": "hello"}]}
    live = notebooks.live_copy({"cells": [{"cell_type": "markdown", "source": "# T"}, cell], "metadata": {}})
    outputs = live["cells"][2]["outputs"]
    assert [o.get("data", {}).keys() for o in outputs] == [{"image/png", "text/plain"}, set()]
    assert outputs[1]["text"] == "hello"


def test_notice_names_every_package_that_ships():
    notice = (ROOT / "lite" / "NOTICE.md").read_text()
    named = {pyodide_dist.normalize(m) for m in re.findall(r"^\| ([\w.-]+)", notice, re.M)}
    version, _ = pins.NPM["pyodide"]
    tarball = ROOT / "build" / "lite-cache" / "npm" / f"pyodide-{version}.tgz"
    if not tarball.exists():
        pytest.skip(f"needs {tarball} (fetched by `make lite`)")
    with tarfile.open(tarball) as t:
        lock = json.load(t.extractfile("package/pyodide-lock.json"))
    shipped = pyodide_dist.closure(lock["packages"], pins.PYODIDE_ROOTS)
    shipped |= {req.split("==")[0] for req in pins.KERNEL_WHEELS}
    missing = sorted(pyodide_dist.normalize(n) for n in shipped if pyodide_dist.normalize(n) not in named)
    assert missing == [], f"NOTICE.md does not name {missing}"
