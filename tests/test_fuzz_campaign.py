"""benchmarks/fuzz_campaign.py keeps working: a few seconds of it run and report.

These tests do not ask for zero failures (the campaign exists to find them); they check
that the campaign runs its areas, counts every input once and prints its summary.  The
run over every area is slow (opt-in)."""
import importlib.util
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "benchmarks", "fuzz_campaign.py")


def load_campaign():
    spec = importlib.util.spec_from_file_location("fuzz_campaign", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_campaign(tmp_path, *flags, timeout=300):
    report = tmp_path / "report.json"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [os.path.join(ROOT, "python"), os.path.join(ROOT, "src"), os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.run([sys.executable, SCRIPT, "--quiet", "--json", str(report), *flags],
                          capture_output=True, text=True, timeout=timeout, env=env)
    assert proc.returncode in (0, 1), proc.stderr[-2000:]
    assert "fuzz campaign: seed" in proc.stdout
    return proc.stdout, json.loads(report.read_text())


def test_api_and_cli_run_and_report(tmp_path):
    out, report = run_campaign(tmp_path, "--areas", "api,cli", "--api", "40", "--chunk", "40",
                               "--cli", "1", "--seed", "7")
    counts = report["counts"]
    assert sum(counts["api"].values()) == 40          # every input counted once
    assert sum(counts["cli"].values()) == 1
    assert set(counts["api"]) <= set(load_campaign().OUTCOMES)
    assert "api" in out and "cli" in out


def test_a_crash_is_pinned_on_its_input():
    """A worker killed mid-input counts as a crash of the input it announced."""
    campaign = load_campaign()
    tally = campaign.Tally()
    lines = ["@ setup", "@ lifetime", "@ lifetime law='walk', bankroll=1", "= ok\tlifetime\t",
             "@ trip", "@ trip law='huge', rounds=3"]

    class Stderr:
        lines, seen_traceback = ["Fatal Python error: Segmentation fault"], False

    done = campaign.tally_worker("risk", lines, -11, None, Stderr(), tally)
    assert done == 1
    assert tally.counts["risk"] == {"ok": 1, "crash": 1}
    (key, entry), = tally.failures.items()
    assert key[:3] == ("risk", "crash", "trip") and entry["input"] == "law='huge', rounds=3"
    assert entry["detail"].startswith("killed by SIGSEGV")


def test_rejections_are_judged_by_their_message():
    campaign = load_campaign()
    assert campaign.judge_rejection(ValueError("bankroll must be > 0, got -1"))[0] == \
        "clean rejection"
    assert campaign.judge_rejection(ValueError("math domain error"))[0] == "wrong-type"
    assert campaign.judge_rejection(ValueError("x" * 600))[0] == "wrong-type"
    assert campaign.short(10**400) == "<int of 401 digits>"
    assert campaign.short("x" * 5000).endswith("<5000 chars>")


def test_memory_figures_are_compared_bit_for_bit():
    """A NaN figure (a true-count row with no rounds played) is the same NaN in the run
    under a limit and the reference: ``!=`` called it a different figure in every run."""
    campaign = load_campaign()
    nan = float("nan")
    assert campaign.first_difference([1.0, nan, 2.0], [1.0, float("nan"), 2.0]) is None
    assert campaign.first_difference([1.0, nan], [1.0, 0.5]) == 1
    assert campaign.first_difference([0.0], [-0.0]) == 0
    assert campaign.first_difference([1.0], [1.0, 2.0]) == 1


def test_one_round_has_no_sd_and_no_se_by_design():
    """simulate(rounds=1): SD and SE are NaN, as documented (a sample SD needs two
    rounds); the campaign's check took the SE's NaN for a wrong answer."""
    import math
    from bjsolve import Rules, simulate
    res = simulate(Rules(decks=math.inf), rounds=1, seed=1, threads=1)
    load_campaign().check_simulation(res, 1, None)


def test_a_sigint_in_the_interpreters_start_up_is_not_bjsolves():
    """A SIGINT that lands while Python itself starts (site, the venv's import hooks) gets
    Python's default handling before any code of bjsolve runs; one inside bjsolve's code
    is judged."""
    before = load_campaign()._before_bjsolve
    site = ('Traceback (most recent call last):\n  File "/venv/lib/python3.11/site-packages/'
            '__editable___bjsolve_0_1_0_finder.py", line 3, in <module>\nKeyboardInterrupt\n')
    ours = ('Traceback (most recent call last):\n  File "<frozen runpy>", line 189\n'
            '  File "/src/python/bjsolve/__init__.py", line 12, in <module>\n'
            '  File "/venv/lib/python3.11/site-packages/numpy/__init__.py", line 9\n'
            'KeyboardInterrupt\n')
    assert before(site)
    assert before("Fatal Python error: init_import_site: Failed to import the site module\n")
    assert not before(ours)
    assert not before("bjsolve: interrupted\n")


@pytest.mark.slow
def test_every_area_for_a_minute(tmp_path):
    out, report = run_campaign(tmp_path, "--minutes", "2", "--seed", "11",
                               "--input-timeout", "20", "--memory-timeout", "120", timeout=900)
    campaign = load_campaign()
    assert set(report["counts"]) == set(campaign.AREAS)
    for area in campaign.AREAS:
        assert sum(report["counts"][area].values()) >= 1, area


def test_a_sigint_python_swallowed_is_told_apart_from_a_hang():
    """CPython prints and drops a KeyboardInterrupt raised in an import lock's weakref
    callback: the command runs on as if no Ctrl-C came (seen at 0.02-0.06 s, in start-up).
    The campaign then sends a second SIGINT and counts 'lost by Python', not a hang, only
    when Python's report of the dropped interrupt is there."""
    campaign = load_campaign()
    swallowed = ("Exception ignored in: <function _get_module_lock.<locals>.cb at 0x7f7d>\n"
                 "Traceback (most recent call last):\n"
                 '  File "<frozen importlib._bootstrap>", line 207, in cb\nKeyboardInterrupt: \n')
    assert campaign._swallowed_by_python(swallowed)
    assert not campaign._swallowed_by_python("bjsolve: interrupted\n")
    assert not campaign._swallowed_by_python(
        "Exception ignored in: <function _get_module_lock.<locals>.cb>\nValueError\n")
    assert "lost by Python" not in campaign.BAD and "hang" in campaign.BAD
