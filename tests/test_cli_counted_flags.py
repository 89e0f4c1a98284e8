"""The counted-game flags of `game` and `simulate`: each command line gives the library the
keywords written here by hand (CountedGame(...) and its evaluate(...); simulate(...)).

The expectations were checked against the code before game and simulate shared one
``add_counted_game_arguments`` (cli/counting_args.py); the one change since is marked:
``--indices`` alone means every index play in both commands (before, only in simulate;
``game --indices`` alone was refused).  Nothing is computed: the library's entry points are
replaced by recorders that stop the command once they have the keywords.
"""
from __future__ import annotations

import io

import pytest

from bjsolve import Rules
from bjsolve.cli import main, parse
from bjsolve.risk.ramp import parse_ramp


class Captured(Exception):
    def __init__(self, keywords):
        super().__init__("captured")
        self.keywords = keywords


@pytest.fixture
def recorders(monkeypatch):
    """CountedGame and simulate replaced by recorders raising ``Captured``."""
    import bjsolve.risk.game as game_module
    import bjsolve.simulation.simulator as simulator_module

    class FakeGame:
        def __init__(self, keywords):
            self.keywords = keywords

        def evaluate(self, ramp, bankroll, **money):
            raise Captured({**self.keywords, "ramp": ramp, "bankroll": bankroll, **money})

    def counted_game(rules, system="hilo", **kwargs):
        kwargs.pop("progress", None)
        return FakeGame({"rules": rules.describe(), "system": system, **kwargs})

    def simulate(rules=None, **kwargs):
        kwargs.pop("progress", None)
        kwargs.pop("client", None)
        raise Captured({"rules": rules.describe(), **kwargs})

    monkeypatch.setattr(game_module, "CountedGame", counted_game)
    monkeypatch.setattr(simulator_module, "simulate", simulate)


def keywords(*argv):
    """What the command gives the library (simulate: with its --unit, which goes to the
    result's tables rather than to simulate)."""
    args = parse(list(argv))
    with pytest.raises(Captured) as caught:
        args.module.run(args)
    found = dict(caught.value.keywords)
    if args.command == "simulate":
        found["unit"] = args.unit
    return found


GAME = {"rules": Rules().describe(), "system": "hilo", "penetration": 0.75,
        "burn": 1, "spots": 1, "decks_estimation": "exact", "tc_rounding": "floor",
        "strategy": "basic", "indices": None, "insurance": None, "depth_bands": 3,
        "threads": None, "ramp": parse_ramp("1:1"), "bankroll": None, "unit": None,
        "trip_rounds": None, "target_ror": None}

SIMULATE = {"rules": Rules().describe(), "rounds": 10**7, "seed": 1,
            "penetration": 0.75, "burn": 1, "spots": 1, "other_spots": 0,
            "strategy": "basic", "system": "hilo", "indices": None, "insurance": None,
            "decks_estimation": "exact", "tc_rounding": "floor", "ramp": None,
            "wong_in": None, "wong_out": None, "table_min": 1.0, "table_max": None,
            "threads": None, "chunk_rounds": 1_000_000, "bankroll_trials": None,
            "unit": None}

TAGS = (-1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, -1.0)

# (flags, the keywords they change from the command's defaults)
GAME_CASES = [
    ((), {}),
    (("--decks", "2", "--h17"), {"rules": Rules(decks=2, hit_soft_17=True).describe()}),
    (("--payout", "6:5"), {"rules": Rules(blackjack_payout=1.2).describe()}),
    (("--system", "KO"), {"system": "ko"}),
    (("--system=-1,1,1,1,1,1,0,0,0,-1",), {"system": TAGS}),
    (("--penetration", "0.8"), {"penetration": 0.8}),
    (("--penetration", "234"), {"penetration": 0.75}),          # cards of 312
    (("--burn", "3"), {"burn": 3}),
    (("--spots", "3"), {"spots": 3}),
    (("--strategy", "Optimal"), {"strategy": "optimal"}),
    (("--indices", "i18"), {"strategy": "indices", "indices": ["i18"]}),
    (("--indices", "i18,fab4", "--indices", "5"),
     {"strategy": "indices", "indices": ["i18", "fab4", "5"]}),
    (("--insurance", "3"), {"insurance": 3}),
    (("--insurance", "never"), {"insurance": False}),
    (("--tc-rounding", "truncate"), {"tc_rounding": "truncate"}),
    (("--decks-estimation", "HALF"), {"decks_estimation": "half"}),
    (("--depth-bands", "5"), {"depth_bands": 5}),
    (("--threads", "2"), {"threads": 2}),
    (("--ramp", "1:1,2:4,3:8"), {"ramp": parse_ramp("1:1,2:4,3:8")}),
    (("--ramp", "1:1,2:4", "--wong-in", "1"), {"ramp": parse_ramp("1:1,2:4", wong_in=1)}),
    (("--wong-in", "2"), {"ramp": parse_ramp("1:1", wong_in=2)}),
    (("--bankroll", "400", "--unit", "25", "--trip-rounds", "1e4", "--target-ror", "0.05"),
     {"bankroll": 400.0, "unit": 25.0, "trip_rounds": 10_000, "target_ror": 0.05}),
    (("--bankroll", "400", "--trip-rounds", "10_000"),
     {"bankroll": 400.0, "trip_rounds": 10_000}),
]

SIMULATE_CASES = [
    ((), {}),
    (("--decks", "2", "--h17"), {"rules": Rules(decks=2, hit_soft_17=True).describe()}),
    (("--payout", "1.2"), {"rules": Rules(blackjack_payout=1.2).describe()}),
    (("--rounds", "1e6"), {"rounds": 10**6}),
    (("--rounds", "1_000_000"), {"rounds": 10**6}),
    (("--rounds", "2500"), {"rounds": 2500}),
    (("--seed", "7"), {"seed": 7}),
    (("--system", "KO"), {"system": "ko"}),
    (("--system=-1,1,1,1,1,1,0,0,0,-1",), {"system": TAGS}),
    (("--penetration", "0.8"), {"penetration": 0.8}),
    (("--penetration", "234"), {"penetration": 234}),           # cards stay cards here
    (("--penetration", "Every-Round"), {"penetration": "every-round"}),
    (("--burn", "1"), {}),
    (("--spots", "2", "--other-spots", "3"), {"spots": 2, "other_spots": 3}),
    (("--strategy", "optimal"), {"strategy": "optimal"}),
    (("--indices",), {"indices": ["all"]}),
    (("--indices", "i18"), {"indices": ["i18"]}),
    (("--indices", "i18,fab4", "--indices", "5"), {"indices": ["i18", "fab4", "5"]}),
    (("--insurance", "never"), {"insurance": False}),
    (("--insurance", "-1"), {"insurance": -1}),
    (("--decks-estimation", "full", "--tc-rounding", "round"),
     {"decks_estimation": "full", "tc_rounding": "round"}),
    (("--ramp", "1:1,2:4"), {"ramp": "1:1,2:4"}),
    (("--wong-in", "2", "--wong-out", "1"), {"wong_in": 2, "wong_out": 1}),
    (("--table-min", "5", "--table-max", "500"), {"table_min": 5.0, "table_max": 500.0}),
    (("--unit", "25"), {"unit": 25.0}),
    (("--bankroll-trials", "1000,1e5,200"), {"bankroll_trials": (1000, 100_000, 200.0)}),
    (("--threads", "2", "--chunk-rounds", "1e5"), {"threads": 2, "chunk_rounds": 100_000}),
]


@pytest.mark.parametrize("flags,changed", GAME_CASES, ids=lambda v: " ".join(v)
                         if isinstance(v, tuple) else "")
def test_game_flags_give_these_keywords(recorders, flags, changed):
    assert keywords("game", *flags) == {**GAME, **changed}


@pytest.mark.parametrize("flags,changed", SIMULATE_CASES, ids=lambda v: " ".join(v)
                         if isinstance(v, tuple) else "")
def test_simulate_flags_give_these_keywords(recorders, flags, changed):
    assert keywords("simulate", *flags) == {**SIMULATE, **changed}


def test_indices_alone_means_every_index_play_in_both_commands(recorders):
    """The one reconciled difference: `game --indices` alone was refused, `simulate
    --indices` alone meant all; both now mean all (no command line that ran stops
    running)."""
    assert keywords("game", "--indices") == {**GAME, "strategy": "indices",
                                             "indices": ["all"]}
    assert keywords("simulate", "--indices")["indices"] == ["all"]


def run(*argv):
    out = io.StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue()


BAD = [
    (("game", "--penetration", "x"), "--penetration", "0.75"),
    (("game", "--penetration", "every-round"), "--penetration", "0.75"),
    (("simulate", "--penetration", "-1"), "--penetration", "0.75"),
    (("game", "--spots", "8"), "--spots", "1..7"),
    (("simulate", "--spots", "0"), "--spots", "1..7"),
    (("game", "--insurance", "maybe"), "--insurance", "never"),
    (("simulate", "--tc-rounding", "ceil"), "--tc-rounding", "floor"),
    (("game", "--decks-estimation", "quarter"), "--decks-estimation", "half"),
    (("game", "--strategy", "perfect"), "--strategy", "optimal"),
    (("simulate", "--threads", "0"), "--threads", "1..1024"),
    (("game", "--system", "1,x"), "--system", "10 comma-separated numbers"),
    (("simulate", "--rounds", "x"), "--rounds", "1e6"),
    (("simulate", "--rounds", "1.5"), "--rounds", "whole"),
    (("simulate", "--rounds", "0"), "--rounds", "whole"),
    (("simulate", "--chunk-rounds", "nan"), "--chunk-rounds", "whole"),
    (("simulate", "--bankroll-trials", "1,2"), "--bankroll-trials", "PATHS,ROUNDS,BANKROLL"),
    (("game", "--bankroll", "400", "--trip-rounds", "2e6"), "--trip-rounds", "1,000,000"),
    (("game", "--unit", "-5"), "--unit", "positive"),
    (("simulate", "--unit", "0"), "--unit", "positive"),
    (("game", "--payout", "3:0"), "--payout", "6:5"),
    (("simulate", "--payout", "x"), "--payout", "6:5"),
]


@pytest.mark.parametrize("argv,flag,allowed", BAD, ids=lambda v: " ".join(v)
                         if isinstance(v, tuple) else "")
def test_bad_input_is_one_line_naming_the_flag_and_what_is_allowed(argv, flag, allowed,
                                                                   capsys):
    code, out = run(*argv)
    err = capsys.readouterr().err
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert flag in err and allowed in err, err


SHARED = ("--system", "--penetration", "--burn", "--spots", "--strategy", "--indices",
          "--insurance", "--tc-rounding", "--decks-estimation", "--threads", "--ramp",
          "--wong-in", "--unit")


def test_game_and_simulate_read_each_shared_flag_alike():
    """One definition: the same dest, default, nargs, const and choices in both commands;
    the same type except --penetration, which in simulate also takes every-round."""
    from bjsolve.cli import build_parser
    _, own, _ = build_parser()
    for flag in SHARED:
        game, sim = own["game"].flags[flag], own["simulate"].flags[flag]
        for attribute in ("dest", "default", "nargs", "const", "choices"):
            assert getattr(game, attribute) == getattr(sim, attribute), (flag, attribute)
        if flag != "--penetration":
            assert game.type is sim.type or game.type.__name__ == sim.type.__name__, flag


@pytest.mark.parametrize("text", ["2M", "2m", "2,000,000", "2_000_000", "2e6", "2000000",
                                  " 2000000 ", "2000k", "0.002B"])
def test_rounds_read_alike_in_every_spelling(recorders, text):
    assert keywords("simulate", "--rounds", text)["rounds"] == 2_000_000


@pytest.mark.parametrize("text", ["6:5", "6/5", "1.2", " 6 / 5 "])
def test_payout_reads_ratios_with_a_colon_or_a_slash(recorders, text):
    assert keywords("game", "--payout", text)["rules"] == Rules(blackjack_payout=1.2).describe()
    if "." not in text:          # a rule summary reads a ratio (a bare number is no word)
        summary = f"6D {text.replace(' ', '')}"
        assert keywords("simulate", "--rules", summary)["rules"] == \
            Rules(blackjack_payout=1.2).describe()
