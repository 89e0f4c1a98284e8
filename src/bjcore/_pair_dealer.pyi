from collections.abc import Sequence
from typing import SupportsFloat

from typing_extensions import Self, disjoint_base

from ._dealer import DealerTrie

# set up in __cinit__ (Cython's __new__): no __init__ of its own
@disjoint_base
class PairDealer:
    def __new__(cls, trie: DealerTrie) -> Self: ...
    def outcomes(self, pair: int, weights: Sequence[SupportsFloat]) -> list[float]: ...
    @property
    def passes(self) -> tuple[int, int]: ...
