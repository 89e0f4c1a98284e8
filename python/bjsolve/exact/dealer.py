"""Dealer outcome probabilities (exact card removal, or an infinite shoe)."""
from __future__ import annotations

from bjcore import dealer_trie

from ..model.mappings import CardMapping
from ..model.ranks import UPCARD_ORDER, counts_of, hand_total, label, ranks, show
from ..model.rules import Rules
from ..model.shoe import Shoe
from ..output.notebook import dealer_outcomes_html

OUTCOMES = (17, 18, 19, 20, 21, "bust", "blackjack")


class DealerOutcomes(dict):
    """Read-only mapping outcome -> probability: keys 17..21, "bust", "blackjack".

    ``21`` excludes the two-card natural.  ``given_no_blackjack`` says whether the
    probabilities are conditioned on the dealer not holding a natural.
    """

    def __init__(self, values, *, dealer, given_no_blackjack):
        super().__init__(values)
        self.dealer = dealer
        self.given_no_blackjack = given_no_blackjack

    def _read_only(self, *args, **kwargs):
        raise TypeError("DealerOutcomes is read-only (copy it with dict(outcomes) to change it)")

    __setitem__ = __delitem__ = update = pop = popitem = clear = setdefault = _read_only
    __ior__ = _read_only

    def __reduce__(self):
        return (_outcomes, (dict(self), self.dealer, self.given_no_blackjack))

    def __repr__(self):
        body = ", ".join(f"{k!r}: {v:.6f}" for k, v in self.items())
        measure = "given no dealer blackjack" if self.given_no_blackjack else "unconditioned"
        return f"DealerOutcomes(dealer={self.dealer}, {measure}, {{{body}}})"

    def _repr_html_(self):
        return dealer_outcomes_html(self)


def _outcomes(values, dealer, given_no_blackjack):
    return DealerOutcomes(values, dealer=dealer, given_no_blackjack=given_no_blackjack)


def resolve_shoe(rules: Rules, shoe: Shoe | None) -> Shoe:
    """The analysis shoe: ``shoe`` if given, else the full shoe of ``rules.decks``."""
    if shoe is None:
        return rules.shoe()
    if not isinstance(shoe, Shoe):
        raise TypeError(f"shoe must be a bjsolve.Shoe, got {type(shoe).__name__}")
    return shoe


def _can_run_out(start, left, hit_soft_17) -> bool:
    """Whether some draw order leaves the dealer needing a card the shoe lacks."""
    if sum(start) + sum(r * c for r, c in enumerate(left, 1)) > 16:
        return False  # drawing every card left reaches hard 17: the dealer always finishes
    seen = set()

    def still_drawing(cards, rest):
        key = (tuple(sorted(cards)), rest)
        if key in seen:
            return False
        seen.add(key)
        total, soft = hand_total(cards)
        if not (total <= 16 or (hit_soft_17 and soft and total == 17)):
            return False
        if sum(rest) == 0:
            return True
        return any(still_drawing(cards + (r + 1,), rest[:r] + (rest[r] - 1,) + rest[r + 1:])
                   for r in range(10) if rest[r])

    return still_drawing(tuple(start), tuple(left))


def dealer_probabilities(rules: Rules, dealer, *, shoe: Shoe | None = None, removed=(),
                         given_no_blackjack: bool = False) -> DealerOutcomes:
    """The dealer's final-outcome probabilities.

    rules: a ``Rules`` (``hit_soft_17`` and ``decks`` matter here).
    dealer: the upcard, or a tuple of the dealer's cards (both exposed cards, or any
        partial dealer hand).
    shoe: the shoe the cards are dealt from (default: the full shoe of ``rules.decks``);
        the dealer's cards and ``removed`` (e.g. the player's hand) are taken out of it.
    given_no_blackjack: condition on the dealer not holding a natural (the peek measure).

    Returns a ``DealerOutcomes`` mapping 17..21, "bust", "blackjack" -> probability,
    summing to 1.
    """
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a bjsolve.Rules, got {type(rules).__name__}")
    if not isinstance(given_no_blackjack, bool):
        raise TypeError(f"given_no_blackjack must be True or False, got {show(given_no_blackjack)}")
    cards = ranks(dealer, field="dealer")
    if not cards:
        raise ValueError("dealer: give an upcard or a tuple of the dealer's cards")
    if sum(cards) > 21:
        raise ValueError(f"dealer: the hand {show(cards)} is already bust (hard total {sum(cards)})")
    out_cards = ranks(removed, field="removed")
    source = resolve_shoe(rules, shoe)
    left = list(source.counts)
    if not source.is_infinite:
        for r, k in enumerate(counts_of(cards + out_cards)):
            if k > left[r]:
                raise ValueError(f"dealer and removed: the shoe holds {left[r]} x {label(r + 1)}, "
                                 f"the dealer's cards and the removed cards need {k}")
            left[r] -= k
    trie = dealer_trie(cards, rules.hit_soft_17)
    if source.is_infinite:
        probs = trie.distribution(source.kernel_weights(), True)
    else:
        if _can_run_out(cards, left, rules.hit_soft_17):
            raise ValueError(f"shoe too small: the dealer holding {cards} could run out of cards "
                             f"(cards left {left})")
        probs = trie.distribution([float(c) for c in left], False)
    values = dict(zip((17, 18, 19, 20, 21, "blackjack", "bust"), (float(p) for p in probs)))
    if given_no_blackjack:
        natural = values["blackjack"]
        if natural >= 1.0:
            raise ValueError(f"dealer: {cards} is a natural; it cannot be conditioned away")
        values = {k: (0.0 if k == "blackjack" else v / (1.0 - natural)) for k, v in values.items()}
        values["bust"] = max(0.0, 1.0 - sum(values[k] for k in (17, 18, 19, 20, 21)))
    ordered = {k: values[k] for k in OUTCOMES}
    return DealerOutcomes(ordered, dealer=cards if len(cards) > 1 else cards[0],
                          given_no_blackjack=given_no_blackjack)


def dealer_table(rules: Rules, *, shoe: Shoe | None = None, given_no_blackjack: bool = False):
    """Outcome probabilities for every upcard the shoe can deal: a read-only mapping
    {upcard: DealerOutcomes} in print order (2..9, T, A), keyed by ranks 1..10 and indexable
    by any card spelling (``table["A"]``, ``table["K"]``)."""
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a bjsolve.Rules, got {type(rules).__name__}")
    source = resolve_shoe(rules, shoe)
    return CardMapping({u: dealer_probabilities(rules, u, shoe=source,
                                                given_no_blackjack=given_no_blackjack)
                        for u in UPCARD_ORDER if source.counts[u - 1] > 0},  # dealt upcards
                       "upcard")
