"""Suite-wide options: tests marked ``slow`` (long exact or simulation campaigns) run only
with ``--run-slow`` or ``BJSOLVE_SLOW=1``, so that the default run stays within minutes."""
import os

import pytest


def pytest_addoption(parser):
    parser.addoption("--run-slow", action="store_true", default=False,
                     help="also run the tests marked slow (long campaigns)")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--run-slow") or os.environ.get("BJSOLVE_SLOW", "") not in ("", "0"):
        return
    skip = pytest.mark.skip(reason="slow: run with --run-slow or BJSOLVE_SLOW=1")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
