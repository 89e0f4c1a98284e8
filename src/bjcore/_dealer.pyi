from collections.abc import Sequence
from typing import SupportsFloat, SupportsIndex

import numpy as np
import numpy.typing as npt

_Card = SupportsIndex
_Weights = Sequence[SupportsFloat]

class DealerTrie:
    @property
    def n_nodes(self) -> int: ...
    @property
    def max_depth(self) -> int: ...
    def __init__(self, start: Sequence[_Card], hit_soft_17: bool) -> None: ...
    def distribution(
        self, weights: _Weights, infinite: bool = ...
    ) -> npt.NDArray[np.float64]: ...

def dealer_trie(start: Sequence[_Card], hit_soft_17: bool) -> DealerTrie: ...
