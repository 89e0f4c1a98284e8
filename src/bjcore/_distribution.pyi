from collections.abc import Sequence
from typing import SupportsFloat, SupportsIndex

import numpy as np
import numpy.typing as npt

class RoundLaws:
    @property
    def dealer_key(self) -> int | tuple[int, int]: ...
    def __init__(
        self,
        shoe: Sequence[SupportsFloat],
        dealer: int | Sequence[SupportsIndex],
        rules: dict[str, object],
        infinite: bool = ...,
    ) -> None: ...
    def set_policy(self, kind: int, counts: Sequence[SupportsIndex], action: int) -> None: ...
    @property
    def policy_misses(self) -> int: ...
    @property
    def splits_played(self) -> int: ...
    def outcome_law(self) -> npt.NDArray[np.float64]: ...
