"""Which renderer draws follows the platform, and both get the same DOT source (widgets/browser.py).

On a machine `dot` draws; in Pyodide (`sys.platform == "emscripten"`) Graphviz compiled to WebAssembly does.
The DOT source is the boundary: the same text goes to both. The last test runs the real viz.js (the one the
live edition ships, from the build cache) under node and compares its picture with dot's.
"""
import asyncio
import concurrent.futures
import json
import re
import shutil
import subprocess
import tarfile

import graphviz
import pytest
from graphviz.backend import execute

import minigrad
from lite import pins
from widgets import _render, browser, draw_graph

SVG = '<?xml version="1.0"?>\n<svg width="10pt"><g class="node"><title>n0</title></g></svg>'


def example():
    x = minigrad.tensor([1.0, -2.0, 3.0], requires_grad=True)
    return draw_graph((x * x).sum(), x=x)


@pytest.fixture
def native_inputs(monkeypatch):
    """The DOT text each run of the `dot` program was given."""
    seen, run_check = [], execute.run_check

    def spy(cmd, *, input_lines=None, **kwargs):
        lines = list(input_lines or [])
        seen.append("".join(line.decode() if isinstance(line, bytes) else line for line in lines))
        return run_check(cmd, input_lines=iter(lines) if input_lines is not None else None, **kwargs)
    monkeypatch.setattr(execute, "run_check", spy)
    return seen


@pytest.fixture
def in_browser(monkeypatch):
    """Pretend to be Pyodide with Graphviz loaded: the fake viz.js records the DOT it gets."""
    seen = []
    monkeypatch.setattr(browser.sys, "platform", "emscripten")
    monkeypatch.setattr(browser, "_render", lambda source: seen.append(source) or SVG)
    return seen


def test_on_a_machine_dot_draws_the_dot_source(native_inputs):
    digraph = example()
    svg = _render.to_svg(digraph)
    assert svg.startswith("<svg") and "SumBackward0" in svg
    assert native_inputs == [digraph.source]


def test_in_the_browser_viz_js_draws_the_same_dot_source(native_inputs, in_browser):
    digraph = example()
    assert _render.to_svg(digraph) == SVG[SVG.index("<svg"):], "the <svg> element, without the XML prologue"
    assert in_browser == [digraph.source]
    assert native_inputs == [], "in the browser nothing may run the dot program (Pyodide has no subprocess)"


def test_in_the_browser_a_graph_shows_as_svg_from_viz_js(native_inputs, in_browser):
    digraph = example()
    bundle = digraph._repr_mimebundle_()
    assert bundle["image/svg+xml"].startswith("<svg") and in_browser == [digraph.source]
    assert "image/png" not in bundle and native_inputs == []


def test_the_platform_decides_never_a_flag(monkeypatch):
    for platform, expected in (("emscripten", True), ("linux", False), ("win32", False), ("darwin", False)):
        monkeypatch.setattr(browser.sys, "platform", platform)
        assert browser.in_browser() is expected, platform


def test_before_viz_js_has_loaded_the_error_says_what_to_run(monkeypatch):
    monkeypatch.setattr(browser.sys, "platform", "emscripten")
    monkeypatch.setattr(browser, "_render", None)
    with pytest.raises(RuntimeError, match=re.escape("await widgets.browser.ready()")):
        _render.to_svg(example())


def test_a_graph_viz_js_cannot_draw_gets_the_message_dot_would_give(monkeypatch):
    def fails(source):
        raise ValueError("syntax error in line 1 near '->'")
    monkeypatch.setattr(browser.sys, "platform", "emscripten")
    monkeypatch.setattr(browser, "_render", fails)
    html = _render.svg_or_message(graphviz.Digraph(body=["->"]))
    assert "Graphviz could not draw this graph: syntax error in line 1" in html


def test_ready_outside_the_browser_returns_at_once(monkeypatch):
    monkeypatch.setattr(browser, "_loading", None)
    # in a thread of its own: the browser tests' Playwright may be running an event loop in this one
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, browser.ready()).result(timeout=30)
    assert browser._loading is None, "outside the browser nothing is loaded"


def titles(svg):
    return sorted(re.findall(r"<title>(.*?)</title>", svg))


def test_the_shipped_viz_js_draws_what_dot_draws(tmp_path):
    version, _ = pins.NPM["@viz-js/viz"]
    tarball = pins_cache() / "npm" / f"viz-js-viz-{version}.tgz"
    node = shutil.which("node")
    if node is None or not tarball.exists():
        pytest.skip(f"needs node and {tarball} (fetched by `make lite`)")
    with tarfile.open(tarball) as t:
        script = t.extractfile(pins.VIZ_SCRIPT).read()
    digraph = example()
    (tmp_path / "viz-global.js").write_bytes(script)
    runner = tmp_path / "render.js"
    # run as a plain script, as the kernel's worker runs it (no CommonJS `module`, a `location` as in a worker):
    # it defines globalThis.Viz
    runner.write_text("const fs = require('fs'), vm = require('vm');\n"
                      "globalThis.location = {href: 'file:///viz-global.js'};\n"
                      "vm.runInThisContext(fs.readFileSync(__dirname + '/viz-global.js', 'utf8'));\n"
                      "const dot = fs.readFileSync(0, 'utf8');\n"
                      "globalThis.Viz.instance().then(viz => process.stdout.write(viz.renderString(dot, "
                      "{format: 'svg'})));\n")
    drawn = subprocess.run([node, str(runner)], input=digraph.source, capture_output=True, text=True, timeout=60)
    assert drawn.returncode == 0, drawn.stderr[-1500:]
    wasm, native = drawn.stdout, _render.to_svg(digraph)
    assert titles(wasm) == titles(native) and len(titles(wasm)) >= 4, (titles(wasm), titles(native))
    assert wasm.count('class="node"') == native.count('class="node"')
    assert wasm.count('class="edge"') == native.count('class="edge"')
    for label in ("SumBackward0", "MulBackward0", "AccumulateGrad"):
        assert label in wasm, f"{label} is not in viz.js's picture"
    json.dumps(wasm)      # plain text, ready to go into a widget's value


def pins_cache():
    from lite.build import CACHE
    return CACHE
