"""Pay tables as data: {outcome: pay}, pays "to one" (a win of 9 returns the stake and 9).

An outcome a table leaves out loses the stake.  A table is a plain mapping, so a new one
needs no code: ``sidebets.edge("21+3", paytable={"flush": 5, "straight": 10, ...})``, a
JSON object in a file for the command line (``--paytable-file``), or ``register_paytable``
to give it a name.  ``PRESETS`` holds the common tables, each with where it is found.
"""
from __future__ import annotations

import math
import numbers
from fractions import Fraction
from types import MappingProxyType

from ..model import show

__all__ = ["DEFAULT_PAYTABLE", "PRESETS", "PayTable", "paytable", "register_paytable"]


class PayTable:
    """A named pay table of one bet: ``pays`` {outcome: pay to one}; ``source``: where the
    table is used or published (words)."""

    __slots__ = ("bet", "name", "pays", "source")

    def __init__(self, bet: str, name: str, pays, source: str = "user table"):
        self.bet, self.name, self.source = bet, name, source
        self.pays = MappingProxyType(dict(pays))

    def pay(self, outcome: str) -> float:
        """What ``outcome`` pays to one (-1: the stake is lost)."""
        return self.pays.get(outcome, -1)

    def __reduce__(self):
        # (the read-only view of the pays does not pickle: a counted game holding a side
        # bet's table is pickled whole)
        return (PayTable, (self.bet, self.name, dict(self.pays), self.source))

    def __repr__(self):
        body = ", ".join(f"{k!r}: {v:g}" for k, v in self.pays.items())
        return f"PayTable({self.bet!r}, {self.name!r}, {{{body}}})"


def _match_dealer(unsuited, suited):
    return {"two suited matches": 2 * suited, "suited and unsuited match": suited + unsuited,
            "suited match": suited, "two unsuited matches": 2 * unsuited,
            "unsuited match": unsuited}


def _bust_bonus(by_up: dict, eights: tuple) -> dict:
    pays = {"suited 8-8-8": eights[1], "8-8-8": eights[0]}
    for up, (plain, suited) in by_up.items():
        pays[f"{up} up: suited bust"] = suited
        pays[f"{up} up: bust"] = plain
    return pays


_WOO = "Wizard of Odds"
# bet -> {preset name: (pays, source)}; the first preset is the bet's default
_PRESET_DATA: dict = {
    "21+3": {
        "classic": ({"suited trips": 9, "straight flush": 9, "trips": 9, "straight": 9,
                     "flush": 9}, "the original 21+3: every winning hand pays 9 to 1"),
        "five-tier": ({"suited trips": 100, "straight flush": 40, "trips": 30, "straight": 10,
                       "flush": 5}, "the five-tier table of live-dealer studios "
                      "(Evolution, 8 decks)"),
        "five-tier-25": ({"suited trips": 100, "straight flush": 40, "trips": 25,
                          "straight": 10, "flush": 5}, f"{_WOO}'s 21+3 version 6 (8 decks)"),
    },
    "perfect-pairs": {
        "25-12-6": ({"perfect pair": 25, "coloured pair": 12, "mixed pair": 6},
                    f"{_WOO} Perfect Pairs table A (Evolution live dealer)"),
        "30-10-5": ({"perfect pair": 30, "coloured pair": 10, "mixed pair": 5},
                    f"{_WOO} Perfect Pairs table B"),
        "25-12-5": ({"perfect pair": 25, "coloured pair": 12, "mixed pair": 5},
                    f"{_WOO} Perfect Pairs table C"),
        "25-15-5": ({"perfect pair": 25, "coloured pair": 15, "mixed pair": 5},
                    f"{_WOO} Perfect Pairs table D"),
    },
    "lucky-ladies": {
        "1000-125": ({"queen of hearts pair with dealer blackjack": 1000,
                      "queen of hearts pair": 125, "matched 20": 19, "suited 20": 9,
                      "any 20": 4}, f"{_WOO} Lucky Ladies table A (the common table)"),
        "1000-200": ({"queen of hearts pair with dealer blackjack": 1000,
                      "queen of hearts pair": 200, "matched 20": 25, "suited 20": 10,
                      "any 20": 4}, f"{_WOO} Lucky Ladies table B"),
    },
    "lucky-lucky": {
        "pt1": ({"suited 7-7-7": 200, "suited 6-7-8": 100, "7-7-7": 50, "6-7-8": 30,
                 "suited 21": 15, "21": 3, "20": 2, "19": 2},
                f"{_WOO} Lucky Lucky pay table 1 (the original)"),
        "pt3": ({"suited 7-7-7": 200, "suited 6-7-8": 100, "7-7-7": 50, "6-7-8": 30,
                 "suited 21": 10, "21": 3, "20": 2, "19": 2}, f"{_WOO} Lucky Lucky pay table 3"),
    },
    "royal-match": {
        "25-2.5": ({"royal match": 25, "easy match": 2.5}, f"{_WOO} Royal Match version 1"),
        "10-3": ({"royal match": 10, "easy match": 3},
                 f"{_WOO} Royal Match version 2 (single deck)"),
    },
    "match-the-dealer": {
        "4-11": (_match_dealer(4, 11), f"{_WOO} Match the Dealer, 6-deck blackjack"),
        "3-14": (_match_dealer(3, 14), f"{_WOO} Match the Dealer, 8-deck blackjack"),
        "4-12": (_match_dealer(4, 12), f"{_WOO} Match the Dealer, 4-deck blackjack"),
        "4-19": (_match_dealer(4, 19), f"{_WOO} Match the Dealer, 2-deck blackjack"),
        "3-15": (_match_dealer(3, 15), f"{_WOO} Match the Dealer, 5-deck blackjack"),
        "spanish-4-9": (_match_dealer(4, 9), f"{_WOO} Match the Dealer, 6-deck Spanish 21"),
        "spanish-3-12": (_match_dealer(3, 12), f"{_WOO} Match the Dealer, 8-deck Spanish 21"),
    },
    "over-13": {"even": ({"over 13": 1}, "Over 13: even money, 13 loses (Caesars Tahoe, 1989)")},
    "under-13": {"even": ({"under 13": 1}, "Under 13: even money, 13 loses")},
    "exactly-13": {"10-1": ({"exactly 13": 10}, f"{_WOO}: a bet on exactly 13 paying 10 to 1 "
                                                "(Majestic casino, Panama City)")},
    "insurance": {"2-1": ({"dealer blackjack": 2}, "insurance: a dealer natural pays 2 to 1")},
    "bust-it": {
        "standard": ({"suited 8-8-8": 200, "same-colour 8-8-8": 50, "bust on a 6": 15,
                      "bust on a 7": 9, "bust on an 8": 7, "bust on a 9": 5, "bust on a ten": 3},
                     "Bust It as described by E. Jacobson (888casino blog)"),
    },
    "buster": {
        "v1": ({"bust 8+ cards, player blackjack": 250, "bust 7 cards, player blackjack": 50,
                "bust 8+ cards": 250, "bust 7 cards": 50, "bust 6 cards": 15, "bust 5 cards": 4,
                "bust 4 cards": 2, "bust 3 cards": 2}, f"{_WOO} Buster Blackjack pay table 1"),
        "v2": ({"bust 8+ cards, player blackjack": 2000, "bust 7 cards, player blackjack": 800,
                "bust 8+ cards": 250, "bust 7 cards": 50, "bust 6 cards": 18, "bust 5 cards": 4,
                "bust 4 cards": 2, "bust 3 cards": 2}, f"{_WOO} Buster Blackjack pay table 2"),
        "california": ({"bust 8+ cards, player blackjack": 200,
                        "bust 7 cards, player blackjack": 100, "bust 8+ cards": 200,
                        "bust 7 cards": 100, "bust 6 cards": 30, "bust 5 cards": 6,
                        "bust 4 cards": 3, "bust 3 cards": 1},
                       "Buster Blackjack's 200-to-1 table of California card rooms"),
    },
    "bust-bonus": {
        "silver-dollar": (_bust_bonus({"A": (3, 50), "2": (1, 25), "3": (1, 15), "4": (1, 10),
                                       "5": (1, 5), "6": (1, 3), "7": (2, 15), "8": (2, 10),
                                       "9": (2, 20), "T": (2, 20)}, (25, 75)),
                          f"{_WOO} Bust Bonus (Galaxy Gaming), Silver Dollar Seatac, 8 decks "
                          "H17"),
    },
    "push-22": {
        "35-17-10": ({"suited 22": 35, "same-colour 22": 17, "22": 10},
                     "Free Bet Blackjack's Push 22 (Customised Casino Games, UK rules)"),
    },
}

PRESETS: dict = {bet: {name: PayTable(bet, name, pays, source)
                       for name, (pays, source) in tables.items()}
                 for bet, tables in _PRESET_DATA.items()}
DEFAULT_PAYTABLE = {bet: next(iter(tables)) for bet, tables in PRESETS.items()}


def _pay_value(outcome: str, value):
    """A pay to one: a number >= -1 (or 'a:b'), as a float."""
    if isinstance(value, str):
        text = value.strip()
        try:
            if ":" in text:
                a, b = text.split(":")
                value = Fraction(a.strip()) / Fraction(b.strip())
            else:
                value = Fraction(text)
        except (ValueError, ZeroDivisionError):
            raise ValueError(f"paytable[{outcome!r}]: {show(value)} is not a pay; use a "
                             "number such as 9 or 2.5, or 'a:b' such as '5:2'") from None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"paytable[{outcome!r}] must be a number (pays to one), got "
                        f"{show(value)}")
    pay = float(value)
    if not math.isfinite(pay) or pay < -1:
        raise ValueError(f"paytable[{outcome!r}] must be a finite pay >= -1 (to one), got "
                         f"{show(value)}")
    return pay


def paytable(bet, table=None) -> PayTable:
    """The pay table of ``bet`` (an object with ``name`` and ``outcomes``): ``table`` is a
    preset name, a mapping {outcome: pay}, a ``PayTable``, or None for the bet's default."""
    if table is None:
        table = DEFAULT_PAYTABLE[bet.name]
    if isinstance(table, PayTable):
        if table.bet != bet.name:
            raise ValueError(f"paytable: {table.name!r} is a table of {table.bet!r}, not of "
                             f"{bet.name!r}")
        return table
    if isinstance(table, str):
        presets = PRESETS.get(bet.name, {})
        key = table.strip().lower()
        if key not in presets:
            raise ValueError(f"paytable: {show(table)} is not a preset of {bet.name}; known: "
                             f"{', '.join(presets) or 'none'} (or give {{outcome: pay}})")
        return presets[key]
    if not hasattr(table, "items"):
        raise TypeError(f"paytable must be a preset name or a mapping {{outcome: pay}}, got "
                        f"{show(table)}")
    pays = {}
    for outcome, value in table.items():
        if outcome not in bet.outcomes:
            raise ValueError(f"paytable: {show(outcome)} is not an outcome of {bet.name}; "
                             f"outcomes: {', '.join(bet.outcomes)}")
        pays[outcome] = _pay_value(outcome, value)
    if not pays:
        raise ValueError(f"paytable: give at least one outcome of {bet.name} and its pay")
    return PayTable(bet.name, "user", pays)


def register_paytable(bet, name: str, pays: dict, source: str = "user table") -> PayTable:
    """Add a named table to ``PRESETS`` (for this process); returns it."""
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"name must be a non-empty string, got {show(name)}")
    table = paytable(bet, pays)
    named = PayTable(bet.name, name.strip().lower(), table.pays, source)
    PRESETS.setdefault(bet.name, {})[named.name] = named
    return named
