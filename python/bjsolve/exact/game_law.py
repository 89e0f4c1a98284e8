"""The law of one round's net result in the games (Free Bet, Spanish 21, docs/games.md).

The classic outcome kernel (``bjcore._distribution``) keeps a round's result on the
half-unit lattice -8 .. +8; the games leave it (a free stake wins 2 and loses nothing,
bonuses pay 1.5, 2, 3 times, the super bonus 200 units, redoubled stakes reach 8 and more
with splits).  Their law comes from the game engine itself
(``GameEngine.round_law_entries``, ``src/bjcore/game_law.h``): it follows the engine's own
decisions (the solve's, or a strategy frozen in a policy engine) and carries, for every
hand, the joint law of the dealer's outcome and the hand's net result over an exact table
of result values.

A round law here is ``(values, law)``: ``values`` the sorted net results (units of the
initial bet, a 1-D float array), ``law[t, i]`` the chance that the dealer ends in
``GAME_DEALER_OUTCOMES[t]`` (17, 18, 19, 20, 21, a natural, 22, more than 22) and the
round's net result is ``values[i]``; unconditioned (dealer naturals included), summing
to 1, its mean the engine's ``round_ev`` (to ~1e-15).

Exactness: a round without a split is exact on every shoe, and so is a split into two
hands (no resplit possible) on a shoe of whole counts (the joint law of both hands and the
dealer, ``src/bjcore/game_two_hands.h``).  A split that may make 3-4 hands (or any split
on a fractional shoe) has its hands combined as independent given the dealer's outcome:
exact on an infinite shoe, on a finite shoe the cards the split hands take from one
another are left out (the mean stays exact; the error measured in docs/risk.md, "The
games").  Its second moment can be had exactly all the same (``moments=True``: from every
pair of split hands' joint law with the dealer, ``src/bjcore/game_split_moments.h``) on
shoes of whole counts a round cannot run out of, except BB+1 and CDP.
"""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np

from bjcore import GameEngine

from ..model.rules import Rules
from ..model.shoe import Shoe
from .engines import engine_class
from .kernel_rules import POLICY_CLASS, SPLIT_CLASSES, kernel_rules, with_shoe

# dealer outcomes t of a game law, in the engine's order (the classic kernel's seven, the
# dealer's 22 apart from the other busts: it pushes in Free Bet)
GAME_DEALER_OUTCOMES = ("17", "18", "19", "20", "21", "blackjack", "22", "bust")
GAME_NATURAL_T = 5


def is_game(rules: Rules, split: str = "CDZ-") -> bool:
    """Whether ``rules`` are computed by the game engine (a game rule is set)."""
    return engine_class(kernel_rules(rules, SPLIT_CLASSES[split])) is GameEngine


def law_arrays(entries) -> tuple[np.ndarray, np.ndarray]:
    """(values, law) of ``GameEngine.round_law_entries``' sparse entries."""
    table, probs, outcomes, results = entries[:4]
    used = sorted(set(results), key=lambda i: table[i])
    values = np.array([table[i] for i in used], dtype=float)
    column = {i: c for c, i in enumerate(used)}
    law = np.zeros((len(GAME_DEALER_OUTCOMES), len(values)))
    for p, t, i in zip(probs, outcomes, results):
        law[t, column[i]] += p
    return values, law


def engine_round_law(engine: GameEngine) -> tuple[np.ndarray, np.ndarray, bool]:
    """(values, law, whether a split was combined approximately) of one engine's round,
    playing its own decisions."""
    entries = engine.round_law_entries()
    values, law = law_arrays(entries)
    return values, law, entries[4] > 0


def engine_round_law_moments(engine: GameEngine, moments: bool = True):
    """``engine_round_law`` and the round's E[S^2 ; t] per dealer outcome t (an array of 8)
    with every combined split given its exact second moment where it can be
    (``moments``), and whether each combined split's was: (values, law, approx, m2,
    moments_exact).  Without ``moments``, m2 is the law's own and moments_exact is True
    only when no split was combined."""
    entries = engine.round_law_entries(moments=moments)
    values, law = law_arrays(entries)
    # (the law's own second moment, row by row as outcome_distribution sums it, plus what
    # the exact splits add: nothing where none)
    m2 = np.array([float(law[t] @ values ** 2) for t in range(law.shape[0])])
    m2 += np.array(entries[7], dtype=float)
    return values, law, entries[4] > 0, m2, entries[8] == 0


def game_round_law(rules: Rules, shoe: Shoe, key, engine=None) -> tuple[np.ndarray, np.ndarray]:
    """The law of one round of the games' ``rules`` on ``shoe`` against dealer key ``key``
    (an upcard 1..10): ``(values, law)``, values a sorted 1-D float array of net results
    per unit bet, ``law`` a 2-D array ``[dealer outcome, value]`` over
    ``GAME_DEALER_OUTCOMES`` (17, 18, 19, 20, 21, natural, 22, over 22), unconditioned,
    summing to 1.

    engine: a policy-mode ``GameEngine`` (``policy.policy_engines(...)[key]``, built on any
        shoe) whose frozen decisions the player follows, as ``round_laws`` copies them;
        None: the optimal play of ``shoe`` itself (post-split class CDZ-).

    The counted game's per-band law: ``law.sum(axis=0)`` is the law of the result,
    ``values`` its support (the analogue of ``distribution.column_values`` for a classic
    law's columns).  Its mean is the engine's EV of the same play on ``shoe`` (to ~1e-15 on
    whole shoes); a split into two hands is exact on a whole shoe, a split that may make
    more hands (or any on a fractional shoe) has its hands combined as independent given
    the dealer's outcome (exact on an infinite shoe).  A rule set without a game rule gets
    its law from the game engine too (``round_laws`` has the classic one)."""
    if engine is not None and not isinstance(engine, GameEngine):
        raise TypeError(f"engine must be a policy GameEngine (the games' policy_engines) or "
                        f"None, got {type(engine).__name__}; a classic rule set's laws come "
                        f"from distribution.round_laws")
    # (the game engine computes the classic game too: a rule set without a game rule gets
    # its law here as well)
    params = kernel_rules(rules, SPLIT_CLASSES["CDZ-"] if engine is None else POLICY_CLASS)
    local = GameEngine(shoe.kernel_weights(), key, with_shoe(params, shoe), shoe.is_infinite,
                       shoe.is_fractional)
    if engine is not None:
        engine.copy_policy_to(local)
    values, law, _ = engine_round_law(local)
    if local.policy_misses:
        raise RuntimeError(f"internal error: {local.policy_misses} decisions had no frozen "
                           f"action")
    return values, law


def game_round_laws(engines: dict, threads: int = 1, locks: dict | None = None,
                    moments: bool = False) -> tuple[dict, bool, dict, bool]:
    """({key: (values, law)}, whether a split was combined approximately, {key: E[S^2 ; t]
    (8 numbers)}, whether every one of those is exact) of every engine's round (solved or
    policy engines of the games), keys in parallel threads.

    moments: give every combined split its exact second moment where it can be
    (``engine_round_law_moments``); else the second moments are the laws' own.
    locks: {key: lock} when the engines are shared (a ``Solution``'s own engines): the law
    walk sets and clears the engine's hand, so it runs under the engine's lock, as every
    other call into a shared engine does."""
    order = list(engines)

    def one(key):
        if locks is None:
            return engine_round_law_moments(engines[key], moments)
        with locks[key]:
            return engine_round_law_moments(engines[key], moments)

    workers = max(1, min(len(order), threads))
    if workers > 1:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            results = list(pool.map(one, order))
    else:
        results = [one(k) for k in order]
    misses = sum(getattr(e, "policy_misses", 0) for e in engines.values())
    if misses:
        raise RuntimeError(f"internal error: {misses} decisions had no frozen action")
    return ({k: (v, law) for k, (v, law, *_) in zip(order, results)},
            any(r[2] for r in results),
            {k: r[3] for k, r in zip(order, results)},
            all(r[4] for r in results))


def classic_to_game_law(law: np.ndarray, columns: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A classic kernel law (7 dealer outcomes x lattice columns with values ``columns``)
    as a game law (values, 8 x values): its bust row is put at "over 22"."""
    keep = [k for k in range(law.shape[1]) if law[:, k].any()]
    order = sorted(keep, key=lambda k: columns[k])
    values = np.array([columns[k] for k in order], dtype=float)
    out = np.zeros((len(GAME_DEALER_OUTCOMES), len(values)))
    for c, k in enumerate(order):
        out[:5, c] += law[:5, k]
        out[GAME_NATURAL_T, c] += law[5, k]
        out[7, c] += law[6, k]
    # (two columns of one value, a natural paid 1:1 beside +1: merged)
    uniq, inverse = np.unique(values, return_inverse=True)
    merged = np.zeros((out.shape[0], len(uniq)))
    for c, u in enumerate(inverse):
        merged[:, u] += out[:, c]
    return uniq, merged
