"""Options and fixtures shared by the whole suite: the `--browser` flag, and real PyTorch, the reference."""
import pytest
from torch_reference import import_torch


@pytest.fixture(scope="session")
def torch():
    """Real PyTorch (see `import_torch`)."""
    return import_torch()


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
