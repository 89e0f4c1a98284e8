"""The bad-input contract: the API raises ValueError/TypeError naming the field, the value
and what is allowed; the CLI prints one line and exits 2; nothing crashes the interpreter.

Numbers asserted here are identities (a dealer on hard 17 stands; a shoe of tens deals a
dealer ten a 20), never figures from the engine itself.
"""
import csv
import io
import json
import math
import subprocess
import sys
import textwrap

import pytest

import bjsolve
from bjsolve import Rules, Shoe, dealer_probabilities, solve
from bjsolve.__main__ import main
from bjsolve.model.deal import round_may_run_out
from bjsolve.model.ranks import rank, ranks

BAD = (ValueError, TypeError)


@pytest.fixture(scope="module")
def one_deck():
    return solve(Rules(decks=1))


@pytest.fixture(scope="module")
def easy():
    return solve(Rules.preset("easy"))


# ---- ranks -------------------------------------------------------------------------

@pytest.mark.parametrize("card", ["11", "X", 0, -1, 1.5, True, None, "", "1.5", "-1", 2**70,
                                  math.nan, "A1", "1 0"])
def test_bad_ranks(card):
    with pytest.raises(BAD) as exc:
        ranks(card, field="dealer")
    assert "dealer" in str(exc.value)
    with pytest.raises(BAD):
        rank(card)


def test_bad_rank_message_names_the_whole_value():
    for text in ("11", "-1", "1.5"):
        with pytest.raises(ValueError, match=repr(text).replace(".", r"\.")):
            ranks(text)


def test_rank_spellings_still_accepted():
    assert ranks("ace") == (1,) and ranks("A7") == (1, 7) and ranks("TT") == (10, 10)
    assert ranks("10") == (10,) and ranks(["10", "K"]) == (10, 10) and ranks("QJ") == (10, 10)


def test_a_set_of_cards_is_refused():
    with pytest.raises(TypeError):
        ranks({1, 10})   # a set would silently drop a repeated card


# ---- shoes -------------------------------------------------------------------------

@pytest.mark.parametrize("bad, kind", [
    (-1, ValueError), (1.5, ValueError), (math.nan, ValueError), (math.inf, ValueError),
    (10**10, ValueError), (10**400, ValueError), (True, TypeError), ("x", TypeError),
    (None, TypeError),
])
def test_bad_counts_name_the_rank_and_value(bad, kind):
    with pytest.raises(kind) as exc:
        Shoe([bad] + [4] * 9)
    assert "count for A" in str(exc.value)


@pytest.mark.parametrize("counts", [None, 5, "abcdefghij", [4] * 9, [4] * 11, [0] * 10])
def test_bad_count_vectors(counts):
    with pytest.raises(BAD, match="Shoe"):
        Shoe(counts)


@pytest.mark.parametrize("counts", [[0] * 9 + [3], [1, 1, 1, 1, 1, 0, 0, 0, 0, 0],
                                    [4] + [0] * 9])
def test_tiny_shoes_are_valid_shoes(counts):
    assert Shoe(counts).counts == tuple(counts)


def test_removals_and_counts():
    deck = Shoe.decks(1)
    with pytest.raises(ValueError, match="cannot remove 5 x A"):
        deck.remove(*"AAAAA")
    with pytest.raises(ValueError, match="at least one card"):
        Shoe([0] * 9 + [2]).remove("T", "T")
    with pytest.raises(ValueError, match="one card"):
        deck.count("AA")
    with pytest.raises(BAD, match="removed"):
        deck.remove("X")
    half = Shoe.fractional([1.5] * 10)
    assert half.add("A").is_fractional and half.add("A").counts[0] == 2.5


@pytest.mark.parametrize("decks", [0, -1, 1.5, "six", True, None, math.nan, -math.inf,
                                   10**400, 1e300])
def test_bad_decks(decks):
    with pytest.raises(BAD, match="Rules.decks"):
        Rules(decks=decks)
    with pytest.raises(BAD, match="decks"):
        Shoe.decks(decks)


# ---- rules -------------------------------------------------------------------------

@pytest.mark.parametrize("payout", [0, -1, -1.5, "6:5", "abc", math.nan, math.inf, True,
                                    10**400, 1e308])
def test_bad_payouts(payout):
    with pytest.raises(BAD, match="blackjack_payout"):
        Rules(blackjack_payout=payout)


def test_payout_as_text_gets_a_hint():
    with pytest.raises(TypeError, match="1.2"):
        Rules(blackjack_payout="6:5")


@pytest.mark.parametrize("field, value", [
    ("double", "8-11"), ("double", None), ("surrender", "always"), ("surrender", True),
    ("hole_card", "none"), ("max_split_hands", 0), ("max_split_hands", 5),
    ("max_split_hands", 2.0), ("max_split_hands", "4"), ("max_split_hands", True),
    ("hit_soft_17", 1), ("hit_soft_17", "yes"), ("dealer_wins_ties", None),
])
def test_unknown_rule_values(field, value):
    with pytest.raises(BAD) as exc:
        Rules(**{field: value})
    assert field in str(exc.value) and repr(value) in str(exc.value)


def test_hit_split_aces_needs_splitting_and_names_both_fields():
    with pytest.raises(ValueError) as exc:
        Rules(hit_split_aces=True, max_split_hands=1)
    assert "hit_split_aces" in str(exc.value) and "max_split_hands" in str(exc.value)
    # a rule without effect is accepted
    assert Rules(resplit_aces=True, max_split_hands=1).resplit_aces


@pytest.mark.parametrize("name", [None, [], "moon"])
def test_bad_presets(name):
    with pytest.raises(BAD, match="known"):
        Rules.preset(name)


# ---- dealer probabilities -------------------------------------------------------------

@pytest.mark.parametrize("dealer", ["11", 0, -1, 1.5, True, None, (), (10, 6, 10)])
def test_bad_dealer_hands(dealer):
    with pytest.raises(BAD, match="dealer"):
        dealer_probabilities(Rules(), dealer)


@pytest.mark.parametrize("dealer, shoe", [
    ("A", Shoe([4] + [0] * 9)),                 # only aces: soft totals never reach 17
    ("T", Shoe([0] * 9 + [1])),                 # nothing left to draw
    ((5, 6), Shoe([0, 0, 0, 0, 1, 1, 0, 0, 0, 0])),
    ("2", Shoe([1, 1, 1, 1, 1, 0, 0, 0, 0, 0])),
])
def test_dealer_who_could_run_out(dealer, shoe):
    with pytest.raises(ValueError, match="run out"):
        dealer_probabilities(Rules(), dealer, shoe=shoe)


def test_dealer_edge_shoes_by_identity():
    # a dealer on hard 17 stands, even with no card left behind
    got = dealer_probabilities(Rules(), (10, 7), shoe=Shoe([0] * 6 + [1, 0, 0, 1]))
    assert got[17] == 1.0
    # a dealer ten drawing from tens only makes 20
    got = dealer_probabilities(Rules(), "T", shoe=Shoe([0] * 9 + [3]))
    assert got[20] == 1.0 and got["blackjack"] == 0.0


def test_dealer_removals_and_flags():
    with pytest.raises(ValueError, match="dealer and removed"):
        dealer_probabilities(Rules(), "A", shoe=Shoe([0] * 9 + [3]))
    with pytest.raises(ValueError, match="dealer and removed"):
        dealer_probabilities(Rules(decks=1), 5, removed=(5, 5, 5, 5))
    with pytest.raises(TypeError, match="given_no_blackjack"):
        dealer_probabilities(Rules(), "6", given_no_blackjack="yes")
    with pytest.raises(TypeError, match="rules"):
        dealer_probabilities("6D", "6")
    with pytest.raises(TypeError, match="shoe"):
        dealer_probabilities(Rules(), "6", shoe="6 decks")


# ---- solves ------------------------------------------------------------------------

@pytest.mark.parametrize("cards, dealer, match", [
    ("TT5", 2, "bust"), ((10, 6, 6), 2, "bust"), ((1,) * 5 + (2,), 3, "shoe holds 4 x A"),
    ("T", 5, "two cards"), ((), 5, "two cards"), (None, 5, "cards"), ("T6", 11, "dealer"),
    ("T6", (10, 6), "one upcard"), ("T6", None, "dealer"), ("T6", "X", "dealer"),
])
def test_bad_hands(one_deck, cards, dealer, match):
    with pytest.raises(BAD, match=match):
        one_deck.hand_ev(cards, dealer)


def test_upcard_as_a_one_card_tuple_is_the_upcard(one_deck):
    assert dict(one_deck.hand_ev("T6", (10,))) == dict(one_deck.hand_ev("T6", 10))


@pytest.mark.parametrize("dealer, match", [(10, "both dealer cards"), ((10, 10, 2), "two cards"),
                                           ((1, 10), "natural")])
def test_exposed_game_needs_both_dealer_cards(easy, dealer, match):
    with pytest.raises(ValueError, match=match):
        easy.hand_ev((10, 9), dealer)


@pytest.mark.parametrize("split", ["cdz", None, "CDP2"])
def test_bad_split_class(split):
    with pytest.raises(ValueError, match="split"):
        solve(Rules(decks=1), split=split)


def test_bad_solve_arguments():
    with pytest.raises(TypeError, match="rules"):
        solve("rules")
    with pytest.raises(TypeError, match="shoe"):
        solve(Rules(), shoe="shoe")
    with pytest.raises(ValueError, match="too small"):
        solve(Rules(), shoe=Shoe([1, 1, 1, 1, 1, 0, 0, 0, 0, 0]))


@pytest.mark.parametrize("strategy, kind, match", [
    (lambda c, u, a: "split", ValueError, "strategy returned 'split'"),
    (lambda c, u, a: None, ValueError, "strategy returned None"),
    (lambda c, u, a: ["stand"], ValueError, "strategy returned"),
    (lambda c, u: "stand", TypeError, "three arguments"),
    ("chart", TypeError, "callable"),
])
def test_illegal_strategies(one_deck, strategy, kind, match):
    with pytest.raises(kind, match=match):
        one_deck.evaluate(strategy)


def test_round_may_run_out_identities():
    rules = Rules()
    assert not round_may_run_out(rules, Shoe.decks(1))
    assert not round_may_run_out(rules, Shoe.infinite())
    assert round_may_run_out(rules, Shoe([0, 20] + [0] * 8))       # 40 points: 20 twos
    assert not round_may_run_out(rules, Shoe([0] * 9 + [40]))       # 400 points


# ---- kernels never crash ---------------------------------------------------------------

KERNEL_SCRIPT = textwrap.dedent("""
    from bjsolve import Rules, Shoe, dealer_probabilities, solve
    calls = [
        lambda: dealer_probabilities(Rules(), "A", shoe=Shoe([40] + [0] * 9)),
        lambda: dealer_probabilities(Rules(), "A", shoe=Shoe.infinite([1] + [0] * 9)),
        lambda: dealer_probabilities(Rules(), (1,) * 12),
        lambda: dealer_probabilities(Rules(), "T", shoe=Shoe([0] * 9 + [1])),
        lambda: dealer_probabilities(Rules(), "6", shoe=Shoe([10**9] * 10)),
        lambda: dealer_probabilities(Rules(), "6", shoe=Shoe.fractional([1.5] * 10)),
        lambda: solve(Rules(), shoe=Shoe([40] + [0] * 9)),
        lambda: solve(Rules(), shoe=Shoe([0, 20] + [0] * 8)),
        lambda: solve(Rules(), shoe=Shoe([0] * 8 + [5, 5])),
        lambda: solve(Rules(), shoe=Shoe([2, 1, 1, 1, 1, 1, 1, 1, 1, 2])),
        lambda: solve(Rules(), shoe=Shoe.infinite([1e-300] * 10)),
        lambda: solve(Rules(hole_card="exposed"), shoe=Shoe([1] + [0] * 8 + [12])),
        lambda: solve(Rules(hit_split_aces=True), shoe=Shoe([12] + [0] * 8 + [4])),
        lambda: solve(Rules(decks=1), shoe=Shoe([4, 4, 4, 4] + [0] * 6)).evaluate(
            lambda c, u, a: "hit" if sum(c) < 12 else "stand"),
        lambda: solve(Rules(decks=1)).hand_ev((1, 1, 1, 1, 2, 2, 2, 2, 3), 3),
        lambda: solve(Rules(decks=1), shoe=Shoe([1] + [0] * 8 + [12])).insurance_ev(),
    ]
    for call in calls:
        try:
            call()
        except (ValueError, TypeError):
            pass
    print("survived")
""")


def test_kernels_survive_degenerate_inputs():
    p = subprocess.run([sys.executable, "-c", KERNEL_SCRIPT], capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 0, f"return code {p.returncode}: {p.stderr[-500:]}"
    assert "survived" in p.stdout


# ---- command line ------------------------------------------------------------------------

CLI_BAD = [
    ["--decks", "0"], ["--decks", "-1"], ["--decks", "1.5"], ["--decks", "six"],
    ["--decks", "99999999999"], ["--max-split-hands", "5"], ["--double", "8-11"],
    ["--surrender", "always"], ["--hole-card", "none"], ["--payout", "0"], ["--payout", "6:0"],
    ["--payout", "abc"], ["--payout", "nan"], ["--payout", "1e400"],
    ["--hit-split-aces", "--max-split-hands", "1"], ["--split", "CDX"], ["--format", "xml"],
    ["--remove", "A,A,A,A,A", "--decks", "1"], ["--remove", "11"], ["--remove", ",,"],
    ["--remove", "A", "--infinite"], ["--infinite", "--decks", "2"], ["stand", "--dealer", "5"],
    ["strategy", "--given-no-blackjack"], ["hand", "10", "6", "--dealer", "11"],
    ["hand", "10", "6", "--dealer", "-1"], ["hand", "X", "6", "--dealer", "5"],
    ["hand", "T", "T", "5", "--dealer", "2"], ["hand", "A", "A", "A", "A", "A", "2", "--dealer", "3",
                                           "--decks", "1"],
    ["hand", "10", "6", "--dealer", "5", "--preset", "easy"],
    ["hand", "10", "6", "--dealer", "A,T", "--preset", "easy"],
    ["hand", "10", "6", "--dealer", "T,T"], ["--preset", "moon"],
    ["advantage", "insurance", "--preset", "easy"],
    ["hand", "10", "6", "--dealer", "5", "--given-no-blackjack"],
    ["advantage", "--decks", "1", "--remove", ",".join("A" * 4 + "2" * 4 + "3" * 4 + "4" * 4
                                                      + "5" * 4 + "6" * 4 + "7" * 4 + "8" * 4
                                                      + "9" * 4 + "T" * 12)],
]


# one of each kind of failure (argparse, Rules, Shoe, ranks, the solve, the CLI's own
# checks) as a real process; every case of CLI_BAD also runs in process below
CLI_BAD_PROCESS = [CLI_BAD[i] for i in (0, 3, 4, 9, 12, 14, 17, 18, 21, 22, 24, 28, 30, 33)]


@pytest.fixture(scope="module")
def cli_results():
    """The bad command lines run as real processes, all started at once (they are short)."""
    procs = [subprocess.Popen([sys.executable, "-m", "bjsolve", *args], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for args in CLI_BAD_PROCESS]
    results = {}
    for args, proc in zip(CLI_BAD_PROCESS, procs):
        out, err = proc.communicate(timeout=120)
        results[tuple(args)] = subprocess.CompletedProcess(args, proc.returncode, out, err)
    return results


@pytest.mark.parametrize("args", CLI_BAD_PROCESS, ids=lambda a: " ".join(a)[:40])
def test_cli_bad_argument_one_line_exit_2(cli_results, args):
    p = cli_results[tuple(args)]
    assert p.returncode == 2, (p.returncode, p.stderr[-300:])
    assert "Traceback" not in p.stderr and p.stdout == ""
    assert len(p.stderr.strip().splitlines()) == 1 and p.stderr.startswith("bjsolve: error:")


@pytest.mark.parametrize("args", CLI_BAD, ids=lambda a: " ".join(a)[:40])
def test_cli_bad_argument_in_process(capsys, args):
    out = io.StringIO()
    assert main(list(args), out=out) == 2 and out.getvalue() == ""
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and err.startswith("bjsolve: error:")


def run(*args):
    out = io.StringIO()
    return main(list(args), out=out), out.getvalue()


def test_cli_hand_in_the_exposed_game():
    for vs in ("T,T", "TT", "T T"):
        code, text = run("hand", "10", "9", "--dealer", vs, "--preset", "easy")
        assert code == 0 and "T T (20)" in text and "rules:" in text


def test_cli_hand_formats_are_labelled_and_parse(capsys):
    code, text = run("hand", "8", "8", "--dealer", "A", "--decks", "1", "--format", "json")
    data = json.loads(text)
    assert code == 0 and data["rules"].startswith("1D") and data["shoe"] == "Shoe.decks(1)"
    assert data["measure"] == "given no dealer blackjack" and data["split"] == "CDZ-"
    code, text = run("hand", "8", "8", "--dealer", "A", "--decks", "1", "--format", "csv")
    rows = list(csv.reader(l for l in text.splitlines() if not l.startswith("#")))
    assert code == 0 and rows[0] == ["action", "ev", "best"]
    assert {r[0] for r in rows[1:]} == set(data["ev"])
    assert [r[0] for r in rows[1:] if r[2] == "best"] == [data["best"]]
    notes = capsys.readouterr().err     # CSV stays pure: its notes go to stderr
    assert "given no dealer blackjack" in notes and "split CDZ-" in notes
    code, text = run("hand", "8", "8", "--dealer", "A", "--decks", "1", "--format", "markdown")
    assert code == 0 and "| split |" in text and "rules:" in text and "post-split" in text


def test_cli_tiny_shoe_tables_carry_a_warning():
    code, text = run("advantage", "--decks", "1", "--remove", ",".join("56789" * 4 + "T" * 16))
    assert code == 0 and "warning" in text and "run out" in text


def test_cli_surrender_table_without_hole_card_is_unconditioned():
    # no hole card, infinite shoe: late surrender loses the whole bet to a natural, so its
    # own EV is -1/2 - 1/2 P(natural): P = 1/13 against a ten (hole ace), 4/13 against an
    # ace.  The table shows surrender's gain over the best other play, so add that play's
    # EV back (the pair row 88 is one hand, compared without splitting).
    def table(name):
        code, text = run(name, "--hole-card", "enhc", "--surrender", "late", "--infinite",
                         "--format", "json")
        assert code == 0
        return json.loads(text)

    data = table("surrender")
    assert any("unconditioned" in n for n in data["notes"])
    others = [table(name)["values"]["88"] for name in ("stand", "hit", "double")]
    own = {u: data["values"]["88"][u] + max(t[u] for t in others) for u in ("9", "T", "A")}
    assert own["9"] == pytest.approx(-0.5, abs=1e-15)
    assert own["T"] == pytest.approx(-0.5 - 0.5 / 13, abs=1e-15)
    assert own["A"] == pytest.approx(-0.5 - 0.5 * 4 / 13, abs=1e-15)


# ---- solve(): returned EVs say what they mean; degenerate shoes are flagged -----------------

def test_returned_evs_state_their_measure():
    sol = bjsolve.solve(bjsolve.Rules(decks=float("inf")))
    assert sol.expected_value.given_no_blackjack is False
    assert sol.expected_value.split == "CDZ-"
    assert "unconditioned" in repr(sol.expected_value)
    assert all(v.given_no_blackjack is False for v in sol.ev_by_upcard.values())
    assert "unconditioned" in repr(sol.insurance_ev())
    # identity: the insurance bet pays 2:1 on a ten, 4/13 of an infinite shoe
    assert sol.insurance_ev() == pytest.approx(3 * 4 / 13 - 1, abs=1e-15)


def test_shoe_that_may_run_out_is_flagged():
    with pytest.warns(RuntimeWarning, match="run out of cards"):
        sol = bjsolve.solve(bjsolve.Rules(decks=1), shoe=bjsolve.Shoe([0, 20] + [0] * 8))
    assert sol.may_run_out and "may run out" in repr(sol)
    assert not bjsolve.solve(bjsolve.Rules(decks=1)).may_run_out


@pytest.mark.parametrize("value", ["x", 1, "yes"])
def test_hand_ev_given_no_blackjack_must_be_bool(value):
    sol = bjsolve.solve(bjsolve.Rules(decks=float("inf")))
    with pytest.raises(TypeError, match="given_no_blackjack"):
        sol.hand_ev((10, 6), 10, given_no_blackjack=value)


def test_split_class_must_be_a_name():
    with pytest.raises(ValueError, match="CDZ-, CDP1, CDP"):
        bjsolve.solve(bjsolve.Rules(decks=1), split=["CDP"])


def test_insurance_refused_in_exposed_game_and_checks_cards():
    with pytest.raises(ValueError, match="insurance"):
        bjsolve.solve(bjsolve.Rules.preset("easy")).insurance_ev()
    one_deck = bjsolve.solve(bjsolve.Rules(decks=1))
    with pytest.raises(ValueError, match="cards"):
        one_deck.insurance_ev(("A", "A", "A", "A"))   # with the dealer's ace: five aces


def test_ev_table_names_the_allowed_actions(one_deck):
    from bjsolve.exact.tables import ev_table
    with pytest.raises(ValueError, match=r"action must be one of stand, hit, .*optimal, got 'fly'"):
        ev_table(one_deck, "fly")


def test_a_table_repr_is_one_line_and_str_is_the_text_table(one_deck):
    from bjsolve.output.render import to_text
    from bjsolve.exact.tables import EV_ROWS, ev_table
    table = ev_table(one_deck, "stand")
    assert repr(table) == f"<Table 'stand': stand EV, {len(EV_ROWS)} rows x 10 columns>"
    assert str(table) == to_text(table)


# ---- failures of the environment: one line naming what failed, never "internal error" ------

def _cli(*args, shell_tail=""):
    cmd = " ".join([f"'{sys.executable}'", "-m", "bjsolve", *args]) + shell_tail
    return subprocess.run(cmd, shell=True, capture_output=True, text=True)


@pytest.mark.skipif(not __import__("os").path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("args, tail, words", [
    (["dealer", "--decks", "1"], " >/dev/full", "cannot write the output: No space left"),
    (["dealer", "--decks", "1", "-o", "/dev/full"], "",
     "--output /dev/full: cannot write it: No space left"),
])
def test_a_full_device_is_one_line_exit_1(args, tail, words):
    p = _cli(*args, shell_tail=tail)
    assert p.returncode == 1 and p.stderr.count("\n") == 1, p.stderr
    assert words in p.stderr and "internal error" not in p.stderr


def test_an_output_file_that_cannot_be_made_is_one_line_exit_1(tmp_path):
    path = tmp_path / "no-such-dir" / "out.txt"
    err = io.StringIO()
    code = _main_with_stderr(["dealer", "--decks", "1", "-o", str(path)], err)
    assert code == 1 and err.getvalue().count("\n") == 1
    assert f"--output {path}: cannot write it" in err.getvalue()
    assert "internal error" not in err.getvalue()


def _main_with_stderr(argv, err):
    from contextlib import redirect_stderr
    from bjsolve.cli import main as cli_main
    with redirect_stderr(err):
        return cli_main(argv, out=io.StringIO())


def test_a_picture_without_matplotlib_names_the_plot_extra(monkeypatch, tmp_path):
    """--format png without matplotlib: the [plot] extra by name, exit 2 (the module the
    chart imported first was matplotlib.patches, an internal error)."""
    import builtins
    real_import = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name == "matplotlib" or name.startswith("matplotlib."):
            raise ModuleNotFoundError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)
    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    err = io.StringIO()
    code = _main_with_stderr(["strategy", "--decks", "1", "--format", "png", "-o",
                              str(tmp_path / "chart.png")], err)
    assert code == 2 and err.getvalue().count("\n") == 1, err.getvalue()
    assert "pip install 'bjsolve[plot]'" in err.getvalue()
