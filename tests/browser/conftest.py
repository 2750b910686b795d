"""Fixtures for the browser tests (`--browser`, `make test BROWSER=1`): Debian's Chromium driven by Playwright,
a JupyterLab server of our own, and the artifacts folder for screenshots and logs.

Playwright is imported here, not at module level, so that `make test` without BROWSER=1 collects (and skips)
these tests on a machine without it; with --browser a missing piece is a failure that says what to install.
"""
import os
import shutil
from pathlib import Path

import pytest

from .labserver import JupyterLab

ROOT = Path(__file__).resolve().parents[2]
BOOK = ROOT / "book"
ARTIFACTS = ROOT / "artifacts" / "browser"
# RECIPES.md: Debian's Chromium, headless, as root, and asking the network for nothing
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]
VIEWPORT = {"width": 1400, "height": 1000}


def chromium_path():
    """$CHROMIUM, else Debian's /usr/bin/chromium, else a `chromium` on PATH; None if there is none."""
    for candidate in (os.environ.get("CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium"),
                      shutil.which("chromium-browser")):
        if candidate and Path(candidate).exists():
            return candidate
    return None


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Keep each phase's report on the test item, so fixtures can tell whether their test failed."""
    outcome = yield
    setattr(item, f"report_{call.when}", outcome.get_result())


def failed(request):
    report = getattr(request.node, "report_call", None)
    return report is not None and report.failed


@pytest.fixture(scope="session")
def artifacts():
    """artifacts/browser/: this run's screenshots and server log (gitignored; CI can keep it)."""
    shutil.rmtree(ARTIFACTS, ignore_errors=True)      # no screenshot of an earlier run's failure stays behind
    ARTIFACTS.mkdir(parents=True)
    return ARTIFACTS


@pytest.fixture(scope="session")
def chromium():
    """A headless Debian Chromium, launched through Playwright (never a downloaded browser)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("the browser tests need Playwright: `make browser` (or pip install playwright)", pytrace=False)
    path = chromium_path()
    if path is None:
        pytest.fail("the browser tests need Chromium: `make browser` (as root on Debian: apt-get install "
                    "chromium), or point $CHROMIUM at a Chromium binary", pytrace=False)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=path, args=CHROMIUM_FLAGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="session")
def lab(tmp_path_factory, artifacts):
    """A JupyterLab on 127.0.0.1 serving a temp copy of book/; stopped (with its kernels) whatever happens."""
    server = JupyterLab(BOOK, tmp_path_factory.mktemp("jupyterlab"))
    try:
        server.start()
        yield server
    finally:
        server.stop()
        if server.log_path.exists():
            shutil.copy(server.log_path, artifacts / "jupyterlab.log")
