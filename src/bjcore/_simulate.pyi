import numpy as np
import numpy.typing as npt

MAX_CARDS: int
STOP_SIGINT: int

def random_integers(seed: int, chunk: int, count: int, below_n: int) -> npt.NDArray[np.int64]: ...

def game_kinds(redoubles: int, double_rescue: bool, double_split_aces: bool,
               hit_split_aces: bool) -> int: ...

def run_chunk(
    rules: dict[str, object],
    iparams: npt.NDArray[np.int64],
    dparams: npt.NDArray[np.float64],
    shoe: npt.NDArray[np.int32],
    tags: npt.NDArray[np.float64],
    child: npt.NDArray[np.int32],
    total: npt.NDArray[np.int8],
    decision: npt.NDArray[np.int16],
    allowed: npt.NDArray[np.int8],
    line_nseg: npt.NDArray[np.int32],
    line_thr: npt.NDArray[np.int32],
    line_play: npt.NDArray[np.int8],
    key_of: npt.NDArray[np.int32],
    bet_by_tc: npt.NDArray[np.float64],
    side_outcome: npt.NDArray[np.int8],
    side_pays: npt.NDArray[np.float64],
    side_by_tc: npt.NDArray[np.float64],
    seed: int,
    chunk: int,
    rounds: int,
    stop: npt.NDArray[np.int8],
    watch_sigint: bool = ...,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64], npt.NDArray[np.int64],
           npt.NDArray[np.float64]]: ...
