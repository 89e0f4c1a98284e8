from collections.abc import Sequence
from typing import SupportsFloat, SupportsIndex

RULE_KEYS: tuple[str, ...]
GAME_RULE_DEFAULTS: dict[str, object]
CHARLIE_CARDS: tuple[int, ...]
OPTIONAL_RULE_KEYS: tuple[str, ...]
MAX_PAYOUT: float

def check_rules(rules: dict[str, object]) -> dict[str, int | float | list[float]]: ...
def check_shoe(
    shoe: Sequence[SupportsFloat],
    dealer: int | Sequence[SupportsIndex] | None = ...,
    infinite: bool = ...,
    fractional: bool = ...,
) -> dict[str, object]: ...
