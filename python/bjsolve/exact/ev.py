"""``EV``: a float that says whether it is conditioned on no dealer natural (its own
module, so that the solver and Blackjack Switch's analysis both give it without
importing each other)."""
from __future__ import annotations


class EV(float):
    """A float that says what it means: ``given_no_blackjack`` tells whether it is
    conditioned on the dealer not holding a natural (False: unconditioned, dealer
    naturals included); ``split`` names the post-split class behind it."""

    given_no_blackjack: bool
    split: str | None

    def __new__(cls, value, given_no_blackjack: bool = False, split: str | None = None):
        self = super().__new__(cls, value)
        self.given_no_blackjack = bool(given_no_blackjack)
        self.split = split
        return self

    def __reduce__(self):
        return (EV, (float(self), self.given_no_blackjack, self.split))

    def __repr__(self):
        measure = "given no dealer blackjack" if self.given_no_blackjack else "unconditioned"
        split = f", split {self.split}" if self.split else ""
        return f"{float(self)!r} ({measure}{split})"


def insurance_ev_on(shoe, removed: tuple, field: str) -> EV:
    """EV per unit of insurance (pays 2:1) against a dealer ace on ``shoe``, the ace and
    the cards ``removed`` (ranks) out: 3 P(ten in the hole) - 1, unconditioned (the bet
    is settled on the hole card).  Errors name ``field`` (the argument the cards came in).
    ``Solution.insurance_ev`` and Blackjack Switch's ``insurance_ev`` both give it."""
    from ..model.ranks import counts_of, label
    counts = list(shoe.counts)
    if shoe.is_infinite:
        if any(counts[c - 1] <= 0 for c in removed):
            raise ValueError(f"{field}: this infinite shoe never deals some of these cards")
        left = counts
    else:
        need = counts_of(tuple(removed) + (1,))
        for r, k in enumerate(need):
            if k > counts[r]:
                raise ValueError(f"{field}: the shoe holds {counts[r]:g} x {label(r + 1)}, "
                                 f"the cards and the dealer's ace need {k}")
        left = [c - k for c, k in zip(counts, need)]
        if sum(left) <= 0:
            raise ValueError(f"{field}: no card would be left for the dealer's hole card")
    return EV(3.0 * (left[9] / sum(left)) - 1.0, False)


__all__ = ["EV", "insurance_ev_on"]
