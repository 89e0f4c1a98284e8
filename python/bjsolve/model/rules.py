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

from .ranks import RANK_LABELS, rank
from .shoe import _check_decks, _show

DOUBLE_CHOICES = ("any", "9-11", "10-11")
SURRENDER_CHOICES = ("none", "late", "early")
HOLE_CARD_CHOICES = ("peek", "enhc", "enhc-obo", "exposed")
NATURAL_TIE_CHOICES = ("lose", "push", "win")
DEALER_22_CHOICES = ("bust", "push")
NATURAL_LOSS_CHOICES = ("hole-card", "obbo", "bb+1")
MAX_PAYOUT = 1000.0  # far beyond any real game; keeps every EV finite
MAX_REDOUBLES = 3
CHARLIE_CHOICES = (0, 5, 6, 7)
NO_BONUS = (1.0, 1.0, 1.0)
# the games' rules (docs/games.md) that Rules states and validates but no solver computes
# yet: solving them raises NotImplementedError naming the rule (never a wrong number)
NOT_YET_SOLVED = ("switch",)


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


def _need_whole(name: str, value: object, allowed: tuple, text: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"Rules.{name} must be {text}, got {_show(value)}")
    if int(value) not in allowed:
        raise ValueError(f"Rules.{name} must be {text}, got {_show(value)}")
    return int(value)


def _need_real(name: str, value: object, low: float, text: str) -> float:
    """A real in [low, MAX_PAYOUT] (NaN refused)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"Rules.{name} must be {text}, got {_show(value)}")
    if not (low <= float(value) <= MAX_PAYOUT):  # (NaN is refused too)
        raise ValueError(f"Rules.{name} must be {text}, got {_show(value)}")
    return float(value)


def _need_set(name: str, value: object, read: Callable[[object], int], text: str) -> tuple:
    """A set of totals or ranks as a sorted tuple without repeats."""
    if isinstance(value, (str, bytes, dict)) or not hasattr(value, "__iter__"):
        raise TypeError(f"Rules.{name} must be a tuple of {text} (() = none), got {_show(value)}")
    return tuple(sorted({read(item) for item in value}))


def _hard_total(value: object) -> int:
    return _need_whole("free_doubles", value, tuple(range(4, 21)),
                       "hard totals 4..20, e.g. (9, 10, 11)")


def _pair_rank(value: object) -> int:
    try:
        return rank(value, field="Rules.free_splits")
    except (TypeError, ValueError) as error:
        kind = type(error)
        raise kind(f"{error}; Rules.free_splits holds pair ranks 1..10 (1 = aces, 10 = tens), "
                   "e.g. (1, 2, 3, 4, 5, 6, 7, 8, 9)") from None


def _need_payouts(name: str, value: object) -> tuple:
    text = (f"three payouts in [1, {MAX_PAYOUT:g}] (net units per unit bet), e.g. "
            "(1.5, 2.0, 3.0); (1.0, 1.0, 1.0) = no bonus")
    if isinstance(value, (str, bytes, dict)) or not hasattr(value, "__iter__"):
        raise TypeError(f"Rules.{name} must be {text}, got {_show(value)}")
    items = tuple(value)
    if len(items) != 3:
        raise ValueError(f"Rules.{name} must be {text}, got {_show(value)}")
    return tuple(_need_real(name, x, 1.0, text) for x in items)


def _check_game_rules(rules: "Rules") -> None:
    """Validate (and normalise in place) the games' fields of a new ``Rules``."""
    def put(name, value):
        object.__setattr__(rules, name, value)

    for name in ("spanish_deck", "player_21_wins", "player_21_beats_natural",
                 "natural_always_wins", "bonus_after_split",
                 "double_rescue", "double_split_aces", "switch", "switch_blackjack",
                 "rescue_after_redouble", "surrender_any_time", "bonus_21_at_once"):
        put(name, _need_bool(name, getattr(rules, name)))
    put("dealer_22", _need_choice("dealer_22", rules.dealer_22, DEALER_22_CHOICES))
    put("natural_loss", _need_choice("natural_loss", rules.natural_loss, NATURAL_LOSS_CHOICES))
    put("free_doubles", _need_set("free_doubles", rules.free_doubles, _hard_total,
                                  "hard totals 4..20, e.g. (9, 10, 11)"))
    put("free_splits", _need_set("free_splits", rules.free_splits, _pair_rank,
                                 "pair ranks 1..10, e.g. (1, 2, 3, 4, 5, 6, 7, 8, 9)"))
    for name in ("bonus_21", "bonus_678", "bonus_777"):
        put(name, _need_payouts(name, getattr(rules, name)))
    put("super_bonus", _need_real("super_bonus", rules.super_bonus, 0.0,
                                  f"units per unit bet in [0, {MAX_PAYOUT:g}] (0 = none)"))
    put("redoubles", _need_whole("redoubles", rules.redoubles, tuple(range(MAX_REDOUBLES + 1)),
                                 f"a whole number 0..{MAX_REDOUBLES}"))
    put("charlie", _need_whole("charlie", rules.charlie, CHARLIE_CHOICES,
                               "0 (none), 5, 6 or 7 (cards of a hand that wins at once)"))
    diamond = rules.diamond_blackjack_payout
    if diamond is not None:
        diamond = _need_real("diamond_blackjack_payout", diamond, 0.0,
                             f"None or a payout in (0, {MAX_PAYOUT:g}] (2.0 = 2:1)")
        if diamond == 0:
            raise ValueError("Rules.diamond_blackjack_payout must be None or a payout in "
                             f"(0, {MAX_PAYOUT:g}] (2.0 = 2:1), got 0.0")
        put("diamond_blackjack_payout", diamond)
    # combinations no game deals (and the contract of the kernels refuses)
    if rules.redoubles and (rules.free_doubles or rules.free_splits):
        free = "free_doubles" if rules.free_doubles else "free_splits"
        raise ValueError(f"Rules.redoubles={rules.redoubles} and Rules.{free}="
                         f"{getattr(rules, free)!r} do not go together (only paid doubles "
                         "redouble); drop one of them")
    allowed_by_double = {"any": range(4, 21), "9-11": (9, 10, 11), "10-11": (10, 11)}[rules.double]
    outside = [t for t in rules.free_doubles if t not in allowed_by_double]
    if outside:
        # a free double is a double: the double rule still decides which hands may double
        raise ValueError(f"Rules.free_doubles={rules.free_doubles!r} holds {outside}, which "
                         f"Rules.double={rules.double!r} does not let double; free doubles "
                         "must be totals the double rule allows")
    if rules.rescue_after_redouble and not (rules.double_rescue and rules.redoubles):
        raise ValueError(f"Rules.rescue_after_redouble=True needs Rules.double_rescue=True and "
                         f"Rules.redoubles >= 1 (got double_rescue={rules.double_rescue}, "
                         f"redoubles={rules.redoubles}): it says whether a redoubled hand may "
                         "still be rescued")
    if rules.double_split_aces and rules.max_split_hands == 1:
        raise ValueError("Rules.double_split_aces=True needs splitting, but "
                         "Rules.max_split_hands is 1 (no splitting); allow 2..4 hands")
    if rules.free_splits and rules.max_split_hands == 1:
        raise ValueError(f"Rules.free_splits={rules.free_splits!r} needs splitting, but "
                         "Rules.max_split_hands is 1 (no splitting); allow 2..4 hands")
    if rules.natural_always_wins and rules.dealer_wins_ties and rules.natural_tie != "win":
        raise ValueError(f"Rules.natural_always_wins=True contradicts Rules.natural_tie="
                         f"{rules.natural_tie!r} (the dealer wins ties); give natural_tie='win'")
    if rules.player_21_beats_natural and not (rules.player_21_wins
                                              and rules.hole_card == "enhc"):
        raise ValueError("Rules.player_21_beats_natural=True (a player 21 paid before a "
                         "no-hole-card dealer's natural) needs player_21_wins=True and "
                         f"hole_card='enhc', got player_21_wins={rules.player_21_wins}, "
                         f"hole_card={rules.hole_card!r}")
    if rules.surrender_any_time and rules.surrender != "late":
        raise ValueError("Rules.surrender_any_time=True (late surrender after hitting and on "
                         "split hands too) extends late surrender: it needs surrender='late', "
                         f"got {rules.surrender!r}")
    if rules.surrender_any_time and rules.free_splits:
        raise ValueError(f"Rules.surrender_any_time=True and Rules.free_splits="
                         f"{rules.free_splits!r} do not go together (a free split hand has no "
                         "stake of the player's to surrender half of); drop one of them")
    if rules.switch_blackjack and not rules.switch:
        raise ValueError("Rules.switch_blackjack=True (a two-card 21 made by switching is a "
                         "blackjack) needs Rules.switch=True (Blackjack Switch)")
    if rules.natural_loss != "hole-card" and rules.hole_card != "enhc":
        raise ValueError(f"Rules.natural_loss={rules.natural_loss!r} is a no-hole-card rule: "
                         f"it needs hole_card='enhc', got {rules.hole_card!r}")


def unsupported_rule(rules: "Rules") -> str | None:
    """The first rule of ``rules`` that no solver computes yet (NOT_YET_SOLVED), or None.
    BB+1 with splits is computed without free splits: its one unit is charged to a split
    round's standing hands together (docs/games.md)."""
    for name in NOT_YET_SOLVED:
        if getattr(rules, name) != GAME_DEFAULTS[name]:
            return name
    if rules.natural_loss == "bb+1" and rules.max_split_hands > 1 and rules.free_splits:
        return "natural_loss"
    return None


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

    The games' rules (docs/games.md says each exactly; the defaults are the classic game):

    spanish_deck: 48-card Spanish decks (the four tens of each deck out, J Q K kept);
        the default shoe of these rules (``Rules.shoe()``) follows it.
    dealer_22: "bust" or "push" (a dealer 22 pushes every standing player hand; a player
        natural has been paid already).
    free_doubles: the two-card HARD totals that double free (the house puts up the extra
        stake: it wins but never loses), e.g. (9, 10, 11); totals 4..20 that ``double``
        allows (a free double is a double).
    free_splits: the pair ranks that split free (the new hand's stake is the house's),
        e.g. (1, ..., 9): ranks 1..10 or card labels ("A", "T").
    player_21_wins: a player 21 (not a natural) beats every dealer total.
    player_21_beats_natural: with player_21_wins and no hole card (hole_card="enhc"), the
        21 is paid at once, so a dealer natural turned later does not take it (Pontoon).
    natural_always_wins: a player natural beats a dealer natural too (paid as a natural).
    bonus_21: what a winning 21 of 5, 6 and 7+ cards pays per unit (1.0 = even money).
    bonus_678, bonus_777: what a winning 6-7-8 / 7-7-7 pays: mixed suits, suited (not
        spades), spades.  Bonuses are never paid on a doubled hand.
    bonus_after_split: the bonuses are paid on split hands too.
    super_bonus: units per unit bet for a suited 7-7-7 against a dealer 7 (0 = none).
    redoubles: how many times a doubled hand may double again (0..3).
    double_rescue: a doubled hand may be surrendered for its original bet.
    rescue_after_redouble: the rescue stays offered after a redouble (still for the
        original bet only).  False (the default, and the Spanish 21 preset's reading, which
        the published house edges fit): once the hand has redoubled it can no longer be
        rescued.  Only meaningful with double_rescue and redoubles; True without both is
        a ValueError.
    double_split_aces: split aces may double on their two cards.
    diamond_blackjack_payout: Super Fun 21's natural in diamonds pays this instead of
        ``blackjack_payout`` (None: no such rule; one natural in 16 is in diamonds).
    charlie: 0 (none), 5, 6 or 7: a hand (not doubled) that reaches this many cards without
        busting wins at once, a 21 of them paid its ``bonus_21`` (Super Fun 21: 6).
    surrender_any_time: with surrender="late", a hand may also be surrendered after hitting,
        and a split hand at any decision (its first two cards too), for half its stake
        (Super Fun 21).  After a double the rescue (``double_rescue``) is the surrender.
    bonus_21_at_once: a 21 of five or more cards (not doubled) stops and wins at once,
        whatever the dealer then makes (a dealer 21 included), paid its ``bonus_21``
        (Super Fun 21: 2:1).
    switch: Blackjack Switch: two hands whose second cards the player may swap; computed by
        its own analysis, ``bjsolve.exact.switch`` (``solve`` dispatches to it;
        docs/games.md); the kernels and the other tools refuse it by name.
    switch_blackjack: with ``switch``, an ace-ten made by switching is a blackjack (paid
        ``blackjack_payout``, beats a dealer 21 and 22), as at Casino Royale and Playtech;
        False (the usual Las Vegas rule): it is a 21 like any other.
    natural_loss: what a dealer natural takes in the no-hole-card game (hole_card="enhc"):
        "hole-card" (every bet, the classic ENHC), "obbo" (the busted bets, and of every
        other hand its bet before doubling) or "bb+1" (the busted bets and one unit more;
        computed with paid splits to four hands, not free splits): docs/games.md.
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
    # ---- the games' rules (docs/games.md); every default is the classic game ----
    spanish_deck: bool = False
    dealer_22: str = "bust"
    free_doubles: tuple = ()
    free_splits: tuple = ()
    player_21_wins: bool = False
    player_21_beats_natural: bool = False
    natural_always_wins: bool = False
    bonus_21: tuple = NO_BONUS
    bonus_678: tuple = NO_BONUS
    bonus_777: tuple = NO_BONUS
    bonus_after_split: bool = False
    super_bonus: float = 0.0
    redoubles: int = 0
    double_rescue: bool = False
    double_split_aces: bool = False
    rescue_after_redouble: bool = False
    diamond_blackjack_payout: float | None = None
    charlie: int = 0
    surrender_any_time: bool = False
    bonus_21_at_once: bool = False
    switch: bool = False
    switch_blackjack: bool = False
    natural_loss: str = "hole-card"
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
        _check_game_rules(self)

    @property
    def is_classic(self) -> bool:
        """No rule of the games (docs/games.md) differs from the classic game."""
        return all(getattr(self, name) == default for name, default in GAME_DEFAULTS.items())

    def shoe(self):
        """The full shoe these rules deal from: ``decks`` decks, Spanish if ``spanish_deck``."""
        from .shoe import Shoe
        return Shoe.decks(self.decks, spanish=self.spanish_deck)

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
        parts += game_codes(self)
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


# the games' fields and their classic values (Rules.is_classic)
GAME_DEFAULTS: dict[str, Any] = {
    "spanish_deck": False, "dealer_22": "bust", "free_doubles": (), "free_splits": (),
    "player_21_wins": False, "player_21_beats_natural": False,
    "natural_always_wins": False, "bonus_21": NO_BONUS,
    "bonus_678": NO_BONUS, "bonus_777": NO_BONUS, "bonus_after_split": False,
    "super_bonus": 0.0, "redoubles": 0, "double_rescue": False, "double_split_aces": False,
    "rescue_after_redouble": False,
    "diamond_blackjack_payout": None, "charlie": 0, "surrender_any_time": False,
    "bonus_21_at_once": False, "switch": False,
    "switch_blackjack": False, "natural_loss": "hole-card",
}

# ---- the games' codes in the rule summary ------------------------------------------------

def join_runs(values, label: Callable[[int], str], sep: str = "+") -> str:
    """(1, 2, 3, 5) -> 'A-3+5': the runs of consecutive values in ``values`` (sorted), each
    its ends spelt by ``label``, joined by ``sep`` (the rule codes; the tables' notes join
    them with ', ')."""
    out, i = [], 0
    while i < len(values):
        j = i
        while j + 1 < len(values) and values[j + 1] == values[j] + 1:
            j += 1
        out.append(label(values[i]) if i == j else f"{label(values[i])}-{label(values[j])}")
        i = j + 1
    return sep.join(out)


def _read_runs(text: str, read: Callable[[str], int], word: str) -> tuple:
    """'A-3+5' -> (1, 2, 3, 5)."""
    values: set[int] = set()
    for part in text.split("+"):
        ends = part.split("-")
        if len(ends) not in (1, 2) or not all(ends):
            raise ValueError(f"rules summary: {word!r}: {part!r} is not a value or a run a-b")
        low, high = read(ends[0]), read(ends[-1])
        if high < low:
            raise ValueError(f"rules summary: {word!r}: the run {part!r} goes down")
        values.update(range(low, high + 1))
    return tuple(sorted(values))


def _payouts_label(payouts: tuple) -> str:
    return "/".join(payout_label(x) for x in payouts)


# the games' yes/no rules and their summary codes (written by game_codes, read back by
# Rules.parse through _GAME_WORDS)
GAME_FLAG_CODES = {
    "spanish_deck": "spanish", "player_21_wins": "P21W", "player_21_beats_natural": "P21BJ",
    "natural_always_wins": "BJW", "bonus_after_split": "BAS", "double_rescue": "RSC",
    "rescue_after_redouble": "RSCRD", "double_split_aces": "DSA", "switch": "switch",
    "switch_blackjack": "SWBJ", "surrender_any_time": "LSA", "bonus_21_at_once": "B21NOW",
}


def game_codes(rules: "Rules") -> list[str]:
    """The summary words of the games' rules that differ from the classic game (none for
    a classic rule set, so that its summary is as before)."""
    r, codes = rules, []

    def flag(name):   # a yes/no rule: its code when it is set
        if getattr(r, name):
            codes.append(GAME_FLAG_CODES[name])

    flag("spanish_deck")
    if r.dealer_22 == "push":
        codes.append("P22")
    if r.free_doubles:
        codes.append("FD" + join_runs(r.free_doubles, str))
    if r.free_splits:
        codes.append("FS" + join_runs(r.free_splits, lambda k: RANK_LABELS[k - 1]))
    flag("player_21_wins")
    flag("player_21_beats_natural")
    flag("natural_always_wins")
    for name, code in (("bonus_21", "B21"), ("bonus_678", "B678"), ("bonus_777", "B777")):
        if getattr(r, name) != NO_BONUS:
            codes.append(f"{code}={_payouts_label(getattr(r, name))}")
    flag("bonus_after_split")
    if r.super_bonus:
        codes.append(f"SB={r.super_bonus!r}")
    if r.redoubles:
        codes.append(f"RDx{r.redoubles}")
    flag("double_rescue")
    flag("rescue_after_redouble")
    flag("double_split_aces")
    if r.diamond_blackjack_payout is not None:
        codes.append(f"BJD={payout_label(r.diamond_blackjack_payout)}")
    if r.charlie:
        codes.append(f"CH{r.charlie}")
    flag("surrender_any_time")
    flag("bonus_21_at_once")
    flag("switch")
    flag("switch_blackjack")
    if r.natural_loss != "hole-card":
        codes.append(r.natural_loss.upper())
    return codes


def _read_payout(text: str, word: str) -> float:
    found = re.fullmatch(r"([0-9.e+-]+):([0-9.e+-]+)", text)
    try:
        if found is None:
            return float(text)
        return float(found.group(1)) / float(found.group(2))
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"rules summary: {word!r}: {text[:40]!r} is not a payout such as "
                         "3:2") from None


def _read_game_code(word: str) -> dict[str, Any] | None:
    """The fields a games' code of the summary sets (``word`` lower-case), or None."""
    def total(text: str) -> int:
        if not text.isdigit():
            raise ValueError(f"rules summary: {word!r}: {text!r} is not a total")
        return int(text)

    def pair(text: str) -> int:
        return rank(text, field=f"rules summary {word!r}")

    found = re.fullmatch(r"(b21|b678|b777)=(.+)", word)
    if found:
        name = {"b21": "bonus_21", "b678": "bonus_678", "b777": "bonus_777"}[found.group(1)]
        parts = found.group(2).split("/")
        if len(parts) != 3:
            raise ValueError(f"rules summary: {word!r}: give three payouts a/b/c, "
                             "e.g. B21=3:2/2:1/3:1")
        return {name: tuple(_read_payout(x, word) for x in parts)}
    if word.startswith("fd") and len(word) > 2 and word[2].isdigit():
        return {"free_doubles": _read_runs(word[2:], total, word)}
    if word.startswith("fs") and len(word) > 2:
        return {"free_splits": _read_runs(word[2:], pair, word)}
    if word.startswith("sb="):
        return {"super_bonus": _read_payout(word[3:], word)}
    if word.startswith("bjd="):
        return {"diamond_blackjack_payout": _read_payout(word[4:], word)}
    found = re.fullmatch(r"rdx(\d)", word)
    if found:
        return {"redoubles": int(found.group(1))}
    found = re.fullmatch(r"ch(\d)", word)
    if found:
        return {"charlie": int(found.group(1))}
    return None


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
    # the games (docs/games.md says where each is dealt and why these terms)
    "free-bet": dict(decks=6, hit_soft_17=True, double_after_split=True, max_split_hands=4,
                     resplit_aces=True, surrender="none", dealer_22="push", free_doubles=(9, 10, 11),
                     free_splits=tuple(range(1, 10))),
    "spanish-21": dict(decks=6, spanish_deck=True, hit_soft_17=True, double_any_cards=True,
                       double_after_split=True, max_split_hands=4, resplit_aces=True,
                       hit_split_aces=True, double_split_aces=True, surrender="late",
                       double_rescue=True, redoubles=3, player_21_wins=True,
                       natural_always_wins=True, bonus_21=(1.5, 2.0, 3.0),
                       bonus_678=(1.5, 2.0, 3.0), bonus_777=(1.5, 2.0, 3.0),
                       super_bonus=200.0),
    "super-fun-21": dict(decks=1, hit_soft_17=True, blackjack_payout=1.0,
                         diamond_blackjack_payout=2.0, natural_always_wins=True,
                         double_any_cards=True, double_after_split=True, max_split_hands=4,
                         resplit_aces=True, hit_split_aces=True, double_split_aces=True,
                         surrender="late", double_rescue=True, charlie=6,
                         bonus_21=(2.0, 2.0, 2.0), bonus_after_split=True,
                         surrender_any_time=True, bonus_21_at_once=True),
    "blackjack-switch": dict(decks=6, hit_soft_17=True, double_after_split=True,
                             max_split_hands=4, surrender="none", blackjack_payout=1.0,
                             dealer_22="push", switch=True),
    # Australian Pontoon (docs/games.md, "Presets"): a 21 is paid at once, before the
    # dealer's second card; OBBO; split to three hands, aces once
    "pontoon": dict(decks=8, spanish_deck=True, hit_soft_17=True, double="9-11",
                    double_after_split=True, max_split_hands=3, surrender="late",
                    hole_card="enhc", natural_loss="obbo", player_21_wins=True,
                    player_21_beats_natural=True, natural_always_wins=True,
                    double_rescue=True, bonus_21=(1.5, 2.0, 3.0), bonus_678=(1.5, 2.0, 3.0),
                    bonus_777=(1.5, 2.0, 3.0), super_bonus=200.0),
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
# the games' words (game_codes; codes with a value, such as FD9-11 or B21=3:2/2:1/3:1, are
# read by _read_game_code); an unknown word's message lists the classic words only (one
# line), its close-match hint covers these too
_GAME_WORDS: dict[str, dict[str, Any]] = {
    **{code.lower(): {name: True} for name, code in GAME_FLAG_CODES.items()},
    "p22": {"dealer_22": "push"},
    "obbo": {"natural_loss": "obbo"}, "bb+1": {"natural_loss": "bb+1"},
}
_CLASSIC_WORDS = tuple(_SUMMARY_WORDS)
_SUMMARY_WORDS.update(_GAME_WORDS)


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
            game = None if decks or payout else _read_game_code(word)
            if game is not None:
                found = game
            elif decks:
                found = {"decks": int(decks.group(1))}
            elif payout:
                found = {"blackjack_payout": parse_payout(word, "rules summary: blackjack_payout")}
            else:
                close = difflib.get_close_matches(word, list(_SUMMARY_WORDS), n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                raise ValueError(
                    f"rules summary: unknown word {word[:40]!r}{hint} in {_show(text)}; known: ND "
                    f"(decks), x:y (payout), "
                    f"{', '.join(sorted(w for w in _CLASSIC_WORDS if not w.startswith('(')))}")
        for name, value in found.items():
            if name in seen and fields[name] != value:
                raise ValueError(f"rules summary: {seen[name]!r} and "
                                 f"{' '.join(words[i:i + n])!r} contradict each other")
            fields[name] = value
            seen[name] = " ".join(words[i:i + n])
        i += n
    return (base if base is not None else Rules()).replace(**fields)


Rules.parse = staticmethod(parse_rules)
