# cython: language_level=3
"""The rule model: the one place where the kernels read the rules and the shoe.

The Python layer hands every kernel the same *kernel rule dict*
(``bjsolve.exact.kernel_rules``) and a shoe (10 counts, or 10 probabilities for an
infinite shoe) with the dealer's known cards.  ``decode_rules`` checks the dict field by field and fills a
``RuleParams`` (_defs.pxd); ``decode_shoe`` checks the shoe and the dealer's cards and
fills a ``ShoeParams``.  The solver (``_hands.HandEngine``), the round laws
(``_distribution.RoundLaws``, and through it the moments of ``_spot_moments`` and
``_split_moments``) and the simulator (``_simulate.run_chunk``) all decode through here,
so they accept the same rules, refuse the same bad ones with the same message, and no
other kernel file looks inside the dict.

This module is compiled as plain C (setup.py): the simulator is a C extension and calls
these functions through Cython's cross-module C API like the C++ kernels do.
``decode_rules`` and ``decode_shoe`` are exposed to Python as ``check_rules`` and
``check_shoe`` (dicts of the decoded fields), for tests and for reading what a kernel
will use.
"""
import math
import operator

from bjcore._defs cimport RuleParams, MAX_COUNT_VALUE


# Every key a kernel rule dict must hold (natural_tie_value is optional: by default a
# tied natural follows the other ties).
RULE_KEYS = ("hit_soft_17", "double_min_total", "double_soft", "double_any_cards",
             "double_after_split", "max_split_hands", "resplit_aces", "hit_split_aces",
             "surrender", "blackjack_payout", "split_class", "natural_takes_all",
             "dealer_wins_ties")
OPTIONAL_RULE_KEYS = ("natural_tie_value",)

# Largest blackjack payout (and natural-tie value) accepted: far beyond any real table,
# small enough that no lattice or sum of the kernels overflows.
MAX_PAYOUT = 1000.0


cdef bint _is_numpy_bool(object value):
    """numpy's bool (what a mask or a table holds) has no __index__, but it is a bool."""
    cls = type(value)
    return cls.__module__ == "numpy" and cls.__name__ in ("bool", "bool_")


cdef object _whole(dict rules, str key, tuple allowed, str allowed_text):
    """The rule ``key`` as an int, which must be one of ``allowed``.  Bools and any
    integer type (numpy's too) are whole numbers; a float is not, even 2.0."""
    value = rules[key]
    try:
        n = operator.index(value)
    except TypeError:
        if not _is_numpy_bool(value):
            raise TypeError(f"rules: {key} must be {allowed_text}, got {value!r}") from None
        n = int(value)
    if n not in allowed:
        raise ValueError(f"rules: {key} must be {allowed_text}, got {value!r}")
    return int(n)


cdef bint _flag(dict rules, str key) except -1:
    return _whole(rules, key, (0, 1), "a bool (0 or 1)")


cdef double _real(dict rules, str key, double low, bint low_open, double high) except? -2:
    """The rule ``key`` as a float in (low, high] (``low_open``) or [low, high]."""
    value = rules[key]
    interval = f"{'(' if low_open else '['}{low:g}, {high:g}]"
    if isinstance(value, (bool, str, bytes)):
        raise TypeError(f"rules: {key} must be a number in {interval}, got {value!r}")
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise TypeError(f"rules: {key} must be a number in {interval}, got {value!r}") from None
    inside = (low < x if low_open else low <= x) and x <= high    # NaN is outside
    if not inside:
        raise ValueError(f"rules: {key} must be a number in {interval}, got {value!r}")
    return x


cdef int decode_rules(dict rules, RuleParams* out) except -1:
    """Check the kernel rule dict and fill ``out``; ValueError / TypeError naming the
    field, the value and what is allowed."""
    missing = [k for k in RULE_KEYS if k not in rules]
    if missing:
        raise ValueError(f"rules: missing {', '.join(missing)} (a kernel rule dict holds "
                         f"{', '.join(RULE_KEYS)}; optionally natural_tie_value)")
    unknown = sorted(str(k) for k in rules if k not in RULE_KEYS and k not in OPTIONAL_RULE_KEYS)
    if unknown:
        raise ValueError(f"rules: unknown {', '.join(unknown)} (a kernel rule dict holds "
                         f"{', '.join(RULE_KEYS)}; optionally natural_tie_value)")
    out.hit_soft_17 = _flag(rules, "hit_soft_17")
    out.double_min_total = _whole(rules, "double_min_total", (0, 9, 10),
                                  "0 (any total), 9 or 10")
    out.double_soft = _flag(rules, "double_soft")
    out.double_any_cards = _flag(rules, "double_any_cards")
    out.double_after_split = _flag(rules, "double_after_split")
    out.max_split_hands = _whole(rules, "max_split_hands", (1, 2, 3, 4), "1, 2, 3 or 4")
    out.resplit_aces = _flag(rules, "resplit_aces")
    out.hit_split_aces = _flag(rules, "hit_split_aces")
    out.surrender = _whole(rules, "surrender", (0, 1, 2), "0, 1 or 2")
    out.blackjack_payout = _real(rules, "blackjack_payout", 0.0, True, MAX_PAYOUT)
    out.split_class = _whole(rules, "split_class", (0, 1, 2, 3), "0, 1, 2 or 3")
    out.natural_takes_all = _flag(rules, "natural_takes_all")
    out.tie_value = -1.0 if _flag(rules, "dealer_wins_ties") else 0.0
    if "natural_tie_value" in rules:
        out.natural_tie_value = _real(rules, "natural_tie_value", -1.0, False, MAX_PAYOUT)
    else:
        out.natural_tie_value = out.tie_value
    return 0


cdef int _counts_length(object shoe) except -1:
    try:
        n_counts = len(shoe)
    except TypeError:
        raise TypeError(f"shoe must be 10 counts (ranks 1..10), got {shoe!r:.60}") from None
    if n_counts != 10:
        raise ValueError(f"shoe must have 10 counts (ranks 1..10), got {n_counts}")
    return 0


cdef int _read_counts(object shoe, bint infinite, bint allow_fractional,
                      ShoeParams* out) except -1:
    cdef int r
    cdef double v
    out.infinite = infinite
    out.fractional = False
    out.size = 0.0
    for r in range(10):
        count = shoe[r]
        if isinstance(count, (str, bytes)):
            raise TypeError(f"shoe counts must be numbers, got {count!r}")
        v = float(count)
        if not (0.0 <= v <= MAX_COUNT_VALUE):
            raise ValueError(f"shoe counts must be finite and non-negative (at most "
                             f"{MAX_COUNT_VALUE:g}), got {count!r}")
        if not infinite and v != math.floor(v):
            if not allow_fractional:
                raise ValueError(f"shoe counts must be whole numbers, got {count!r}")
            out.fractional = True
        out.counts[r] = v
        out.size += v
    return 0


cdef int decode_counts(object shoe, bint infinite, bint allow_fractional,
                       ShoeParams* out) except -1:
    """Check a shoe without dealer cards (10 counts, or probabilities when ``infinite``;
    whole numbers unless ``allow_fractional``) and fill ``out`` (no dealer card known)."""
    cdef int r
    _counts_length(shoe)
    out.dealer_n = 0
    out.dealer_cards[0] = out.dealer_cards[1] = 0
    for r in range(10):
        out.dealer_cnt[r] = 0
    out.upcard = 0
    out.hole_rank = -1
    return _read_counts(shoe, infinite, allow_fractional, out)


cdef int decode_shoe(object shoe, object dealer, bint infinite, bint allow_fractional,
                     ShoeParams* out) except -1:
    """Check the shoe (as ``decode_counts``) and the dealer's known cards (an upcard, or a
    tuple of both when they are dealt face up) and fill ``out``.  Counts must be whole
    numbers unless ``allow_fractional`` (a fractional shoe: every formula is a polynomial
    in the counts); a finite shoe must hold the dealer's cards."""
    cdef int r
    _counts_length(shoe)
    cards = tuple(dealer) if isinstance(dealer, (tuple, list)) else (dealer,)
    if any(type(c) is not int for c in cards):
        raise TypeError(f"dealer must be a rank 1..10 (int) or a tuple of two, got {dealer!r}")
    if not 1 <= len(cards) <= 2 or any(c < 1 or c > 10 for c in cards):
        raise ValueError(f"dealer must be an upcard or two cards, ranks 1..10, got {dealer!r}")
    if sorted(cards) == [1, 10]:
        raise ValueError("the dealer's two cards are a natural: there is nothing to play")
    out.dealer_n = len(cards)
    for r in range(10):
        out.dealer_cnt[r] = 0
    out.dealer_cards[0] = out.dealer_cards[1] = 0
    for r, c in enumerate(cards):
        out.dealer_cards[r] = c
        out.dealer_cnt[c - 1] += 1
    out.upcard = cards[0] if len(cards) == 1 else 0
    out.hole_rank = -1
    if cards == (1,):
        out.hole_rank = 9
    elif cards == (10,):
        out.hole_rank = 0
    _read_counts(shoe, infinite, allow_fractional, out)
    if not infinite:
        for r in range(10):
            if out.counts[r] < out.dealer_cnt[r]:
                raise ValueError(f"the shoe does not hold the dealer's cards {cards}")
    return 0


# ---- the Python view (tests, and reading what a kernel will use) --------------------------

def check_rules(dict rules):
    """The kernel rule dict as the kernels decode it (a dict of RuleParams' fields), or
    the ValueError / TypeError every kernel raises for it."""
    cdef RuleParams p
    decode_rules(rules, &p)
    return p


def check_shoe(shoe, dealer=None, bint infinite=False, bint fractional=False):
    """The shoe and dealer cards (None: no dealer card, as the simulator's shoe) as the
    kernels decode them (a dict of ShoeParams' fields), or the error every kernel raises
    for them."""
    cdef ShoeParams s
    if dealer is None:
        decode_counts(shoe, infinite, fractional, &s)
    else:
        decode_shoe(shoe, dealer, infinite, fractional, &s)
    return s
