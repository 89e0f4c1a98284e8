from collections.abc import Sequence
from typing import SupportsFloat, SupportsIndex

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

from bjcore._distribution import RoundLaws

@disjoint_base
class SpotMoments(RoundLaws):
    def __init__(
        self,
        shoe: Sequence[SupportsFloat],
        dealer: int | Sequence[SupportsIndex],
        rules: dict[str, object],
        infinite: bool = ...,
    ) -> None: ...
    @property
    def g_evaluations(self) -> int: ...
    def cross_moments(
        self,
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], bool]: ...
