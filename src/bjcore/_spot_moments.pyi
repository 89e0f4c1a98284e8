import numpy as np
import numpy.typing as npt

from bjcore._distribution import RoundLaws

class SpotMoments(RoundLaws):
    @property
    def g_evaluations(self) -> int: ...
    @property
    def fresh_decisions(self) -> int: ...
    def cross_moments(
        self,
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], bool]: ...
