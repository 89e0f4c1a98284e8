# cython: language_level=3
"""The rule model: the one place where the kernels read the rules and the shoe.

The Python layer hands every kernel the same *kernel rule dict*
(``bjsolve.exact.kernel_rules``) and a shoe (10 counts, or 10 probabilities for an
infinite shoe) with the dealer's known cards.  ``decode_rules`` checks the dict field by field and fills a
``RuleParams`` (_defs.pxd); ``decode_shoe`` checks the shoe and the dealer's cards and
fills a ``ShoeParams``.  The solver (``_engine.Engine``), the round laws
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

from libc.stdint cimport uint64_t
from bjcore._defs cimport RuleParams, MAX_COUNT_VALUE, COUNT_BITS, KIND_SHIFT


# Every key a kernel rule dict must hold (natural_tie_value is optional: by default a
# tied natural follows the other ties).
RULE_KEYS = ("hit_soft_17", "double_min_total", "double_soft", "double_any_cards",
             "double_after_split", "max_split_hands", "resplit_aces", "hit_split_aces",
             "surrender", "blackjack_payout", "split_class", "natural_takes_all",
             "dealer_wins_ties")
# The games' rules (docs/games.md): optional, each absent key is the classic game's value.
GAME_RULE_DEFAULTS = {
    "dealer_22_push": 0, "free_double_totals": 0, "free_split_ranks": 0,
    "player_21_wins": 0, "bonus_21": (1.0, 1.0, 1.0), "bonus_678": (1.0, 1.0, 1.0),
    "bonus_777": (1.0, 1.0, 1.0), "bonus_after_split": 0, "super_bonus": 0.0,
    "full_sevens": 0.0,
    "redoubles": 0, "double_rescue": 0, "double_split_aces": 0, "natural_loss": 0,
    "player_21_beats_natural": 0, "diamond_blackjack_payout": 0.0, "charlie": 0,
    "rescue_after_redouble": 0, "surrender_any_time": 0, "bonus_21_at_once": 0,
}
# a charlie's number of cards: 0 (none) or 3..10 (the games deal 5, 6 or 7)
CHARLIE_CARDS = (0,) + tuple(range(3, 11))
OPTIONAL_RULE_KEYS = ("natural_tie_value",) + tuple(GAME_RULE_DEFAULTS)

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
                         f"{', '.join(RULE_KEYS)}; optionally natural_tie_value and the games' keys "
                         f"{', '.join(GAME_RULE_DEFAULTS)})")
    unknown = sorted(str(k) for k in rules if k not in RULE_KEYS and k not in OPTIONAL_RULE_KEYS)
    if unknown:
        raise ValueError(f"rules: unknown {', '.join(unknown)} (a kernel rule dict holds "
                         f"{', '.join(RULE_KEYS)}; optionally natural_tie_value and the games' keys "
                         f"{', '.join(GAME_RULE_DEFAULTS)})")
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
    decode_game_rules(rules, out)
    return 0


cdef int _mask(dict rules, str key, int low, int high) except -1:
    """A bit mask whose set bits are in low..high (``free_double_totals``: totals 4..20;
    ``free_split_ranks``: ranks 1..10)."""
    value = rules.get(key, 0)
    allowed = f"a bit mask of {low}..{high} (bit t set for t), e.g. {(1 << high) | (1 << low)}"
    try:
        n = operator.index(value)
    except TypeError:
        raise TypeError(f"rules: {key} must be {allowed}, got {value!r}") from None
    if n < 0 or n & ~(((1 << (high + 1)) - 1) ^ ((1 << low) - 1)):
        raise ValueError(f"rules: {key} must be {allowed}, got {value!r}")
    return int(n)


cdef int _payouts(dict rules, str key, double* out) except -1:
    """Three payouts (net units won per unit bet), each in [1, MAX_PAYOUT]."""
    value = rules.get(key, GAME_RULE_DEFAULTS[key])
    allowed = f"three payouts in [1, {MAX_PAYOUT:g}] (net units per unit bet)"
    if isinstance(value, (str, bytes)):
        raise TypeError(f"rules: {key} must be {allowed}, got {value!r}")
    try:
        items = list(value)
    except TypeError:
        raise TypeError(f"rules: {key} must be {allowed}, got {value!r}") from None
    if len(items) != 3:
        raise ValueError(f"rules: {key} must be {allowed}, got {value!r}")
    for i in range(3):
        out[i] = _real({key: items[i]}, key, 1.0, False, MAX_PAYOUT)
    return 0


cdef int decode_game_rules(dict rules, RuleParams* out) except -1:
    """The games' optional keys (GAME_RULE_DEFAULTS); ``out.game`` says whether any
    differs from the classic game."""
    cdef int i
    given = {k: rules[k] for k in GAME_RULE_DEFAULTS if k in rules}
    full = dict(GAME_RULE_DEFAULTS)
    full.update(given)
    out.dealer_22_push = _flag(full, "dealer_22_push")
    out.free_double_totals = _mask(full, "free_double_totals", 4, 20)
    out.free_split_ranks = _mask(full, "free_split_ranks", 1, 10)
    out.player_21_wins = _flag(full, "player_21_wins")
    _payouts(full, "bonus_21", out.bonus_21)
    _payouts(full, "bonus_678", out.bonus_678)
    _payouts(full, "bonus_777", out.bonus_777)
    out.bonus_after_split = _flag(full, "bonus_after_split")
    out.super_bonus = _real(full, "super_bonus", 0.0, False, MAX_PAYOUT)
    out.full_sevens = _real(full, "full_sevens", 0.0, False, 1e9)
    out.redoubles = _whole(full, "redoubles", (0, 1, 2, 3), "0, 1, 2 or 3")
    out.double_rescue = _flag(full, "double_rescue")
    out.double_split_aces = _flag(full, "double_split_aces")
    out.rescue_after_redouble = _flag(full, "rescue_after_redouble")
    if out.rescue_after_redouble and not (out.double_rescue and out.redoubles):
        raise ValueError(f"rules: rescue_after_redouble (1) needs double_rescue (now "
                         f"{out.double_rescue}) and redoubles (now {out.redoubles}): it says "
                         f"whether a redoubled hand may still be rescued")
    out.natural_loss = _whole(full, "natural_loss", (0, 1, 2),
                              "0 (the hole-card rule), 1 (OBBO) or 2 (BB+1)")
    if out.natural_loss and not out.natural_takes_all:
        raise ValueError(f"rules: natural_loss ({out.natural_loss}) is a no-hole-card loss "
                         f"rule: it needs natural_takes_all = 1 (hole card 'enhc'), got "
                         f"natural_takes_all = {out.natural_takes_all}")
    out.player_21_beats_natural = _flag(full, "player_21_beats_natural")
    if out.player_21_beats_natural and not (out.player_21_wins and out.natural_takes_all):
        raise ValueError(f"rules: player_21_beats_natural (a player 21 paid before a "
                         f"no-hole-card dealer's natural) needs player_21_wins = 1 and "
                         f"natural_takes_all = 1 (hole card 'enhc'), got player_21_wins = "
                         f"{out.player_21_wins}, natural_takes_all = {out.natural_takes_all}")
    # Super Fun 21: a natural in diamonds pays this instead of blackjack_payout (0: the
    # rule is off); a hand of ``charlie`` cards that has not busted wins at once (0: none)
    out.diamond_blackjack_payout = _real(full, "diamond_blackjack_payout", 0.0, False,
                                         MAX_PAYOUT)
    out.charlie = _whole(full, "charlie", CHARLIE_CARDS, "0 (none) or 3..10 cards")
    # Super Fun 21: late surrender at any decision (after hitting, on split hands), and a
    # 21 of five or more cards paid at once
    out.surrender_any_time = _flag(full, "surrender_any_time")
    if out.surrender_any_time and out.surrender != 1:
        raise ValueError(f"rules: surrender_any_time (1) extends late surrender: it needs "
                         f"surrender = 1 (late), got {out.surrender}")
    if out.surrender_any_time and out.free_split_ranks:
        raise ValueError(f"rules: surrender_any_time (1) cannot go with free splits "
                         f"(free_split_ranks {out.free_split_ranks}): a free hand has no "
                         f"own stake to surrender half of")
    out.bonus_21_at_once = _flag(full, "bonus_21_at_once")
    if out.redoubles and (out.free_double_totals or out.free_split_ranks):
        raise ValueError(f"rules: redoubles ({out.redoubles}) cannot go with free doubles or "
                         f"free splits (free_double_totals {out.free_double_totals}, "
                         f"free_split_ranks {out.free_split_ranks}): no game deals both, and "
                         f"whose money a redouble of a free stake is would be a guess")
    out.game = 1 if (out.dealer_22_push or out.free_double_totals or out.free_split_ranks
                     or out.player_21_wins or out.super_bonus != 0.0
                     or out.redoubles or out.double_rescue or out.double_split_aces
                     or out.natural_loss or out.player_21_beats_natural
                     or out.diamond_blackjack_payout != 0.0 or out.charlie
                     or out.rescue_after_redouble or out.surrender_any_time
                     or out.bonus_21_at_once) else 0
    for i in range(3):
        if out.bonus_21[i] != 1.0 or out.bonus_678[i] != 1.0 or out.bonus_777[i] != 1.0:
            out.game = 1
    return 0


cdef int refuse_game_rules(const RuleParams* rules, str kernel) except -1:
    """The classic kernels compute the classic game only: a rule of the games (that this
    kernel would silently ignore) is an error naming it, never a wrong number."""
    if not rules.game:
        return 0
    set_flags = [name for name, on in (
        ("dealer_22_push", rules.dealer_22_push), ("free_double_totals", rules.free_double_totals),
        ("free_split_ranks", rules.free_split_ranks), ("player_21_wins", rules.player_21_wins),
        ("redoubles", rules.redoubles), ("double_rescue", rules.double_rescue),
        ("double_split_aces", rules.double_split_aces),
        ("rescue_after_redouble", rules.rescue_after_redouble),
        ("natural_loss", rules.natural_loss),
        ("player_21_beats_natural", rules.player_21_beats_natural),
        ("diamond_blackjack_payout", rules.diamond_blackjack_payout != 0.0),
        ("charlie", rules.charlie), ("surrender_any_time", rules.surrender_any_time),
        ("bonus_21_at_once", rules.bonus_21_at_once)) if on]
    name = set_flags[0] if set_flags else "bonus_21, bonus_678, bonus_777 or super_bonus"
    raise ValueError(f"rules: {name} is a rule of the games (docs/games.md); "
                     f"{kernel} cannot compute it")


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


cdef int decode_classic(object shoe, object dealer, dict rules, bint infinite,
                        bint allow_fractional, str kernel, ShoeParams* shoe_out,
                        RuleParams* rules_out) except -1:
    """A classic kernel's arguments (the value engine's, the round laws'): the shoe with
    the dealer's known cards, and the rules, refusing the games' rules by ``kernel``'s
    name (the games have their own engine)."""
    decode_shoe(shoe, dealer, infinite, allow_fractional, shoe_out)
    decode_rules(rules, rules_out)
    refuse_game_rules(rules_out, kernel)
    return 0


cdef list decode_hand(object counts, const double* shoe, const int* dealer_cnt,
                      bint infinite, bint in_shoe):
    """A player hand given as 10 counts, as ints, checked: two or more cards, a hard total
    of at most 21 and (with ``in_shoe``, on a finite shoe) cards the shoe holds beside the
    dealer's.  The one check of every engine's hand arguments."""
    cdef int r, hard = 0, n = 0
    if len(counts) != 10:
        raise ValueError(f"hand must have 10 counts, got {len(counts)}")
    out = []
    for r in range(10):
        c = counts[r]
        if c != int(c):
            raise ValueError(f"hand counts must be whole numbers, got {c!r}")
        c = int(c)
        if c < 0 or c > 21:
            raise ValueError(f"bad count {c} for rank {r + 1}")
        # the last card of the rank must come from a positive remainder (for whole
        # counts: c + dealer <= shoe; a fractional shoe deals while its count is > 0)
        if in_shoe and not infinite and c > 0 and c + dealer_cnt[r] - 1 >= shoe[r]:
            raise ValueError(f"the shoe does not hold the hand's rank-{r + 1} cards")
        hard += c * (r + 1)
        n += c
        out.append(c)
    if n < 2 or hard > 21:
        raise ValueError("a hand needs two or more cards and at most 21")
    return out


cdef uint64_t decode_policy_entry(int kind, object counts, int action,
                                  int max_kind) except? 0:
    """The frozen-decision key of a policy entry (a composition's action for one kind of
    decision: 0 the start, 1 a later one, 2 a split hand's; the games' choices after a
    double up to ``max_kind``, kind 3 unused), checked: the one decoder of every engine's
    ``set_policy``.  The key packs the counts COUNT_BITS per rank with the kind above."""
    cdef uint64_t key = 0
    cdef int r
    if not 0 <= kind <= max_kind or kind == 3:
        allowed = "0 start, 1 later, 2 split hand" + (
            f", 4..{max_kind} a choice after a double" if max_kind > 2 else "")
        raise ValueError(f"set_policy: kind {kind} is not a kind of decision ({allowed})")
    if not 0 <= action <= 4:
        raise ValueError(f"set_policy: action {action} is not an action (0 stand, 1 hit, "
                         f"2 double, 3 split, 4 surrender)")
    if len(counts) != 10:
        raise ValueError(f"set_policy: counts must be 10 counts (ranks 1..10), got "
                         f"{len(counts)}")
    for r in range(10):
        if not 0 <= counts[r] < 32:
            raise ValueError(f"set_policy: count {counts[r]!r} of rank {r + 1} is not a "
                             f"hand's (0..31)")
        key += <uint64_t>counts[r] << (COUNT_BITS * r)
    return key | (<uint64_t>kind << KIND_SHIFT)


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
