"""A total-dependent chart with an index table's plays at one true count (the counted
game's strategy "indices", ``bjsolve.risk.game``), and the line a hand takes, which
Blackjack Switch's play indices read too (``bjsolve.risk.switch_plays``)."""
from __future__ import annotations

from ..model.hands import hand_code


class IndexedChart:
    """A chart with an index table's plays at one true count.  A hand takes the line of its
    row and upcard whose options (double, split, surrender) are exactly the hand's, failing
    that the one with the fewest options that include the hand's, as the simulator reads an
    index file: a 16 v T that may no longer surrender (after a hit) plays the row's
    stand-or-hit line, not the two-card line's surrender.  The line's play at ``tc`` when
    it is allowed, else the chart's play.  ``overrides``: (row, upcard, options) -> play."""

    def __init__(self, chart, indices, tc: float):
        self.chart = chart
        self.tc = tc
        lines = getattr(indices, "all_lines", None) or list(indices.lines.values())
        self.overrides = {(line.row, line.dealer, _option_flags(line.options)): line.play_at(tc)
                          for line in lines if len(line.plays) > 1}
        self._options: dict[tuple, list] = {}    # (row, upcard) -> option flags
        for row, upcard, flags in self.overrides:
            self._options.setdefault((row, upcard), []).append(flags)

    def line_key(self, cards, dealer, allowed):
        """The key (row, upcard, options) in ``overrides`` of the line the hand takes, or
        None when no line of its row and upcard fits its options."""
        row = hand_code(tuple(cards), can_split="split" in allowed)
        candidates = self._options.get((row, dealer))
        if not candidates:
            return None
        have = _option_flags(allowed)
        wider = [c for c in candidates if all(x >= y for x, y in zip(c, have))]
        pick = have if have in candidates else min(wider, key=sum, default=None)
        return None if pick is None else (row, dealer, pick)

    def __call__(self, cards, dealer, allowed):
        key = self.line_key(cards, dealer, allowed)
        play = self.overrides[key] if key is not None else None
        if play is not None and play in allowed:
            return play
        return self.chart(cards, dealer, allowed)


def _option_flags(actions) -> tuple:
    """Whether ``actions`` include double, split and surrender."""
    return tuple(a in actions for a in ("double", "split", "surrender"))


__all__ = ["IndexedChart"]
