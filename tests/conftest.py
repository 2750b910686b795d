"""Options and fixtures shared by the whole suite: the `--browser` flag, real PyTorch (the reference), and
`parity`, the parity harness's run-both-and-compare."""
import pytest
from parity_harness import run_both
from torch_reference import import_torch


@pytest.fixture(scope="session")
def torch():
    """Real PyTorch (see `import_torch`)."""
    return import_torch()


@pytest.fixture
def parity(torch):
    """`parity(example, **options)` runs `example(lib)` on torch and on minigrad and asserts, with the suite's one
    harness (tests/parity_harness.py, `run_both`; `options` are those of its `compare_outcomes`), that both
    returned the same thing or raised the same exception, printed the same text and warned the same; it returns
    torch's result."""
    import minigrad

    def check(example, **options):
        return run_both(example, torch, minigrad, **options).value
    return check


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
