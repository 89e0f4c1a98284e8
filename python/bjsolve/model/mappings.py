"""Read-only result mappings that accept card labels as keys.

``sol.ev_by_upcard["A"]``, ``sol.ev_by_upcard[1]`` and ``sol.ev_by_upcard["ace"]`` are the
same entry; in the exposed-dealer game ``sol.ev_by_dealer["T6"]``, ``["6", "T"]`` and
``(6, 10)`` name the same pair of dealer cards.  Iteration gives the canonical keys: ranks
1..10 (1 = ace, 10 = any ten), or sorted tuples of two ranks.
"""
from __future__ import annotations

from collections.abc import Mapping

from .deal import dealer_label
from .ranks import ranks


def card_key(key, field: str = "key"):
    """A rank 1..10 for one card, a sorted tuple of ranks for several."""
    got = ranks(key, field=field)
    return got[0] if len(got) == 1 else tuple(sorted(got))


class CardMapping(Mapping):
    """A read-only mapping keyed by dealer cards that accepts any card spelling."""

    __slots__ = ("_values", "_name")

    def __init__(self, values, name: str = "mapping"):
        self._values = dict(values)
        self._name = name

    def __getitem__(self, key):
        try:
            return self._values[key]
        except (KeyError, TypeError):
            pass
        try:
            canonical = card_key(key, field=self._name)
        except (ValueError, TypeError):
            raise KeyError(key) from None
        try:
            return self._values[canonical]
        except KeyError:
            raise KeyError(key) from None

    def __iter__(self):
        return iter(self._values)

    def __len__(self):
        return len(self._values)

    def __eq__(self, other):
        if isinstance(other, CardMapping):
            return self._values == other._values
        return isinstance(other, Mapping) and self._values == dict(other)

    # unhashable, like dict (typeshed declares object.__hash__ a method, hence the ignore)
    __hash__ = None    # type: ignore[assignment]

    def __repr__(self):
        body = ", ".join(f"{dealer_label(k)}: {v!r}" for k, v in self._values.items())
        return f"{{{body}}}"

    def __reduce__(self):
        return (CardMapping, (self._values, self._name))
