"""A private JupyterLab for the browser tests, and the notebook page they drive.

`JupyterLab` starts `jupyter lab` on 127.0.0.1 (a free port, a random token) with every settings, workspace and
runtime folder in a temp dir, serving a temp copy of book/. `stop()` always ends it: SIGTERM to its process
group and to the kernels it started (they run in sessions of their own), SIGKILL to whatever is left.

`NotebookPage` is one notebook open in Chromium: run every cell, find cells and their widgets, read errors.
"""
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

# keep every JupyterLab setting out of the user's home, and out of the way of the test
SETTINGS = {
    # no news or update toast over the page (RECIPES.md)
    "@jupyterlab/apputils-extension/notification": {"fetchNews": "false", "checkForUpdates": False},
    # every cell in the DOM, so that all prompts and outputs can be read without scrolling
    "@jupyterlab/notebook-extension/tracker": {"windowingMode": "none"},
    # the copy under test never changes on disk behind our back
    "@jupyterlab/docmanager-extension/plugin": {"autosave": False},
}
KERNEL_IDLE = "Python 3 (ipykernel) | Idle"
STDERR = "application/vnd.jupyter.stderr"
WIDGET_OUTPUT = ".jp-OutputArea-output:has(> .jupyter-widgets)"   # a widget view, as ipywidgets draws it
NOTEBOOK = ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook"     # the notebook in the tab on top


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class JupyterLab:
    """A JupyterLab server of our own. Use as `with JupyterLab(book, tmp) as lab: lab.url("x.ipynb")`."""

    def __init__(self, book, tmp):
        self.tmp = Path(tmp)
        self.root = self.tmp / "root"
        shutil.copytree(book, self.root, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
        self.port, self.token = free_port(), secrets.token_hex(16)
        self.log_path = self.tmp / "jupyterlab.log"
        self.process = None

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()

    def start(self, timeout=60):
        settings = self.tmp / "settings"
        for plugin, values in SETTINGS.items():
            path = settings / f"{plugin}.jupyterlab-settings"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(values))
        env = dict(os.environ, JUPYTERLAB_SETTINGS_DIR=str(settings),
                   JUPYTERLAB_WORKSPACES_DIR=str(self.tmp / "workspaces"),
                   JUPYTER_RUNTIME_DIR=str(self.tmp / "runtime"), IPYTHONDIR=str(self.tmp / "ipython"),
                   # the venv's tools (and a graphviz-pure `dot`) first, as `make` runs them
                   PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
        command = [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--allow-root", f"--port={self.port}",
                   "--ServerApp.ip=127.0.0.1", "--ServerApp.port_retries=0",
                   f"--IdentityProvider.token={self.token}", f"--ServerApp.root_dir={self.root}",
                   "--NotebookNotary.db_file=:memory:", "--LabApp.news_url=None",
                   "--LabApp.extension_manager=readonly",
                   "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]
        with open(self.log_path, "w") as log:
            # a session (process group) of its own, so that stop() can signal the server and its children
            self.process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"jupyter lab exited with code {self.process.returncode}:\n{self.log()}")
            try:
                self.api("status")
                return
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"jupyter lab did not answer on port {self.port} within {timeout} s:\n{self.log()}")

    def stop(self):
        """End the server and its kernels, whatever state they are in. Safe to call twice."""
        if self.process is None:
            return
        groups = {self.process.pid} | {_group_of(pid) for pid in _descendants(self.process.pid)} - {None}
        for sig in (signal.SIGTERM, signal.SIGKILL):
            for group in groups:
                try:
                    os.killpg(group, sig)
                except (ProcessLookupError, PermissionError):
                    pass
            try:
                self.process.wait(timeout=10)
                if not any(_group_alive(g) for g in groups):
                    break
                time.sleep(1)
            except subprocess.TimeoutExpired:
                continue
        self.process = None

    def log(self):
        return self.log_path.read_text(errors="replace")[-5000:] if self.log_path.exists() else ""

    def url(self, path=""):
        return f"http://127.0.0.1:{self.port}/{path}?token={self.token}"

    def api(self, path, method="GET"):
        request = urllib.request.Request(self.url(f"api/{path}"), method=method)
        with urllib.request.urlopen(request, timeout=5) as response:
            body = response.read()
        return json.loads(body) if body else None

    def shut_down_kernels(self, path):
        for session in self.api("sessions"):
            if session["path"] == path:
                self.api(f"sessions/{session['id']}", method="DELETE")


def _descendants(pid):
    """Every process below `pid` (kernels start in sessions of their own, so killpg alone misses them)."""
    children = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _group_of(pid):
    try:
        return os.getpgid(pid)
    except ProcessLookupError:
        return None


def _group_alive(group):
    try:
        os.killpg(group, 0)
        return True
    except ProcessLookupError:
        return False


class NotebookPage:
    """A notebook open in JupyterLab; collects what the browser console reported as errors."""

    def __init__(self, page, lab, path):
        self.page, self.lab, self.path = page, lab, path
        self.console_errors = []
        page.on("console", lambda m: m.type == "error" and self.console_errors.append(f"console: {m.text}"))
        page.on("pageerror", lambda e: self.console_errors.append(f"page error: {e}"))
        # a workspace per notebook (zh/05_x.ipynb: "zh-05_x"): no tab left open by another test comes back
        workspace = Path(path).with_suffix("").as_posix().replace("/", "-")
        page.goto(lab.url(f"lab/workspaces/{workspace}/tree/{path}"))
        self.kernel_idle().wait_for(timeout=90_000)

    def kernel_idle(self):
        # the status bar's kernel button, not the notebook's indicator, which reads idle before a kernel exists
        return self.page.get_by_role("button", name=KERNEL_IDLE)

    def menu(self, *items):
        """Click through the menu bar: menu("Run", "Run All Cells"). An item may be a compiled regex."""
        for item in items:
            exact = {} if isinstance(item, re.Pattern) else {"exact": True}
            self.page.get_by_role("menuitem", name=item, **exact).click()

    def clear_outputs(self):
        self.menu("Edit", "Clear Outputs of All Cells")
        self.wait_for_prompts("prompts.every(p => p === '[ ]:')", timeout=30_000)

    def wait_for_prompts(self, condition, timeout):
        """Wait until `condition` (JavaScript, over `prompts`: every code cell's "[n]:") holds, then for idle."""
        self.page.wait_for_function(
            "NOTEBOOK => { const prompts = [...document.querySelectorAll(NOTEBOOK + ' .jp-CodeCell .jp-InputPrompt')]"
            f".map(p => p.textContent.trim()); return {condition}; }}", arg=NOTEBOOK, timeout=timeout)
        self.kernel_idle().wait_for(timeout=timeout)

    def run_all(self, timeout=180_000):
        """Run every cell from the Run menu; return when none is queued or running and the kernel is idle.

        The stored outputs are cleared first, so every output on the page comes from this run. A cell that
        raises stops the run (the cells after it keep an empty prompt): error_outputs() tells.
        """
        self.clear_outputs()
        self.menu("Run", "Run All Cells")
        self.wait_for_prompts("!prompts.includes('[*]:') && prompts.some(p => /^\\[\\d+\\]:$/.test(p))", timeout)

    def restart_and_run_to(self, index, timeout=180_000):
        """Restart the kernel and run the cells up to cell `index` (Kernel menu): that cell's widget is then as
        the chapter makes it, before any later cell has touched it. Returns the cell."""
        self.clear_outputs()
        cell = self.cell(index)
        cell.locator(".jp-InputPrompt").click()             # select it (command mode)
        self.menu("Kernel", re.compile(r"^Restart Kernel and Run up to Selected Cell"))
        accept = self.page.locator(".jp-Dialog button.jp-mod-accept")
        accept.click()
        position = self.code_position(index)
        self.wait_for_prompts(f"!prompts.includes('[*]:') && /^\\[\\d+\\]:$/.test(prompts[{position}])", timeout)
        return cell

    def code_position(self, index):
        """Which code cell (0, 1, ...) cell `index` is."""
        return self.cell(index).evaluate(
            "(cell, NOTEBOOK) => [...document.querySelectorAll(NOTEBOOK + ' .jp-CodeCell')].indexOf(cell)", NOTEBOOK)

    @property
    def notebook(self):
        return self.page.locator(NOTEBOOK)

    @property
    def cells(self):
        return self.page.locator(f"{NOTEBOOK} .jp-Cell")

    def cell(self, index):
        return self.cells.nth(index)

    def error_outputs(self):
        """[(cell index, text)] of every stderr or error output, and of every widget that failed to show."""
        found = []
        for i in range(self.cells.count()):
            for out in self.cell(i).locator(f'.jp-OutputArea-output[data-mime-type="{STDERR}"]').all():
                found.append((i, out.inner_text()))
            widget_failed = re.compile(r"Error displaying widget|Loading widget|model not found")
            for out in self.cell(i).locator(".jp-OutputArea-output").filter(has_text=widget_failed).all():
                found.append((i, out.inner_text()))
            for out in self.cell(i).locator(".jupyter-widgets-error-widget").all():   # ipywidgets' broken icon
                found.append((i, "a widget that could not be displayed: " + (out.text_content() or "").strip()))
        return found

    def close(self):
        self.page.close()
        self.lab.shut_down_kernels(self.path)
