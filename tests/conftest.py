"""Options shared by the whole suite. tests/parity/ has its own conftest."""
import pytest


def pytest_addoption(parser):
    parser.addoption(
        "--browser", action="store_true", default=False,
        help="also run the tests marked `browser` (real JupyterLab in Chromium); `make test BROWSER=1`",
    )


def pytest_configure(config):
    config.addinivalue_line("markers", "browser: needs Chromium and a JupyterLab server; runs only with --browser")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--browser"):
        return
    skip = pytest.mark.skip(reason="browser test: run with --browser (make test BROWSER=1)")
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(skip)
