# The counted shoe's arithmetic, shared by the two simulators that deal a shoe to a cut card
# (bjcore._simulate, the classic game and the games; bjcore._switch_sim, Blackjack Switch):
# the shuffle's pick of the next card, the true count from the running count, the
# per-true-count bins, wonging in and out, and the look for a Ctrl-C.  Inline functions
# only (no module of its own), as bjcore._rng.
from libc.stdint cimport int8_t, uint32_t

from bjcore._rng cimport Rng, below

cdef extern from "Python.h":
    # true (once) when SIGINT arrived since the last look, in the main thread only; it takes
    # the signal without running Python's handler (the caller re-raises it)
    int PyOS_InterruptOccurred()


cdef inline int sigint_received() noexcept with gil:
    return PyOS_InterruptOccurred()


cdef inline int pick_card(Rng* rng, int8_t* deck, int n_cards, int pos) noexcept nogil:
    """One step of an incremental Fisher-Yates shuffle: a random card of ``deck[pos:n_cards]``
    (the cards not yet dealt) is swapped to ``pos``; returns where it was (a caller that
    keeps something beside each card swaps that too)."""
    cdef int j = pos + <int>below(rng, <uint32_t>(n_cards - pos))
    cdef int8_t c = deck[j]
    deck[j] = deck[pos]
    deck[pos] = c
    return j


cdef inline int floor_int(double x) noexcept nogil:
    """floor(x) as an int without a libm call (|x| is clamped to a million first)."""
    cdef int i
    if x < -1000000.0:
        return -1000000
    if x > 1000000.0:
        return 1000000
    i = <int>x                    # truncates toward zero
    return i - 1 if x < i else i


cdef inline int true_count_of(double rc, int unseen, int tc_method, int deck_cards,
                              double tag_scale, int rounding) noexcept nogil:
    """The integer true count: running count ``rc`` (in units of 1 / ``tag_scale``) over
    the decks of ``deck_cards`` cards not yet seen (``unseen`` cards; tc_method 0 exact,
    1 estimated to the half deck, 2 to the whole deck, at least one of them), rounded by
    ``rounding`` (0 floor, 1 truncate, 2 round half up)."""
    cdef int estimate
    cdef double tc
    if unseen < 1:
        unseen = 1
    # (one division of whole numbers: a true count that is exactly whole stays whole)
    if tc_method == 0:
        tc = rc * deck_cards / (unseen * tag_scale)
    elif tc_method == 1:
        estimate = (unseen + deck_cards // 4) // (deck_cards // 2)   # half decks
        tc = rc * 2.0 / ((estimate if estimate > 0 else 1) * tag_scale)
    else:
        estimate = (unseen + deck_cards // 2) // deck_cards          # whole decks
        tc = rc / ((estimate if estimate > 0 else 1) * tag_scale)
    if rounding == 0:
        return floor_int(tc)
    if rounding == 1:
        return -floor_int(-tc) if tc < 0 else floor_int(tc)
    return floor_int(tc + 0.5)


cdef inline int tc_bin(int tc, int low, int high) noexcept nogil:
    """The per-true-count bin of ``tc`` (0 for ``low`` .. high - low; the end bins take
    every count beyond them)."""
    if tc < low:
        tc = low
    elif tc > high:
        tc = high
    return tc - low


cdef inline bint still_playing(bint playing, int tc, bint wong_in_set, int wong_in,
                               bint wong_out_set, int wong_out) noexcept nogil:
    """Wonging before a round at true count ``tc``: a player in the shoe leaves below
    wong_out, one out of it comes in at wong_in or above."""
    if playing and wong_out_set and tc < wong_out:
        return False
    if not playing and wong_in_set and tc >= wong_in:
        return True
    return playing
