"""bjcore: the compiled kernels behind bjsolve (dealer enumeration, player recursions)."""
from ._core import TIE_TOLERANCE, UpcardEngine
from ._dealer import DealerTrie, dealer_trie
from ._game import GameEngine

__all__ = ["DealerTrie", "GameEngine", "TIE_TOLERANCE", "UpcardEngine", "dealer_trie"]
