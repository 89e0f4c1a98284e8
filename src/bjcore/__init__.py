"""bjcore: the compiled kernels behind bjsolve.  This package is their one interface: the
Python layer and the tests import from ``bjcore`` only, never from a ``bjcore._x`` module
(tests/test_kernel_interface.py checks it).  The names, by what they are:

The value engine (the classic game's exact EVs, one engine per upcard)
    ``UpcardEngine``: player values for one shoe, rule set and dealer upcard;
    ``TIE_TOLERANCE``: how close two action values are to count as a tie;
    ``DecisionSignatures``: a strategy chart frozen into engines by hand signature.

The games' walk (the rule variants: ENHC, BB+1, Super Fun, Switch, ...)
    ``GameEngine``: the same values from the one game walk (game_walk.h);
    ``StopToken``, ``bind_stop``: the token a run's threads poll to give up a long walk
    (bound per thread; ``bind_stop`` returns the one it replaces).

The dealer
    ``DealerTrie``, ``dealer_trie``: the dealer's outcome distributions for a starting
    hand (``dealer_trie`` caches one trie per start and soft-17 rule);
    ``PairDealer``: the split hands' dealer distributions grouped by pair card.

The rule model (the kernel rule dict every kernel reads)
    ``check_rules``, ``check_shoe``: validate and decode a rule dict, a shoe;
    ``RULE_KEYS``, ``OPTIONAL_RULE_KEYS``: the dict's keys; ``GAME_RULE_DEFAULTS``: the
    values of the games' keys when the classic game leaves them out.

The round laws and the moments
    ``RoundLaws``: a round's outcome law against one upcard;
    ``SpotMoments``: the cross moments of two spots played from one shoe;
    ``split_moment_jobs``, ``second_moments``, ``split_moment_law``,
    ``round_second_moments``: the exact second moments of resplit rounds.

The simulator and the risk kernel
    ``run_chunk``, ``game_kinds``, ``random_integers``, ``MAX_CARDS``, ``STOP_SIGINT``: the
    compiled simulator (a chunk of rounds, its game kinds, its random stream, the largest
    shoe, the status of a chunk stopped by Ctrl-C); ``run_switch_chunk``: the same for
    Blackjack Switch, each round from a fresh shoe; ``run_switch_shoe_chunk``,
    ``SWITCH_SHOE_PARAMS``: Blackjack Switch from a counted shoe (and the length of its
    parameters); ``killed_rounds``: the trip-ruin recursion's rounds by the barrier.

Memory
    ``release_memory()``: free the kernels' recycled blocks and give malloc's kept memory
    back to the system; ``recycled_bytes()``: the bytes the kernels keep for reuse;
    ``tune_allocator()``, ``keeps_freed_memory()``: malloc's thresholds for solves (set
    by the solver, never on import).

Each name is imported on first use (PEP 562): ``import bjcore`` loads no kernel, and only
the kernels a caller touches load numpy (the round laws, the moments, the simulator and
the risk kernel do; the engines do not).
"""
from importlib import import_module

# true for type checkers only (mypy reads any name TYPE_CHECKING so); the constant rather
# than typing's, which would import typing (~2 ms) with the package
TYPE_CHECKING = False

# public name -> the compiled module that defines it
_EXPORTS = {
    # the value engine
    "UpcardEngine": "_core", "TIE_TOLERANCE": "_core", "DecisionSignatures": "_chart",
    # the games' walk
    "GameEngine": "_game", "StopToken": "_game", "bind_stop": "_game",
    # the dealer
    "DealerTrie": "_dealer", "dealer_trie": "_dealer", "PairDealer": "_pair_dealer",
    # the rule model
    "check_rules": "_rules", "check_shoe": "_rules", "RULE_KEYS": "_rules",
    "OPTIONAL_RULE_KEYS": "_rules", "GAME_RULE_DEFAULTS": "_rules",
    # the round laws and the moments
    "RoundLaws": "_distribution", "SpotMoments": "_spot_moments",
    "split_moment_jobs": "_split_moments", "second_moments": "_split_moments",
    "split_moment_law": "_split_moments", "round_second_moments": "_split_moments",
    # the simulator and the risk kernel
    "run_chunk": "_simulate", "game_kinds": "_simulate", "random_integers": "_simulate",
    "MAX_CARDS": "_simulate", "STOP_SIGINT": "_simulate",
    "run_switch_chunk": "_switch_sim", "run_switch_shoe_chunk": "_switch_sim",
    "SWITCH_SHOE_PARAMS": "_switch_sim", "killed_rounds": "_ruin",
    # memory
    "recycled_bytes": "_memo", "tune_allocator": "_core", "keeps_freed_memory": "_core",
}

# (a list written out, as type checkers read it; tests/test_kernel_interface.py checks that
# it names _EXPORTS and release_memory, each once)
__all__ = [
    "UpcardEngine", "TIE_TOLERANCE", "DecisionSignatures",
    "GameEngine", "StopToken", "bind_stop",
    "DealerTrie", "dealer_trie", "PairDealer",
    "check_rules", "check_shoe", "RULE_KEYS", "OPTIONAL_RULE_KEYS", "GAME_RULE_DEFAULTS",
    "RoundLaws", "SpotMoments",
    "split_moment_jobs", "second_moments", "split_moment_law", "round_second_moments",
    "run_chunk", "game_kinds", "random_integers", "MAX_CARDS", "STOP_SIGINT",
    "run_switch_chunk", "run_switch_shoe_chunk", "SWITCH_SHOE_PARAMS", "killed_rounds",
    "release_memory", "recycled_bytes", "tune_allocator", "keeps_freed_memory",
]


def release_memory() -> int:
    """Free the blocks the kernels keep for reuse between solves (memo tables, dealer
    rows: recycle.h), then give the memory malloc keeps back to the system (glibc's
    ``malloc_trim``; elsewhere nothing).  Values do not change: later solves allocate
    afresh.  Returns the bytes of kept blocks freed."""
    from ._core import release_memory as trim_malloc
    from ._dealer import release_recycled as release_rows
    from ._memo import release_recycled as release_tables
    # one pool serves every kernel today (both calls release it); the blocks go back to
    # malloc first, so that the trim can return them to the system
    freed = release_tables() + release_rows()
    trim_malloc()
    return freed


def __getattr__(name: str) -> object:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'bjcore' has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value   # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))


if TYPE_CHECKING:  # the names as type checkers see them (and stubtest, the runtime's)
    from ._chart import DecisionSignatures as DecisionSignatures
    from ._core import TIE_TOLERANCE as TIE_TOLERANCE
    from ._core import UpcardEngine as UpcardEngine
    from ._core import keeps_freed_memory as keeps_freed_memory
    from ._core import tune_allocator as tune_allocator
    from ._dealer import DealerTrie as DealerTrie
    from ._dealer import dealer_trie as dealer_trie
    from ._distribution import RoundLaws as RoundLaws
    from ._game import GameEngine as GameEngine
    from ._game import StopToken as StopToken
    from ._game import bind_stop as bind_stop
    from ._memo import recycled_bytes as recycled_bytes
    from ._pair_dealer import PairDealer as PairDealer
    from ._ruin import killed_rounds as killed_rounds
    from ._rules import GAME_RULE_DEFAULTS as GAME_RULE_DEFAULTS
    from ._rules import OPTIONAL_RULE_KEYS as OPTIONAL_RULE_KEYS
    from ._rules import RULE_KEYS as RULE_KEYS
    from ._rules import check_rules as check_rules
    from ._rules import check_shoe as check_shoe
    from ._simulate import MAX_CARDS as MAX_CARDS
    from ._simulate import STOP_SIGINT as STOP_SIGINT
    from ._simulate import game_kinds as game_kinds
    from ._simulate import random_integers as random_integers
    from ._simulate import run_chunk as run_chunk
    from ._spot_moments import SpotMoments as SpotMoments
    from ._split_moments import round_second_moments as round_second_moments
    from ._split_moments import second_moments as second_moments
    from ._split_moments import split_moment_jobs as split_moment_jobs
    from ._split_moments import split_moment_law as split_moment_law
    from ._switch_sim import SWITCH_SHOE_PARAMS as SWITCH_SHOE_PARAMS
    from ._switch_sim import run_switch_chunk as run_switch_chunk
    from ._switch_sim import run_switch_shoe_chunk as run_switch_shoe_chunk
