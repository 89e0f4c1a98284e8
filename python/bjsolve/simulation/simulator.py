"""Simulate the real game: a shoe dealt to a cut card, counted, bet by a ramp, played by a
strategy with index plays.  The rounds run in the compiled core (``bjcore._simulate``).

``simulate(rules, rounds=..., seed=...)`` validates everything, builds the strategy, index
and bet tables once as flat arrays (a ``GamePlan``, see game_plan.py), splits the run into
seeded chunks, plays them on threads (or on Dask workers, ``client=``) and merges the
chunks in chunk order, so the same seed and ``chunk_rounds`` give the same result whatever runs them.
See docs/simulation.md for the game model and the conventions.
"""
from __future__ import annotations

import collections
import dataclasses
from collections.abc import Mapping
import itertools
import math
import numbers
import os
import signal
import sys
import threading
import time

import numpy as np

from bjcore import MAX_CARDS, OPTIONAL_RULE_KEYS, STOP_SIGINT, check_rules

from ..counting.index_file import IndexPlay, parse_index_file
from ..counting.removal import count_tags
from ..exact.kernel_rules import kernel_rules
from ..exact.policy import after_double_chart
from ..model.checks import is_finite_real
from ..model.ranks import show as _show
from ..model.rules import Rules
from ..model.shoe import Shoe
from ..output.progress import ProgressBar, check_progress
from ..risk.ramp import MAX_BET, MIN_BET, parse_ramp
from .distributed import run_chunks
from .game_plan import (
    GamePlan,
    _choice,
    _dealer_keys,
    _decision_table,
    _index_plays,
    _line_tables,
    _resolve_strategy,
    _shoe_counts,
    _solution,
    compositions,
)
from .result import TC_HIGH, TC_LOW, RuinResult, SimulationResult, TrueCountRow, _result, merge

# the simulator's public names: its functions, and (re-exported, so that one import
# serves) the types it takes and returns and the index-file parser
__all__ = ("simulate", "build_plan", "run_local", "merge", "parse_index_file", "GamePlan",
           "IndexPlay", "SimulationResult", "TrueCountRow", "RuinResult",
           "DECKS_ESTIMATIONS", "TC_ROUNDINGS", "MAX_SPOTS")

# (in the kernel's order: its parameters hold the position in these tuples)
DECKS_ESTIMATIONS = ("exact", "half", "full")
TC_ROUNDINGS = ("floor", "truncate", "round")
MAX_SPOTS = 7
DEFAULT_CHUNK_ROUNDS = 1_000_000
# a run's size limits: 10**15 rounds is years of work on any machine (and far below the
# kernel's 64-bit counters); the chunk list is built before the run starts
MAX_ROUNDS = 10**15
MAX_CHUNKS = 10**6
SEED_LIMIT = 2 ** 64
BANKROLL_CHUNK_BASE = 2 ** 40      # bankroll paths use chunk numbers from here on
# bankroll paths run this many at a time (one seeded chunk each), so that memory stays
# bounded however many paths are asked for
RUIN_BATCH_PATHS = 16_384
# every worker thread holds the shuffled shoe in memory, one byte a card (an infinite shoe:
# its proportions); the kernel's limit, 10**8 cards (about 1.9 million decks), is far beyond
# any real shoe and within its 32-bit card positions
MAX_SHOE_CARDS = MAX_CARDS
# the penetration's forms, as every message about it says them: a fraction of exactly 1
# (the whole shoe) would leave no round behind the cut card
PENETRATION_FORMS = "a fraction of the shoe in (0, 1), a number of cards, or 'every-round'"
# true counts, wong_in/wong_out and insurance indices: the kernel clamps true counts to
# +-10**6 (32-bit ints)
TC_LIMIT = 10**6
# a count system's tags: the running count sums them over up to MAX_SHOE_CARDS cards in
# double precision; real systems' tags are a few units
MAX_TAG = 1000.0
# how often the waiting thread looks at finished chunks (progress) while workers run
POLL_SECONDS = 0.1
# positions in the kernel's parameter arrays (bjcore/_simulate.pxd)
# (the rules go to the kernel as the kernel rule dict, as to every kernel: bjcore._rules)
IP_FIELDS = ("cut", "spots", "others", "hole", "decks_estimation", "tc_rounding",
             "wong_in_set", "wong_in", "wong_out_set", "wong_out", "insurance_set",
             "insurance", "n_comps", "n_keys", "infinite", "side_cards", "deck_cards",
             "tag_scale")


# ---- input checks ----------------------------------------------------------------------------

def _whole(value, name: str, *, low: int = 1, high: int | None = None) -> int:
    """A whole number (an int, or a float such as 1e8 with no fraction) in [low, high]."""
    ok = not isinstance(value, bool) and (
        isinstance(value, numbers.Integral)
        or (isinstance(value, float) and math.isfinite(value) and value.is_integer()))
    if ok:
        value = int(value)
        ok = value >= low and (high is None or value <= high)
    if not ok:
        span = f"{low}..{high}" if high is not None else f">= {low}"
        raise ValueError(f"{name} must be a whole number {span}, got {_show(value)}")
    return value


def _seed(seed: int) -> int:
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise TypeError(f"seed must be an integer 0..2**64-1, got {_show(seed)}")
    if not 0 <= seed < SEED_LIMIT:
        raise ValueError(f"seed must be an integer 0..2**64-1, got {_show(seed)}")
    return int(seed)


def checked_run(rounds, seed, chunk_rounds, threads) -> tuple:
    """(rounds, seed, chunk_rounds, threads) of a simulation run, checked: the errors name
    the field (threads None: every core)."""
    rounds = _whole(rounds, "rounds", low=1, high=MAX_ROUNDS)
    seed = _seed(seed)
    chunk_rounds = _whole(chunk_rounds, "chunk_rounds", low=1)
    if -(-rounds // chunk_rounds) > MAX_CHUNKS:
        raise ValueError(f"rounds / chunk_rounds must be at most {MAX_CHUNKS:,} chunks, got "
                         f"{rounds:,} / {chunk_rounds:,}: give a larger chunk_rounds")
    if threads is not None:
        threads = _whole(threads, "threads", low=1, high=1024)
    return rounds, seed, chunk_rounds, threads


def _check_burn(burn) -> None:
    """The simulator burns one card after every shuffle (its compiled dealer): burn=1, as
    ``CountedGame``'s default, or the error naming the field."""
    if isinstance(burn, bool) or not isinstance(burn, numbers.Integral):
        raise TypeError(f"burn must be a whole number of cards, got {_show(burn)}")
    if burn != 1:
        raise ValueError(f"burn: the simulator burns 1 card after every shuffle, got "
                         f"{_show(burn)} (CountedGame takes other numbers)")


def _int_or_none(value, name: str):
    """A whole true count in -TC_LIMIT..TC_LIMIT (an int, or a float with no fraction)."""
    if value is None:
        return None
    ok = not isinstance(value, bool) and (
        isinstance(value, numbers.Integral)
        or (isinstance(value, numbers.Real) and math.isfinite(value)
            and float(value).is_integer()))
    if not ok or not -TC_LIMIT <= value <= TC_LIMIT:
        raise ValueError(f"{name} must be a whole true count {-TC_LIMIT}..{TC_LIMIT} or None, "
                         f"got {_show(value)}")
    return int(value)


def _shoe_size(counts, infinite: bool) -> int:
    """The number of cards the kernel holds, or a ValueError past MAX_SHOE_CARDS."""
    n_cards = sum(counts)
    if n_cards > MAX_SHOE_CARDS:
        what = ("an infinite shoe's proportions add up to" if infinite
                else "the shoe holds")
        raise ValueError(f"shoe: {what} {n_cards:,} cards; the simulator deals from at most "
                         f"{MAX_SHOE_CARDS:,} (every thread holds the shuffled shoe in "
                         f"memory){'; give smaller whole proportions' if infinite else ''}")
    return n_cards


def _tags(system):
    """The count system's 10 tags as float64, each within +-MAX_TAG."""
    tags = np.array(count_tags(system), dtype=np.float64)
    if not np.all(np.abs(tags) <= MAX_TAG):
        raise ValueError(f"system: tags must be within +-{MAX_TAG:g}, got "
                         f"{', '.join(f'{t:g}' for t in tags)}")
    return tags


def cut_card(penetration: float | str, n_cards: int, round_cards: int, infinite: bool,
             dealt: str) -> int:
    """The cut card: the cards dealt before a round is the last of the shoe (0: a fresh
    shuffle before every round; an infinite shoe has none), from ``penetration`` (a
    fraction of the shoe, a number of cards or 'every-round'), for rounds of
    ``round_cards`` cards (``dealt``: what they are dealt to, for the messages)."""
    if infinite:
        return 0
    if isinstance(penetration, str):
        if penetration != "every-round":
            raise ValueError(f"penetration must be {PENETRATION_FORMS}, got {_show(penetration)}")
        return 0
    if isinstance(penetration, bool) or not isinstance(penetration, numbers.Real):
        raise TypeError(f"penetration must be {PENETRATION_FORMS}, got {_show(penetration)}")
    if not is_finite_real(penetration):
        raise ValueError(f"penetration must be {PENETRATION_FORMS}, got {_show(penetration)}")
    if isinstance(penetration, numbers.Integral) or penetration > 1:
        if penetration != int(penetration):
            raise ValueError(f"penetration in cards must be whole, got {_show(penetration)}")
        cut = int(penetration)
    elif 0 < penetration <= 1:
        cut = int(round(penetration * n_cards))
    else:
        raise ValueError(f"penetration must be {PENETRATION_FORMS}, got {_show(penetration)}")
    if cut > n_cards - round_cards:
        raise ValueError(f"penetration {_show(penetration)} ({cut} cards) goes beyond the "
                         f"{n_cards}-card shoe: the cut card must leave at least one round "
                         f"({round_cards} cards for {dealt}) behind it")
    if cut < 1 + round_cards:
        raise ValueError(f"penetration {_show(penetration)} ({cut} cards) is below one "
                         f"round's cards ({round_cards} after the burn card); for a fresh "
                         f"shoe every round say penetration='every-round'")
    return cut


def bets_by_true_count(ramp, table_min, table_max) -> tuple:
    """(the ramp's steps [(true count, bet)], empty for flat betting; the bet at each true
    count TC_LOW..TC_HIGH): the ramp (None: flat at ``table_min``) within the table's
    limits (a bet of 0 sits the round out)."""
    steps = [] if ramp is None else list(parse_ramp(ramp).points)   # None: flat betting
    # the table limits are bets, in the ramp's units and range: a 1e308-unit bet overflowed
    # the sums of squared results (mean and SD NaN), a 1e-300 one underflowed them
    if not (is_finite_real(table_min) and MIN_BET <= table_min <= MAX_BET):
        raise ValueError(f"table_min must be a bet from {MIN_BET:g} to {MAX_BET:,} units, "
                         f"got {_show(table_min)}")
    if table_max is not None and not (is_finite_real(table_max) and table_max >= table_min):
        raise ValueError(f"table_max must be a number >= table_min ({table_min:g}), "
                         f"got {_show(table_max)}")
    bets = np.empty(TC_HIGH - TC_LOW + 1)
    for i, tc in enumerate(range(TC_LOW, TC_HIGH + 1)):
        bet = float(table_min)
        if steps:
            bet = steps[0][1]
            for c, b in steps:
                if c <= tc:
                    bet = b
            if bet > 0:
                bet = max(bet, float(table_min))
        if table_max is not None:
            bet = min(bet, float(table_max))
        bets[i] = bet
    return steps, bets


def wonging(wong_in, wong_out) -> tuple:
    """(wong_in, wong_out) checked: whole true counts or None; wong_in alone plays
    exactly at counts >= wong_in; wong_out not above wong_in."""
    wong_in = _int_or_none(wong_in, "wong_in")
    wong_out = _int_or_none(wong_out, "wong_out")
    if wong_in is not None and wong_out is None:
        wong_out = wong_in   # play exactly while the count is at least wong_in
    if wong_in is not None and wong_out > wong_in:
        raise ValueError(f"wong_out ({wong_out:+d}) must not be above wong_in ({wong_in:+d})")
    return wong_in, wong_out


# ---- the public entry point ------------------------------------------------------------------

def _count_convention(rules: Rules, tags, counts, infinite: bool) -> tuple:
    """(cards a deck, tag scale, the tags the kernel counts with).  A standard shoe: 52,
    1 and the system's tags.  A Spanish shoe (``rules.spanish_deck``), as ``CountedGame``
    counts it: the decks remaining are judged in 48-card decks, and a count the shoe
    unbalances (Hi-Lo without the tens) is taken in excess of its expected value at that
    depth, rc - n T / N (T the tags of the whole shoe, N its cards): the kernel counts
    N t - T per card in units of 1 / N, whole numbers for whole tags, so a true count
    that is exactly whole is found whole (the kernel divides once)."""
    if not rules.spanish_deck or infinite:
        return 52, 1, tags
    n_cards = int(sum(counts))
    total = float(np.dot(tags, np.asarray(counts, dtype=float)))
    if total == 0:
        return 48, 1, tags
    return 48, n_cards, tags * n_cards - total


def _game_rules(rules: Rules, game_rules) -> tuple[dict, dict | None]:
    """(the kernel rule dict, its decoded fields when it is one of the games' else None):
    ``kernel_rules(rules)`` with the games' keys of ``game_rules`` (a mapping; also
    natural_tie_value: "a natural always wins" is the blackjack payout) added."""
    kernel = kernel_rules(rules, 0)   # (the split class: unused, decisions are tables)
    if game_rules is not None:
        if not isinstance(game_rules, Mapping):
            raise TypeError(f"game_rules must be a mapping of the games' rule keys "
                            f"({', '.join(OPTIONAL_RULE_KEYS)}), got {_show(game_rules)}")
        unknown = sorted(str(k) for k in game_rules if k not in OPTIONAL_RULE_KEYS)
        if unknown:
            raise ValueError(f"game_rules: unknown {', '.join(unknown)} (the games' rule keys "
                             f"are {', '.join(OPTIONAL_RULE_KEYS)})")
        kernel.update(game_rules)
    decoded = check_rules(kernel)            # ValueError / TypeError naming a bad key
    return kernel, (decoded if decoded["game"] else None)


def build_plan(rules: Rules, *, shoe=None, penetration: float | str = 0.75, burn=1, spots=1,
               other_spots=0, strategy="basic", system=None, indices=None, insurance=None,
               decks_estimation="exact", tc_rounding="floor", ramp=None, wong_in=None,
               wong_out=None,
               table_min=1.0, table_max=None, threads=None, game_rules=None,
               after_double=None, sidebet=None, sidebet_paytable=None,
               sidebet_threshold=None, sidebet_units=1.0):
    """Validate the settings and build the GamePlan (see ``simulate``); returns
    (plan, settings dict for the record).  ``threads``: for the strategy's solve."""
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a bjsolve.Rules, got {type(rules).__name__}")
    kernel, game = _game_rules(rules, game_rules)
    if after_double is not None and after_double != "basic" and not callable(after_double):
        raise TypeError(f"after_double must be 'basic', a callable f(cards, dealer, allowed, split, "
                        f"doubles) -> 'stand', 'redouble' or 'rescue', or None, got "
                        f"{type(after_double).__name__}")
    counts, infinite = _shoe_counts(rules, shoe)
    n_cards = _shoe_size(counts, infinite)
    _check_burn(burn)
    spots = _whole(spots, "spots", low=1, high=MAX_SPOTS)
    other_spots = _whole(other_spots, "other_spots", low=0, high=MAX_SPOTS - spots)
    n_spots = spots + other_spots
    round_cards = 2 * (n_spots + 1)
    if n_cards < round_cards + 1:
        raise ValueError(f"shoe: {n_cards} cards cannot deal one round to {n_spots} spots")
    cut = cut_card(penetration, n_cards, round_cards, infinite, f"{n_spots} spots")
    decks_estimation = _choice(decks_estimation, "decks_estimation", DECKS_ESTIMATIONS)
    tc_rounding = _choice(tc_rounding, "tc_rounding", TC_ROUNDINGS)
    system = "hilo" if system is None else system
    tags = _tags(system)
    deck_cards, tag_scale, run_tags = _count_convention(rules, tags, counts, infinite)
    steps, bets = bets_by_true_count(ramp, table_min, table_max)
    wong_in, wong_out = wonging(wong_in, wong_out)

    side = _side_bet_tables(rules, counts, infinite, sidebet, sidebet_paytable,
                            sidebet_threshold, sidebet_units)
    exposed = rules.hole_card == "exposed"
    keys, key_of = _dealer_keys(exposed)
    comps = compositions()
    analysis_shoe = Shoe.infinite(counts) if infinite else Shoe(counts)
    if (indices is not None and indices is not False) and (exposed or infinite):
        raise ValueError("indices: index plays need a finite shoe and a single dealer upcard")
    policy = _resolve_strategy(rules, analysis_shoe, strategy, threads)
    limit_counts = None if infinite else counts
    if after_double == "basic":
        # the full-shoe after-double chart, as Solution.evaluate(after_double="basic") plays it
        after_double = after_double_chart(_solution(rules, analysis_shoe, threads))
    decision, allowed = _decision_table(rules, limit_counts, keys, comps, policy, game,
                                        after_double)
    plays, table_insurance = _index_plays(indices, rules, system, tc_rounding, threads)
    line_of, nseg, thr, play = _line_tables(plays, keys, comps, allowed, exposed)
    if insurance is None:
        insurance = table_insurance
    elif insurance is False:
        insurance = None
    else:
        insurance = _int_or_none(insurance, "insurance")
    ip = dict(cut=cut, spots=spots, others=other_spots,
              hole={"peek": 0, "enhc": 1, "enhc-obo": 2, "exposed": 3}[rules.hole_card],
              decks_estimation=DECKS_ESTIMATIONS.index(decks_estimation),
              tc_rounding=TC_ROUNDINGS.index(tc_rounding),
              wong_in_set=int(wong_in is not None), wong_in=wong_in or 0,
              wong_out_set=int(wong_out is not None), wong_out=wong_out or 0,
              insurance_set=int(insurance is not None), insurance=insurance or 0,
              n_comps=len(comps.hands), n_keys=len(keys),
              infinite=int(infinite), side_cards=side["cards"], deck_cards=deck_cards,
              tag_scale=tag_scale)
    plan = GamePlan(
        rules=kernel,
        iparams=np.array([ip[f] for f in IP_FIELDS], dtype=np.int64),
        dparams=np.array([0.0]),        # the bankroll: GamePlan.run sets it
        shoe=np.array(counts, dtype=np.int32), tags=run_tags, child=comps.child,
        total=comps.total,
        decision=(decision.astype(np.int16) | ((line_of + 1) << 3).astype(np.int16)).ravel(),
        allowed=allowed.ravel(), line_nseg=nseg, line_thr=thr, line_play=play,
        key_of=key_of, bet_by_tc=bets, side_outcome=side["outcome"], side_pays=side["pays"],
        side_by_tc=side["units"])
    # the kernel checks the rules against the tables and the shoe (the games' kinds of
    # decision, a suited bonus's shoe) on every chunk: once here, before any worker starts
    plan.run(0, 0, 0)
    strategy_name = strategy if isinstance(strategy, str) else type(strategy).__name__
    described = rules.describe()
    if game_rules:
        described += " + " + ", ".join(f"{k}={v}" for k, v in game_rules.items())
    settings = dict(rules=described, shoe=f"{n_cards} cards" + (" (infinite)" if infinite
                                                                        else ""),
                    penetration=("every round" if cut == 0 else f"{cut} of {n_cards} cards"),
                    spots=spots, other_spots=other_spots, strategy=strategy_name,
                    system=system if isinstance(system, str) else "user tags",
                    index_plays=sum(len(p.plays) > 1 for p in plays),
                    insurance=("never" if insurance is None else f"at TC >= {insurance:+d}"),
                    decks_estimation=decks_estimation, tc_rounding=tc_rounding,
                    ramp=", ".join(f"{c:+d}:{b:g}" for c, b in steps) or "flat",
                    wong=("off" if wong_in is None and wong_out is None else
                          f"in at TC >= {wong_in}, out below {wong_out}"),
                    table=f"{table_min:g}.." + ("no maximum" if table_max is None
                                                else f"{table_max:g}"))
    if side["play"] is not None:
        settings["sidebet"] = side["play"].describe()
    return plan, settings


def _side_bet_tables(rules, counts, infinite, sidebet, paytable, threshold, units) -> dict:
    """The side bet's arrays for the kernel (``bjsolve.risk.side_bet``): none without a
    side bet; else the outcome table of its cards, the win of each outcome and its units
    at each true count TC_LOW..TC_HIGH (the kernel's bins: a threshold must lie inside)."""
    none = {"play": None, "cards": 0, "outcome": np.zeros(1, dtype=np.int8),
            "pays": np.zeros(1), "units": np.zeros(1)}
    if sidebet is None and paytable is None:
        if threshold is not None or not (isinstance(units, (int, float))
                                         and units == 1.0):
            raise ValueError("sidebet_threshold / sidebet_units need a sidebet")
        return none
    from ..risk.side_bet import side_bet_play, side_outcome_table
    play = side_bet_play(sidebet, paytable, threshold=threshold, units=units)
    decks = sum(counts) // 52
    if infinite or list(counts) != [4 * decks] * 9 + [16 * decks] or decks < 1:
        raise ValueError(f"sidebet: the simulator deals suits from a shoe of whole decks "
                         f"(every kind equally often), got {'an infinite shoe' if infinite else 'shoe counts ' + ', '.join(map(str, counts))}")
    if play.threshold is not None and not TC_LOW < play.threshold <= TC_HIGH:
        raise ValueError(f"sidebet_threshold must be a whole true count {TC_LOW + 1}..{TC_HIGH} "
                         f"(the simulator's true-count bins), got {play.threshold}")
    cards, outcome, pays = side_outcome_table(play)
    if cards == 4 and rules.hole_card == "exposed":
        raise ValueError(f"sidebet: {play.bet} reads the hole card; the exposed game is not "
                         f"supported with it")
    return {"play": play, "cards": cards, "outcome": outcome, "pays": pays,
            "units": play.units_at(np.arange(TC_LOW, TC_HIGH + 1))}


def simulate(rules: Rules | None = None, *, rounds, seed, shoe=None, penetration=0.75,
             burn: int = 1, spots: int = 1, other_spots: int = 0, strategy="basic", system=None,
             indices=None, insurance=None, decks_estimation: str = "exact",
             tc_rounding: str = "floor", ramp=None, wong_in=None, wong_out=None,
             table_min: float = 1.0, table_max=None,
             threads: int | None = None, chunk_rounds: int = DEFAULT_CHUNK_ROUNDS,
             progress=False, client=None, bankroll_trials=None, game_rules=None,
             after_double=None, sidebet=None, sidebet_paytable=None,
             sidebet_threshold=None, sidebet_units=1.0) -> SimulationResult:
    """Simulate ``rounds`` rounds of the real game; see docs/simulation.md.

    rules: a ``Rules`` (default ``Rules()``); shoe: None (``rules.decks`` full decks), a
        ``Shoe`` or 10 counts A..T to deal from (an infinite shoe draws with replacement).
    penetration: the cut card, as a fraction of the shoe (0.75), a number of cards (234),
        or 'every-round' (a fresh shuffle before every round).
    burn: cards burnt (never seen) after every shuffle: 1, as the compiled dealer deals
        (``CountedGame``'s ``burn`` takes any number; another number here is refused).
    spots: the player's spots (1..7, same bet each); other_spots: other players at the
        table (they play the same strategy, flat, and only eat cards).
    strategy: 'basic' (the solve's chart), 'optimal' (the full-shoe composition-
        dependent strategy, split hands CDZ-), a ``StrategyChart`` or a callable
        f(cards, dealer, allowed) -> action.
    system: a count system name (default 'hilo') or 10 tags A..T.
    indices: None (no index plays), True or "all" (``generate_indices(rules, system,
        tc_rounding=tc_rounding)``: exact indices for this tc_rounding),
        "i18" or "fab4" (those published plays only, with these exact indices), a number N
        (the N lines of largest gain), a list of those ("i18,fab4" or ["i18", "fab4"]:
        their lines together), an ``IndexTable``, an index file (path or text; its
        "# insurance:" line is its insurance index), or a list mixing them: a hand given
        two different lines is refused, naming the hand (``indices.as_index_table``, as
        ``CountedGame`` takes them).  Lines whose play changes with the count override the
        strategy at the current true count.
    insurance: None (the index plays' insurance index, else never), False (never), or a
        true count from which to insure (even money for a natural).
    decks_estimation: 'exact' (cards not yet seen), 'half' or 'full' (decks remaining
        estimated to the nearest half or whole deck, at least one half / one deck).
    tc_rounding: how the true count becomes a whole number: 'floor', 'truncate' (toward
        zero), 'round' (nearest, halves up).  Bets and indices use that number.
    ramp: true count -> bet: "1:1,2:2,3:4,4:8", a mapping, pairs or a ``bjsolve.risk.ramp.Ramp``
        (``bjsolve.risk.ramp.parse_ramp``: whole counts, each once, bets >= 0); the bet of the
        highest step at or below the count (below the first step: the first step's bet);
        0 sits the round out.  Default: flat betting at ``table_min``.
    wong_in / wong_out: sit out while the count is below wong_out until it reaches
        wong_in (wong_in alone: play exactly at counts >= wong_in; wong_out alone: leave
        the shoe below wong_out and come back after the shuffle).
    table_min / table_max: bets are raised to the minimum (except 0) and cut to the maximum.
    threads: worker threads (default: every core), also for the strategy's solve; chunk_rounds:
        rounds per seeded chunk.
        The result depends on (seed, chunk_rounds), not on threads or client.
    progress: True (a bar on stderr) or a callable progress(done_rounds, total_rounds).
    client: a ``dask.distributed.Client``: the chunks run on its workers.
    bankroll_trials: (paths, rounds per path, bankroll): that many independent paths from
        the bankroll, each ended by ruin (bankroll + winnings <= 0; with a side bet, the
        combined winnings); the share ruined is ``result.ruin.risk_of_ruin``.
    sidebet: a side bet played beside the game (``bjsolve.risk.side_bet.GAME_SIDE_BETS``;
        ``sidebet_paytable`` a preset of it), on the first spot in the rounds the main game
        is bet: ``sidebet_units`` units (a number or a ramp of its own) at true counts of
        the main count >= ``sidebet_threshold`` (None: every round bet); a shoe of whole
        decks (the cards are dealt with suits).  ``result.sidebet`` holds its totals and
        the combined play's.
    game_rules: the games' keys of the kernel rule dict (docs/games.md: dealer_22_push,
        free_double_totals, free_split_ranks, player_21_wins, bonus_21, bonus_678,
        bonus_777, bonus_after_split, super_bonus, redoubles, double_rescue,
        double_split_aces), added to the rules' own.
    after_double: with redoubles or double_rescue, f(cards, dealer, allowed, split,
        doubles) -> 'stand', 'redouble' or 'rescue' (among ``allowed``), asked once per
        composition, dealer, split or not and number of doubles made; "basic": the
        full-shoe after-double chart (``bjsolve.exact.policy.after_double_chart``), the
        choices ``Solution.evaluate(chart, after_double="basic")`` plays, so the two
        agree; None: always stand.
    """
    rules = Rules() if rules is None else rules
    rounds, seed, chunk_rounds, threads = checked_run(rounds, seed, chunk_rounds, threads)
    trials = checked_bankroll_trials(bankroll_trials)
    plan, settings = build_plan(
        rules, shoe=shoe, penetration=penetration, burn=burn, spots=spots,
        other_spots=other_spots,
        strategy=strategy, system=system, indices=indices, insurance=insurance,
        decks_estimation=decks_estimation, tc_rounding=tc_rounding, ramp=ramp,
        wong_in=wong_in,
        wong_out=wong_out, table_min=table_min, table_max=table_max, threads=threads,
        game_rules=game_rules, after_double=after_double,
        sidebet=sidebet, sidebet_paytable=sidebet_paytable,
        sidebet_threshold=sidebet_threshold, sidebet_units=sidebet_units)
    specs = [(k, min(chunk_rounds, rounds - k * chunk_rounds))
             for k in range((rounds + chunk_rounds - 1) // chunk_rounds)]
    check_progress(progress, "the rounds done and the rounds in all")
    reporter = _progress_reporter(progress, rounds)
    if client is not None:
        done, partial = run_chunks(client, plan, seed, specs, reporter)
    else:
        done, partial = run_local(plan, seed, specs, threads, reporter)
    result = _result(merge(done), seed, len(done), partial, settings,
                     sidebet=settings.get("sidebet"))
    if trials is not None and not partial:
        try:
            result = dataclasses.replace(result, ruin=ruin_paths(plan, seed, trials,
                                                                 threads, client))
        except KeyboardInterrupt:
            # the rounds stand; the bankroll paths are dropped
            result = dataclasses.replace(result, partial=True)
    return result


def checked_bankroll_trials(bankroll_trials):
    """None, or (paths, rounds per path, bankroll) checked: whole counts, at most
    MAX_ROUNDS rounds in all, a positive bankroll."""
    if bankroll_trials is None:
        return None
    try:
        paths, per_path, bankroll = bankroll_trials
    except (TypeError, ValueError):
        raise ValueError(f"bankroll_trials must be (paths, rounds per path, bankroll), "
                         f"got {_show(bankroll_trials)}") from None
    paths = _whole(paths, "bankroll_trials paths", low=1, high=MAX_ROUNDS)
    per_path = _whole(per_path, "bankroll_trials rounds per path", low=1, high=MAX_ROUNDS)
    if paths * per_path > MAX_ROUNDS:
        raise ValueError(f"bankroll_trials: {paths:,} paths of {per_path:,} rounds is "
                         f"more than {MAX_ROUNDS:.0e} rounds in all")
    if not (is_finite_real(bankroll) and bankroll > 0):
        raise ValueError(f"bankroll_trials bankroll must be a positive number, got "
                         f"{_show(bankroll)}")
    return (paths, per_path, float(bankroll))


def ruin_paths(plan, seed, trials, threads, client=None) -> RuinResult:
    """The bankroll paths of ``trials`` (``checked_bankroll_trials``) of a plan whose
    ``run`` takes a bankroll (the classic ``GamePlan``, Blackjack Switch's plan),
    RUIN_BATCH_PATHS at a time; only the number ruined is kept."""
    paths, per_path, bankroll = trials
    ruined = 0
    for first in range(0, paths, RUIN_BATCH_PATHS):
        specs = [(BANKROLL_CHUNK_BASE + k, per_path)
                 for k in range(first, min(paths, first + RUIN_BATCH_PATHS))]
        if client is not None:
            done, partial = run_chunks(client, plan, seed, specs, None, bankroll=bankroll)
            flags = [_was_ruined(c) for c in done]
        else:
            flags, partial = run_local(plan, seed, specs, threads, None, bankroll=bankroll,
                                       keep=_was_ruined)
        if partial:
            raise KeyboardInterrupt
        ruined += sum(flags)
    p = ruined / paths
    return RuinResult(paths, per_path, bankroll, ruined, p, math.sqrt(p * (1 - p) / paths))


def _was_ruined(chunk_result) -> int:
    return int(chunk_result[1][5])          # counts[C_RUINED]


def run_local(plan: GamePlan, seed: int, specs, threads, reporter, bankroll: float = 0.0,
              keep=None):
    """Run chunks [(chunk number, rounds)]; (results in chunk order, partial?).
    ``keep``: what to keep of a chunk's result (default: all of it).

    One worker (threads=1, or a single chunk) runs the chunks in the calling thread: no
    thread to start, so a run under a tight memory limit cannot fail (or abort in glibc)
    starting one.  More run on worker threads (fewer if some cannot be started, the
    calling thread if none can).  Either way one Ctrl-C stops the run within milliseconds
    with the rounds played so far (partial = True): see _run_here and _run_on_threads."""
    threads = min(threads or os.cpu_count() or 1, max(1, len(specs)))
    if threads > 1:
        ran = _run_on_threads(plan, seed, specs, threads, reporter, bankroll, keep)
        if ran is not None:
            return ran
    return _run_here(plan, seed, specs, reporter, bankroll, keep)


def _run_here(plan, seed, specs, reporter, bankroll, keep):
    """The chunks one after another in the calling thread.  In the main thread the kernel
    also looks for a Ctrl-C every 65,536 rounds (watch_sigint): it ends the chunk with the
    rounds played so far and takes the signal, which is raised again here so that the
    program's own SIGINT handler runs (by default: KeyboardInterrupt, caught below)."""
    watch_sigint = threading.current_thread() is threading.main_thread()
    stop = np.zeros(1, dtype=np.int8)
    results = []
    report, stop_ticks = _reporting_here(reporter)
    try:
        for chunk, n in specs:
            r = plan.run(seed, chunk, n, stop, bankroll, watch_sigint)
            results.append(r if keep is None else keep(r))
            if stop[0] == STOP_SIGINT:
                signal.raise_signal(signal.SIGINT)
                return results, True    # (a handler that did not raise: the chunk is cut)
            report(n)
    except KeyboardInterrupt:
        return results, True
    finally:
        stop_ticks()
    return results, False


def _reporting_here(reporter):
    """(report(n), stop()) for a run in the calling thread.  A progress bar also hears of
    no change every POLL_SECONDS from a small thread (it shows after a second and its
    clock runs while a long chunk is under way); without one (none could be started), the
    bar moves at each chunk's end."""
    lock = threading.Lock()
    stopped = threading.Event()

    def report(n):
        if reporter:
            with lock:
                reporter(n)

    def stop():
        with lock:
            stopped.set()

    def tick():
        while not stopped.wait(POLL_SECONDS):
            with lock:
                if not stopped.is_set():
                    reporter(0)

    if getattr(reporter, "ticks", False):
        try:
            threading.Thread(target=tick, name="bjsolve-simulate-progress", daemon=True).start()
        except RuntimeError:             # can't start new thread: no ticks
            pass
    return report, stop


def _run_on_threads(plan, seed, specs, threads, reporter, bankroll, keep):
    """The chunks on worker threads (as many as start, up to ``threads``) while this thread
    only waits; None when not one worker could be started.

    A Ctrl-C reaches the waiting thread at once, sets the stop flag the kernel reads every
    65,536 rounds without the GIL, and the workers return within milliseconds with the
    rounds played so far (partial = True).  The waiting is a sleep that takes no lock: an
    interrupt inside ``concurrent.futures.wait`` could leave a future's lock held (and the
    pool's shutdown hanging), and one inside ``Thread.join`` marks a running thread as
    finished."""
    stop = np.zeros(1, dtype=np.int8)
    results = [_NOT_RUN] * len(specs)
    finished = collections.deque()       # chunk positions, as they finish (for progress)
    entered, exited = [], []             # an entry per worker that has started / returned
    errors = []
    positions = itertools.count()        # the next chunk to run, shared by the workers

    def work():
        entered.append(True)             # before the first look at the stop flag
        try:
            for i in positions:
                if i >= len(specs) or stop[0]:
                    return
                chunk, n = specs[i]
                r = plan.run(seed, chunk, n, stop, bankroll)
                results[i] = r if keep is None else keep(r)
                finished.append(i)
        except BaseException as e:       # noqa: B036 -- handed to the waiting thread
            errors.append(e)
            stop[0] = 1
        finally:
            exited.append(True)

    partial = False
    started = 0
    try:
        for k in range(threads):         # (a Ctrl-C may come while a thread starts)
            try:
                threading.Thread(target=work, name=f"bjsolve-simulate-{k}", daemon=True).start()
            except RuntimeError:         # can't start new thread (out of memory)
                break
            started += 1
        if started == 0:
            return None
        _wait_for(lambda: len(exited) == started, finished, specs, reporter)
    except KeyboardInterrupt:
        partial = True
    finally:
        if len(exited) < started:        # interrupted, or the progress callback failed:
            stop[0] = 1                  # a worker not yet started will not run a chunk
            _wait_for(lambda: len(exited) == len(entered), finished, specs, None)
    if errors:
        raise errors[0]
    return [r for r in results if r is not _NOT_RUN], partial


_NOT_RUN = object()


def _wait_for(all_exited, finished, specs, reporter) -> None:
    """Sleep until ``all_exited()``, reporting chunks as they finish (and, on every look,
    to a progress bar, so that it shows and its clock runs while a long chunk is under
    way).  The first looks come quickly (a short run ends without waiting), then every
    POLL_SECONDS."""
    ticks = getattr(reporter, "ticks", False)
    pause = 0.001
    while True:
        done = all_exited()              # before the reports: none is missed
        while finished and reporter:
            reporter(specs[finished.popleft()][1])
        if done:
            return
        if ticks:
            reporter(0)
        time.sleep(pause)
        pause = min(2 * pause, POLL_SECONDS)


def _progress_reporter(progress, total):
    if not progress:
        return None
    if callable(progress):
        done = [0]

        def report(n):
            done[0] += n
            progress(done[0], total)
        # a bar also hears of no change while a long chunk runs (it shows after a second)
        report.ticks = isinstance(progress, ProgressBar)
        return report
    start = time.perf_counter()
    done = [0]
    lock = threading.Lock()

    def bar(n):
        with lock:
            done[0] += n
            frac = done[0] / total
            spent = time.perf_counter() - start
            eta = spent / frac - spent if frac > 0 else 0.0
            filled = int(30 * frac)
            sys.stderr.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {frac:6.1%} "
                             f"{done[0]:,}/{total:,} rounds  ETA {eta:6.1f} s")
            if done[0] >= total:
                sys.stderr.write("\n")
            sys.stderr.flush()
    return bar
