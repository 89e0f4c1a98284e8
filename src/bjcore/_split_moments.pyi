import numpy as np
import numpy.typing as npt

from bjcore._distribution import RoundLaws

class SplitMomentJob:
    pair: int
    cost: float
    done: bool
    def __init__(self, laws: RoundLaws, pair: int) -> None: ...
    def run(self) -> None: ...
    def result(
        self,
    ) -> tuple[
        npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64], bool
    ]: ...

def split_moment_law(
    laws: RoundLaws, pair: int
) -> tuple[
    npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64], bool
]: ...
def split_moment_jobs(laws: RoundLaws) -> tuple[list[SplitMomentJob], bool]: ...
def second_moments(
    laws: RoundLaws, jobs: list[SplitMomentJob], exact: bool
) -> tuple[npt.NDArray[np.float64], bool]: ...
def round_second_moments(laws: RoundLaws) -> tuple[npt.NDArray[np.float64], bool]: ...
