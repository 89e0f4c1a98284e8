"""Casino rules: one frozen, validated dataclass and a few named presets."""
from __future__ import annotations

import dataclasses
import difflib
import math
import numbers
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from .shoe import _check_decks, _show

DOUBLE_CHOICES = ("any", "9-11", "10-11")
SURRENDER_CHOICES = ("none", "late", "early")
HOLE_CARD_CHOICES = ("peek", "enhc", "enhc-obo", "exposed")
NATURAL_TIE_CHOICES = ("lose", "push", "win")
MAX_PAYOUT = 1000.0  # far beyond any real game; keeps every EV finite


def _need_bool(name, value) -> bool:
    # numpy's bool (a cell of a DataFrame or an array of rule grids) is a bool too; 0 and 1
    # are not (a typo in a flag should not pass as a rule)
    numpy_bool = type(value).__module__ == "numpy" and type(value).__name__ in ("bool_", "bool")
    if not (isinstance(value, bool) or numpy_bool):
        raise TypeError(f"Rules.{name} must be True or False, got {_show(value)}")
    return bool(value)


def _need_choice(name: str, value: object, choices: tuple[str, ...]) -> str:
    """The choice in its canonical spelling (any case: "Late" is "late")."""
    key = value.strip().lower() if isinstance(value, str) else None
    if key is None or key not in choices:
        allowed = ", ".join(repr(c) for c in choices)
        raise ValueError(f"Rules.{name} must be one of {allowed}; got {_show(value)}")
    return key


@dataclass(frozen=True)
class Rules:
    """A blackjack rule set.

    decks: a whole number of decks 1..1_000_000, or ``math.inf`` for an infinite shoe.
    hit_soft_17: the dealer hits soft 17 (H17) instead of standing (S17).
    double: which two-card totals may double: "any", "9-11", "10-11".
    double_soft: soft hands may double.
    double_any_cards: doubling is allowed on hands of any number of cards.
    double_after_split: split hands may double (same total/soft rules).
    max_split_hands: 1 = no splitting, 2 = one split, up to 4 hands.
    resplit_aces: aces may be resplit (up to max_split_hands); accepted, and without
        effect, when max_split_hands is 1 or 2.
    hit_split_aces: split aces may be played on (otherwise one card each).
    surrender: "none", "late" (after the peek), "early" (before it).
    blackjack_payout: a player natural pays this (1.5 = 3:2, 1.2 = 6:5); any real in
        (0, 1000].
    hole_card: "peek" (US hole card: a dealer natural takes the original bet only),
        "enhc" (no hole card: it takes doubled and split bets too), "enhc-obo" (no hole
        card, original bet only), "exposed" (both dealer cards dealt face up).
    dealer_wins_ties: pushes lose (a player natural still beats a non-natural).
    natural_tie: what a player natural does against a dealer natural when the dealer wins
        ties: "lose" (default: like every other tie), "push", or "win" (paid as a natural,
        ``blackjack_payout``).  Without ``dealer_wins_ties`` tied naturals always push and
        this field has no effect.
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
    natural_tie: str = "lose"
    # parse_rules, attached below it (a class attribute, not a field)
    parse: ClassVar[Callable[..., Rules]]

    def __post_init__(self):
        d = self.decks
        if isinstance(d, numbers.Real) and not isinstance(d, bool) and d == math.inf:
            object.__setattr__(self, "decks", math.inf)
        else:
            object.__setattr__(self, "decks", _check_decks(d, "Rules.decks"))
        for name in ("hit_soft_17", "double_soft", "double_any_cards", "double_after_split",
                     "resplit_aces", "hit_split_aces", "dealer_wins_ties"):
            object.__setattr__(self, name, _need_bool(name, getattr(self, name)))
        for name, choices in (("double", DOUBLE_CHOICES), ("surrender", SURRENDER_CHOICES),
                              ("hole_card", HOLE_CARD_CHOICES),
                              ("natural_tie", NATURAL_TIE_CHOICES)):
            object.__setattr__(self, name, _need_choice(name, getattr(self, name), choices))
        m = self.max_split_hands
        if isinstance(m, bool) or not isinstance(m, numbers.Integral):
            raise TypeError(f"Rules.max_split_hands must be an int 1..4 (1 = no splitting), "
                            f"got {_show(m)}")
        if not 1 <= m <= 4:
            raise ValueError(f"Rules.max_split_hands must be an int 1..4 (1 = no splitting), "
                             f"got {_show(m)}")
        object.__setattr__(self, "max_split_hands", int(m))
        b = self.blackjack_payout
        if isinstance(b, bool) or not isinstance(b, numbers.Real):
            hint = " (for 6:5 give 1.2, for 3:2 give 1.5)" if isinstance(b, str) else ""
            raise TypeError(f"Rules.blackjack_payout must be a number{hint}, got {_show(b)}")
        if not (0 < b <= MAX_PAYOUT):  # also refuses NaN
            raise ValueError(f"Rules.blackjack_payout must be a positive number up to "
                             f"{MAX_PAYOUT:g} (1.5 = 3:2), got {_show(b)}")
        object.__setattr__(self, "blackjack_payout", float(b))
        if self.hit_split_aces and m == 1:
            raise ValueError("Rules.hit_split_aces=True needs splitting, but "
                             "Rules.max_split_hands is 1 (no splitting); allow 2..4 hands")

    @property
    def infinite(self) -> bool:
        """``decks`` is ``math.inf``: an infinite shoe."""
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
            parts.append("dealer wins ties" + {"lose": "", "push": " (tied naturals push)",
                                               "win": " (tied naturals win)"}[self.natural_tie])
        parts.append(payout_label(self.blackjack_payout))
        return " ".join(parts)

    @classmethod
    def preset(cls, name: str, **changes) -> "Rules":
        """A named rule set; ``Rules.presets()`` lists the names.  Keyword arguments change
        fields of it: ``Rules.preset("vegas-strip", decks=2)``."""
        if not isinstance(name, str):
            raise TypeError(f"preset name must be a string, got {_show(name)}; "
                            f"known: {', '.join(sorted(PRESETS))}")
        try:
            fields = PRESETS[name.strip().lower()]    # case-insensitive
        except KeyError:
            raise ValueError(f"unknown preset {_show(name)}; known: {', '.join(sorted(PRESETS))}") from None
        return cls(**{**fields, **changes})

    @staticmethod
    def presets() -> tuple[str, ...]:
        """The names ``Rules.preset`` knows."""
        return tuple(sorted(PRESETS))


def payout_label(b: float) -> str:
    """1.5 -> '3:2', 1.2 -> '6:5', 1.0 -> '1:1'; any other payout as 'x:1' with x in full
    (1e-13 -> '1e-13:1', never '0:1'), so that ``Rules.parse`` reads back the same float."""
    f = Fraction(b).limit_denominator(100)
    if f != 0 and float(f) == b:
        return f"{f.numerator}:{f.denominator}"
    return f"{b!r}:1"


PAYOUT_FORMS = "a ratio such as 3:2, 6:5 or 6/5, or a number such as 1.5"


def parse_payout(text: str, field: str = "blackjack_payout") -> float:
    """A blackjack payout as people write it: '3:2', '3/2' or '1.5' -> 1.5; '6:5', '6/5' ->
    1.2 (what ``payout_label`` writes reads back).  The one reader of the command line, the
    rule summaries of ``Rules.parse`` and the web form.  ``ValueError`` names ``field``,
    the text and what is allowed: a ratio or number above 0 and up to ``MAX_PAYOUT``."""
    if not isinstance(text, str):
        raise TypeError(f"{field} must be a string such as '3:2' or '6/5', got {_show(text)}")
    word = text.strip()
    parts = re.split(r"[:/]", word)
    try:
        if len(parts) > 2:
            raise ValueError
        value = float(parts[0]) / float(parts[1]) if len(parts) == 2 else float(word)
    except (ValueError, ZeroDivisionError):
        value = math.nan
    if not 0 < value <= MAX_PAYOUT:        # also refuses NaN
        raise ValueError(f"{field} must be {PAYOUT_FORMS}, above 0 and up to "
                         f"{MAX_PAYOUT:g}; got {word[:40]!r}")
    return value


PRESETS: dict[str, dict[str, Any]] = {   # name -> Rules fields
    # an easy exact game: infinite shoe, both dealer cards up, H17, LS, 4 hands
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
    # both dealer cards dealt face up; in return the dealer wins ties (but a player natural
    # beats a dealer natural) and a natural pays only 1:1.  The rest are our choice of the
    # game's common terms: 8 decks, H17, double on 9-11 only, DAS, split to 4 hands (no
    # resplitting aces), no surrender.
    "double-exposure": dict(decks=8, hit_soft_17=True, double="9-11",
                            double_after_split=True, max_split_hands=4, surrender="none",
                            hole_card="exposed", dealer_wins_ties=True, natural_tie="win",
                            blackjack_payout=1.0),
}


# ---- reading the rule summary back (Rules.parse) ----------------------------------------

# words of the summary ``Rules.describe`` prints, lower-case -> Rules fields; phrases of
# several words are matched first
_SUMMARY_WORDS: dict[str, dict[str, Any]] = {   # phrase -> Rules fields
    "infinite shoe": {"decks": math.inf}, "infinite": {"decks": math.inf},
    "h17": {"hit_soft_17": True}, "s17": {"hit_soft_17": False},
    "doa": {"double": "any"}, "d9": {"double": "9-11"}, "d10": {"double": "10-11"},
    "no soft doubles": {"double_soft": False}, "dan": {"double_any_cards": True},
    "das": {"double_after_split": True}, "no das": {"double_after_split": False},
    "ndas": {"double_after_split": False},
    "no split": {"max_split_hands": 1}, "spl1": {"max_split_hands": 2},
    "spl2": {"max_split_hands": 3}, "spl3": {"max_split_hands": 4},
    "rsa": {"resplit_aces": True}, "no rsa": {"resplit_aces": False},
    "hsa": {"hit_split_aces": True},
    "no surrender": {"surrender": "none"}, "ls": {"surrender": "late"},
    "es": {"surrender": "early"},
    "peek": {"hole_card": "peek"}, "enhc": {"hole_card": "enhc"},
    "enhc-obo": {"hole_card": "enhc-obo"}, "exposed": {"hole_card": "exposed"},
    "dealer wins ties": {"dealer_wins_ties": True},
    "(tied naturals push)": {"natural_tie": "push"}, "tied naturals push": {"natural_tie": "push"},
    "(tied naturals win)": {"natural_tie": "win"}, "tied naturals win": {"natural_tie": "win"},
    "(tied naturals lose)": {"natural_tie": "lose"}, "tied naturals lose": {"natural_tie": "lose"},
}


def parse_rules(text: str, base: "Rules | None" = None) -> "Rules":
    """Read a rule summary such as ``"6D H17 DAS LS 6:5"`` (what ``Rules.describe`` prints).

    Words are case-insensitive and may be separated by spaces or commas; fields not named
    keep their value in ``base`` (default ``Rules()``).  ``ND`` sets the decks, ``x:y`` or
    ``x/y`` the blackjack payout (read by ``parse_payout``).  ``Rules.parse(r.describe()) ==
    r`` for every rule set whose summary shows all its fields (see ``describe``).
    """
    if not isinstance(text, str):
        raise TypeError(f"rules summary must be a string such as '6D H17 DAS LS 3:2', "
                        f"got {_show(text)}")
    words = text.replace(",", " ").lower().split()
    fields: dict[str, Any] = {}
    seen: dict[str, str] = {}    # field -> the phrase that set it
    i = 0
    while i < len(words):
        for n in (3, 2, 1):
            phrase = " ".join(words[i:i + n])
            if len(words[i:i + n]) == n and phrase in _SUMMARY_WORDS:
                found = dict(_SUMMARY_WORDS[phrase])
                break
        else:
            n, word = 1, words[i]
            decks = re.fullmatch(r"(\d+)d", word)
            payout = re.fullmatch(r"[0-9.e+-]+[:/][0-9.e+-]+", word)    # 3:2, 6/5
            if decks:
                found = {"decks": int(decks.group(1))}
            elif payout:
                found = {"blackjack_payout": parse_payout(word, "rules summary: blackjack_payout")}
            else:
                close = difflib.get_close_matches(word, list(_SUMMARY_WORDS), n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                raise ValueError(
                    f"rules summary: unknown word {word[:40]!r}{hint} in {_show(text)}; known: ND "
                    f"(decks), x:y (payout), "
                    f"{', '.join(sorted(w for w in _SUMMARY_WORDS if not w.startswith('(')))}")
        for name, value in found.items():
            if name in seen and fields[name] != value:
                raise ValueError(f"rules summary: {seen[name]!r} and "
                                 f"{' '.join(words[i:i + n])!r} contradict each other")
            fields[name] = value
            seen[name] = " ".join(words[i:i + n])
        i += n
    return (base if base is not None else Rules()).replace(**fields)


Rules.parse = staticmethod(parse_rules)
