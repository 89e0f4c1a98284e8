"""The rule dict the compiled kernels take, and the checks of the solver's own arguments
(post-split class, threads)."""
from __future__ import annotations

import numbers
import os

from ..model.ranks import show as _show
from ..model.rules import NO_BONUS, Rules, unsupported_rule

SPLIT_CLASSES = {"CDZ-": 0, "CDP1": 1, "CDP": 2}
POLICY_CLASS = 3


def check_split_class(split) -> str:
    """The post-split class in its canonical spelling ("cdp1" is "CDP1")."""
    key = split.strip().upper() if isinstance(split, str) else None
    if key not in SPLIT_CLASSES:
        raise ValueError(f"split must be one of {', '.join(SPLIT_CLASSES)} "
                         f"(post-split strategy class), got {_show(split)}")
    return key


def kernel_rules(rules: Rules, split_code: int) -> dict:
    """The kernel rule dict of ``rules``: the classic keys always, the games' keys (the
    contract of docs/games.md) only where they differ from the classic game, so that a
    classic rule set gives exactly the classic dict.  A rule no kernel computes yet raises
    NotImplementedError naming it."""
    unsupported = unsupported_rule(rules)
    if unsupported == "natural_loss":
        raise NotImplementedError(
            f"Rules.natural_loss={rules.natural_loss!r} with Rules.max_split_hands="
            f"{rules.max_split_hands} and Rules.free_splits={rules.free_splits!r} is not "
            f"computed yet: BB+1 with splits is computed without free splits "
            f"(docs/games.md)")
    if unsupported is not None:
        raise NotImplementedError(
            f"Rules.{unsupported}={getattr(rules, unsupported)!r} is stated but not computed "
            f"yet (docs/games.md); no solver gives its figures")
    return {**_classic_keys(rules, split_code), **game_keys(rules)}


def with_shoe(params: dict, shoe) -> dict:
    """``params`` (``kernel_rules``) with what an engine needs to know of the whole shoe
    ``shoe`` was dealt from (``Shoe.dealt_from``): its sevens, when a suited 7-7-7 pays
    differently from a mixed one.  The cards gone are known by rank only, so three sevens
    dealt from a depleted shoe share a suit with the whole shoe's chance
    (``seven_suit_chance`` in game_walk.h; docs/games.md, "Suits")."""
    whole = shoe.dealt_from
    if whole is shoe or not (params.get("super_bonus")
                             or len(set(params.get("bonus_777", (1.0,)))) > 1):
        return params
    return {**params, "full_sevens": float(whole.counts[6])}


def _bits(values) -> int:
    return sum(1 << v for v in values)


def game_keys(rules: Rules) -> dict:
    """The games' keys of the kernel rule dict that differ from the classic game."""
    keys: dict = {}
    if rules.dealer_22 == "push":
        keys["dealer_22_push"] = 1
    if rules.free_doubles:
        keys["free_double_totals"] = _bits(rules.free_doubles)
    if rules.free_splits:
        keys["free_split_ranks"] = _bits(rules.free_splits)
    if rules.player_21_wins:
        keys["player_21_wins"] = 1
    if rules.player_21_beats_natural:
        keys["player_21_beats_natural"] = 1
    for name in ("bonus_21", "bonus_678", "bonus_777"):
        if getattr(rules, name) != NO_BONUS:
            keys[name] = tuple(getattr(rules, name))
    if rules.bonus_after_split:
        keys["bonus_after_split"] = 1
    if rules.super_bonus:
        keys["super_bonus"] = rules.super_bonus
    if rules.redoubles:
        keys["redoubles"] = rules.redoubles
    if rules.double_rescue:
        keys["double_rescue"] = 1
    if rules.double_split_aces:
        keys["double_split_aces"] = 1
    if rules.rescue_after_redouble:
        keys["rescue_after_redouble"] = 1
    if rules.natural_loss != "hole-card":
        keys["natural_loss"] = {"obbo": 1, "bb+1": 2}[rules.natural_loss]
    if rules.diamond_blackjack_payout is not None:
        keys["diamond_blackjack_payout"] = rules.diamond_blackjack_payout
    if rules.charlie:
        keys["charlie"] = rules.charlie
    if rules.surrender_any_time:
        keys["surrender_any_time"] = 1
    if rules.bonus_21_at_once:
        keys["bonus_21_at_once"] = 1
    return keys


def _classic_keys(rules: Rules, split_code: int) -> dict:
    return {
        "hit_soft_17": rules.hit_soft_17,
        "double_min_total": {"any": 0, "9-11": 9, "10-11": 10}[rules.double],
        "double_soft": rules.double_soft,
        "double_any_cards": rules.double_any_cards,
        "double_after_split": rules.double_after_split,
        "max_split_hands": rules.max_split_hands,
        "resplit_aces": rules.resplit_aces,
        "hit_split_aces": rules.hit_split_aces,
        "surrender": {"none": 0, "late": 1, "early": 2}[rules.surrender],
        "blackjack_payout": rules.blackjack_payout,
        "split_class": split_code,
        "natural_takes_all": rules.hole_card == "enhc",
        "dealer_wins_ties": rules.dealer_wins_ties,
        "natural_tie_value": _natural_tie_by_rank(rules),
    }


def check_threads(threads) -> int:
    """The number of threads to use: ``None`` means every core."""
    if threads is None:
        return os.cpu_count() or 1
    if isinstance(threads, bool) or not isinstance(threads, numbers.Integral):
        raise TypeError(f"threads must be a whole number >= 1 or None (every core), "
                        f"got {threads!r:.60}")
    if threads < 1:
        raise ValueError(f"threads must be >= 1 or None (every core), got {threads!r}")
    return int(threads)


def natural_payout(rules: Rules) -> float:
    """What a player natural is paid, averaged over its suits: ``blackjack_payout``, or
    with ``diamond_blackjack_payout`` (Super Fun 21) that payout for the one natural in 16
    whose two cards are diamonds (docs/games.md, "Suits")."""
    diamond = rules.diamond_blackjack_payout
    if diamond is None:
        return rules.blackjack_payout
    return (15.0 * rules.blackjack_payout + diamond) / 16.0


def natural_tie_value(rules: Rules) -> float:
    """What a player natural wins against a dealer natural, averaged over its suits: the
    natural's payout (``natural_payout``) when the natural always wins
    (``Rules.natural_always_wins``) or the dealer wins ties with ``natural_tie="win"``;
    else a push (0), or -1 when the dealer wins ties and ``natural_tie`` is "lose"."""
    tie = _natural_tie_by_rank(rules)
    return natural_payout(rules) if tie == rules.blackjack_payout else tie


def _natural_tie_by_rank(rules: Rules) -> float:
    """``natural_tie_value`` of a natural that is not in diamonds: the kernel rule dict's
    ``natural_tie_value`` (the kernels average a diamond natural in themselves)."""
    if rules.natural_always_wins:
        return rules.blackjack_payout
    if not rules.dealer_wins_ties:
        return 0.0
    return {"push": 0.0, "lose": -1.0, "win": rules.blackjack_payout}[rules.natural_tie]
