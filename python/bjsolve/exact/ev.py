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


__all__ = ["EV"]
