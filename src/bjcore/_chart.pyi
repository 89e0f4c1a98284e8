from collections.abc import Sequence
from typing import SupportsFloat

from typing_extensions import disjoint_base

from ._core import UpcardEngine

@disjoint_base
class DecisionSignatures:
    def __init__(
        self, engine: UpcardEngine, limit: Sequence[SupportsFloat] | None
    ) -> None: ...
    def __len__(self) -> int: ...
    def questions(self) -> list[tuple[int, tuple[int, ...], tuple[str, ...]]]: ...
    def freeze(self, actions: Sequence[int]) -> None: ...
