"""The hands' play indices in Blackjack Switch's counted game (docs/games.md, "Blackjack
Switch", "The counted game"; ``bjsolve.risk.switch_game``).

A Switch hand's base play is the full shoe's decisions frozen: composition-dependent, each
hand valued with the other hand's cards out (``bjsolve.exact.switch_frozen``).  The play
indices are an ``IndexTable`` of the game's rules without the swap (``bjsolve indices
--preset blackjack-switch`` prints it), whose lines say, for a row (a total or a pair)
against an upcard with given options, the play by true count.  At a cell's true count a
counter departs from the base play where a line's play there differs from the line's
play at true count 0 (the table's own reference: its ``gains`` are counted against it):
every hand of that row, upcard and options then plays the line's play (when allowed);
everywhere else, and for every line whose play at the count is its play at 0, the hands
keep the full shoe's decisions.  (The one-hand games put the lines' play at the count on
a total-dependent chart, ``IndexedChart``; here that would replace the composition-
dependent exceptions of the frozen play by the chart's play at every count, so the game
would change even where the counter does not deviate.)  A hand takes a line as
``IndexedChart`` picks it, as the simulator reads an index file: the line whose options
are the hand's, else the one with the fewest options that include them.

``PlayDepartures(plays, tc)`` is that play at one true count: called (cards, upcard,
allowed) it gives the departing play or None (keep the frozen decision); ``apply(engine,
upcard)`` sets its departures in a policy engine holding the frozen decisions (every
kind of decision: the first two cards, later decisions, split hands), as
``exact.policy.policy_engines`` asks a strategy about each composition.
"""
from __future__ import annotations

from ..counting.indices import IndexTable
from ..model.actions import ACTION_CODE, KIND_LATER, KIND_SPLIT, KIND_START
from ..model.hands import compositions
from ..model.ranks import counts_of
from .indexed_chart import IndexedChart


def _no_play(cards, dealer, allowed):
    """The chart under the lines: none (the frozen decisions stay)."""


class PlayDepartures:
    """The play indices' departures from the frozen play at true count ``tc`` (module
    doc).  ``lines``: {(row, upcard, options): play} of the lines that depart there."""

    def __init__(self, plays: IndexTable, tc: float):
        self.tc = float(tc)
        self._chart = IndexedChart(_no_play, plays, self.tc)
        at_zero = IndexedChart(_no_play, plays, 0.0).overrides
        self.lines = {key: play for key, play in self._chart.overrides.items()
                      if play != at_zero[key]}
        self._surrender = plays.rules.surrender != "none"
        self._memo: dict = {}
        self._later: dict = {}    # upcard -> [(kind, counts, action)] of later and split hands

    def __bool__(self) -> bool:
        return bool(self.lines)

    def __call__(self, cards, upcard, allowed):
        """The play of ``cards`` (a hand) against ``upcard`` with ``allowed`` actions where
        a line departs at this count and allows it, else None."""
        if not self.lines:
            return None
        memo_key = (tuple(sorted(cards)), upcard, tuple(allowed))
        if memo_key not in self._memo:
            key = self._chart.line_key(tuple(sorted(cards)), upcard, allowed)
            play = self.lines.get(key) if key is not None else None
            self._memo[memo_key] = play if play in allowed else None
        return self._memo[memo_key]

    def apply(self, engine, upcard: int, limit) -> int:
        """Set the departures in ``engine`` (a game policy engine against ``upcard`` with
        the frozen decisions copied in; ``limit`` the counts a hand may hold, as
        ``Deal.hand_limit``); the number of decisions set."""
        if not self.lines:
            return 0
        if upcard not in self._later:
            self._later[upcard] = self._later_departures(engine, upcard, limit)
        entries = list(self._later[upcard])
        # the first two cards: the options of the context (a pair splits while the
        # engine's split limit allows two hands)
        for cards in _two_cards(limit):
            counts = counts_of(cards)
            allowed = ("stand", "hit") + (("double",) if engine.may_double_hand(counts)
                                          else ())
            if cards[0] == cards[1] and engine.split_limit(cards[0]) >= 2:
                allowed += ("split",)
            if self._surrender:
                allowed += ("surrender",)
            play = self(cards, upcard, allowed)
            if play is not None:
                entries.append((KIND_START, counts, ACTION_CODE[play]))
        for kind, counts, action in entries:
            engine.set_policy(kind, counts, action)
        return len(entries)

    def _later_departures(self, engine, upcard: int, limit) -> list:
        """[(kind, counts, action)] of the later decisions (three cards or more) and the
        split hands' decisions that depart (their options are the rules': double where
        the hand may double, after a split with the DAS gate)."""
        out = []
        for cards in compositions(limit, max_hard=21, min_cards=2):
            counts = counts_of(cards)
            if len(cards) > 2:
                allowed = ("stand", "hit") + (("double",) if engine.may_double_hand(counts)
                                              else ())
                play = self(cards, upcard, allowed)
                if play is not None:
                    out.append((KIND_LATER, counts, ACTION_CODE[play]))
            allowed = ("stand", "hit") + (
                ("double",) if engine.may_double_hand(counts, after_split=True) else ())
            play = self(cards, upcard, allowed)
            if play is not None:
                out.append((KIND_SPLIT, counts, ACTION_CODE[play]))
        return out


def _two_cards(limit) -> list:
    """The two-card hands a hand limit allows, the ace-ten (a natural: no decision) left
    out."""
    return [(a, b) for a in range(1, 11) for b in range(a, 11) if (a, b) != (1, 10)
            and (limit is None or (limit[a - 1] >= 1 + (a == b) and limit[b - 1] >= 1))]


__all__ = ["PlayDepartures"]
