import numpy as np
import numpy.typing as npt

def killed_rounds(f: npt.ArrayLike, steps: npt.ArrayLike, probs: npt.ArrayLike,
                  rounds: int, cut: float = ...) -> tuple[np.ndarray, float, float]: ...
