import numpy as np
import numpy.typing as npt

from bjcore._distribution import RoundLaws

def split_moment_law(
    laws: RoundLaws, pair: int
) -> tuple[
    npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64], bool
]: ...
def round_second_moments(laws: RoundLaws) -> tuple[npt.NDArray[np.float64], bool]: ...
