"""The rule dict the compiled kernels take, and the checks of the solver's own arguments
(post-split class, threads)."""
from __future__ import annotations

import numbers
import os

from ..model.ranks import show as _show
from ..model.rules import Rules

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
        "natural_tie_value": natural_tie_value(rules),
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


def natural_tie_value(rules: Rules) -> float:
    """What a player natural wins against a dealer natural: a push (0) unless the dealer
    wins ties, then ``Rules.natural_tie`` says (lose -1, push 0, win the natural's payout)."""
    if not rules.dealer_wins_ties:
        return 0.0
    return {"push": 0.0, "lose": -1.0, "win": rules.blackjack_payout}[rules.natural_tie]
