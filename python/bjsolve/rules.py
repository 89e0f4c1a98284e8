"""Casino rules: one frozen, validated dataclass and a few named presets."""
from __future__ import annotations

import dataclasses
import math
import numbers
from dataclasses import dataclass

DOUBLE_CHOICES = ("any", "9-11", "10-11")
SURRENDER_CHOICES = ("none", "late", "early")
HOLE_CARD_CHOICES = ("peek", "enhc", "enhc-obo", "exposed")


def _need_bool(name, value):
    if not isinstance(value, bool):
        raise TypeError(f"Rules.{name} must be True or False, got {value!r}")


def _need_choice(name, value, choices):
    if value not in choices:
        allowed = ", ".join(repr(c) for c in choices)
        raise ValueError(f"Rules.{name} must be one of {allowed}; got {value!r}")


@dataclass(frozen=True)
class Rules:
    """A blackjack rule set.

    decks: positive int, or ``math.inf`` for an infinite shoe.
    hit_soft_17: the dealer hits soft 17 (H17) instead of standing (S17).
    double: which two-card totals may double: "any", "9-11", "10-11".
    double_soft: soft hands may double.
    double_any_cards: doubling is allowed on hands of any number of cards.
    double_after_split: split hands may double (same total/soft rules).
    max_split_hands: 1 = no splitting, 2 = one split, up to 4 hands.
    resplit_aces: aces may be resplit (up to max_split_hands).
    hit_split_aces: split aces may be played on (otherwise one card each).
    surrender: "none", "late" (after the peek), "early" (before it).
    blackjack_payout: a player natural pays this (1.5 = 3:2, 1.2 = 6:5).
    hole_card: "peek" (US hole card: a dealer natural takes the original bet only),
        "enhc" (no hole card: it takes doubled and split bets too), "enhc-obo" (no hole
        card, original bet only), "exposed" (both dealer cards dealt face up).
    dealer_wins_ties: pushes lose (a player natural still beats a non-natural).
    """

    decks: float = 6
    hit_soft_17: bool = False
    double: str = "any"
    double_soft: bool = True
    double_any_cards: bool = False
    double_after_split: bool = True
    max_split_hands: int = 4
    resplit_aces: bool = False
    hit_split_aces: bool = False
    surrender: str = "none"
    blackjack_payout: float = 1.5
    hole_card: str = "peek"
    dealer_wins_ties: bool = False

    def __post_init__(self):
        d = self.decks
        if isinstance(d, bool) or not isinstance(d, numbers.Real):
            raise TypeError(f"Rules.decks must be a positive whole number or math.inf, got {d!r}")
        if not (d == math.inf or (d == int(d) and d >= 1)):
            raise ValueError(f"Rules.decks must be a positive whole number or math.inf, got {d!r}")
        if d != math.inf:
            object.__setattr__(self, "decks", int(d))
        for name in ("hit_soft_17", "double_soft", "double_any_cards", "double_after_split",
                     "resplit_aces", "hit_split_aces", "dealer_wins_ties"):
            _need_bool(name, getattr(self, name))
        _need_choice("double", self.double, DOUBLE_CHOICES)
        _need_choice("surrender", self.surrender, SURRENDER_CHOICES)
        _need_choice("hole_card", self.hole_card, HOLE_CARD_CHOICES)
        m = self.max_split_hands
        if isinstance(m, bool) or not isinstance(m, numbers.Integral) or not 1 <= m <= 4:
            raise ValueError(f"Rules.max_split_hands must be an int 1..4 (1 = no splitting), got {m!r}")
        b = self.blackjack_payout
        if isinstance(b, bool) or not isinstance(b, numbers.Real) or not math.isfinite(b) or b <= 0:
            raise ValueError(f"Rules.blackjack_payout must be a positive number (1.5 = 3:2), got {b!r}")
        object.__setattr__(self, "blackjack_payout", float(b))
        if self.hit_split_aces and m == 1:
            raise ValueError("Rules.hit_split_aces=True needs splitting: max_split_hands is 1")

    @property
    def infinite(self) -> bool:
        return self.decks == math.inf

    def replace(self, **changes) -> "Rules":
        """A copy with some fields changed (validated again)."""
        return dataclasses.replace(self, **changes)

    def describe(self) -> str:
        """Short rule shorthand, e.g. '6D S17 DOA DAS SPL3 no RSA, peek, 3:2'."""
        parts = ["infinite shoe" if self.infinite else f"{self.decks}D",
                 "H17" if self.hit_soft_17 else "S17",
                 {"any": "DOA", "9-11": "D9", "10-11": "D10"}[self.double]]
        if not self.double_soft and self.double == "any":
            parts.append("no soft doubles")
        if self.double_any_cards:
            parts.append("DAN")
        parts.append("DAS" if self.double_after_split else "no DAS")
        parts.append("no split" if self.max_split_hands == 1 else f"SPL{self.max_split_hands - 1}")
        if self.max_split_hands > 2:
            parts.append("RSA" if self.resplit_aces else "no RSA")
        if self.hit_split_aces:
            parts.append("HSA")
        parts.append({"none": "no surrender", "late": "LS", "early": "ES"}[self.surrender])
        parts.append(self.hole_card)
        if self.dealer_wins_ties:
            parts.append("dealer wins ties")
        parts.append(payout_label(self.blackjack_payout))
        return " ".join(parts)

    @classmethod
    def preset(cls, name: str) -> "Rules":
        """A named rule set; ``Rules.presets()`` lists the names."""
        try:
            fields = PRESETS[name]
        except KeyError:
            raise ValueError(f"unknown preset {name!r}; known: {', '.join(sorted(PRESETS))}") from None
        return cls(**fields)

    @staticmethod
    def presets() -> tuple[str, ...]:
        return tuple(sorted(PRESETS))


def payout_label(b: float) -> str:
    """1.5 -> '3:2', 1.2 -> '6:5', 1.0 -> '1:1'."""
    from fractions import Fraction
    f = Fraction(b).limit_denominator(100)
    if abs(float(f) - b) < 1e-12:
        return f"{f.numerator}:{f.denominator}"
    return f"{b:g}:1"


PRESETS = {
    # the assignment seed's game: infinite shoe, both dealer cards up, H17, LS, 4 hands
    "easy": dict(decks=math.inf, hit_soft_17=True, surrender="late", max_split_hands=4,
                 resplit_aces=False, double_after_split=True, hole_card="exposed"),
    "vegas-strip": dict(decks=6, hit_soft_17=False, double_after_split=True,
                        max_split_hands=4, surrender="late"),
    "vegas-downtown": dict(decks=2, hit_soft_17=True, double_after_split=True, max_split_hands=4),
    "atlantic-city": dict(decks=8, hit_soft_17=False, double_after_split=True,
                          max_split_hands=4, surrender="late"),
    "single-deck": dict(decks=1, hit_soft_17=True, double_after_split=False, max_split_hands=2),
    "european": dict(decks=6, hit_soft_17=False, double="9-11", double_after_split=True,
                     max_split_hands=2, hole_card="enhc"),
    "classic": dict(),
}
