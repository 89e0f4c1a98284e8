"""bjcore: the compiled kernels behind bjsolve (dealer enumeration, player recursions)."""
from ._core import DealerTrie, UpcardEngine, dealer_trie

__all__ = ["DealerTrie", "UpcardEngine", "dealer_trie"]
