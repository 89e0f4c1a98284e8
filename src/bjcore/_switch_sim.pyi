import numpy as np
import numpy.typing as npt

def run_switch_chunk(
    shoe: npt.NDArray[np.int32],
    switches: npt.NDArray[np.uint8],
    first: npt.NDArray[np.int8],
    limits: npt.NDArray[np.int8],
    keys: npt.NDArray[np.uint64],
    actions: npt.NDArray[np.uint8],
    full: bool,
    h17: bool,
    push22: bool,
    das: bool,
    hit_aces: bool,
    double_any: bool,
    switch_blackjack: bool,
    payout: float,
    seed: int,
    chunk: int,
    rounds: int,
    histogram: npt.NDArray[np.float64],
    insure: bool = ...,
) -> tuple[float, float, int, int]: ...

SWITCH_SHOE_PARAMS: int
DEALS: int

def run_switch_shoe_chunk(
    shoe: npt.NDArray[np.int32],
    switches: npt.NDArray[np.uint8],
    first: npt.NDArray[np.int8],
    limits: npt.NDArray[np.int8],
    keys: npt.NDArray[np.uint64],
    actions: npt.NDArray[np.uint8],
    full: bool,
    h17: bool,
    push22: bool,
    das: bool,
    hit_aces: bool,
    double_any: bool,
    switch_blackjack: bool,
    payout: float,
    tags: npt.NDArray[np.float64],
    iparams: npt.NDArray[np.int64],
    switches_by_tc: npt.NDArray[np.uint8],
    bet_by_tc: npt.NDArray[np.float64],
    seed: int,
    chunk: int,
    rounds: int,
    stop: npt.NDArray[np.int8],
    watch_sigint: bool = ...,
    bankroll: float = ...,
) -> tuple[
    npt.NDArray[np.float64],
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
    npt.NDArray[np.float64],
    int,
]: ...
