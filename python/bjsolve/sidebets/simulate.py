"""An independent Monte Carlo check of the side bets: shuffle suited shoes, deal rounds,
settle the bet by reading the cards, and (optionally) bet only when a count says so.

Nothing here reuses the exact module's outcome labelling: each bet's hands are classified
again, directly from the dealt cards, so that an error in one is not copied into the other.
Only the pay tables (data) are shared.

Dealing model (that of ``counted_sidebet``, so the two can be compared): a round starts
after n cards of the shoe are seen, for n = round(i * cards_per_round), i = 0, 1, ..., up
to the cut card (penetration x shoe); then the shoe is reshuffled.  A round reads the
next cards of the shoe in dealing order: player, dealer up, player, dealer hole (with
several spots: each spot, the up card, each spot, the hole card), then, with the hands
played out (``strategy``), the player's draws (``simulate_play``), then the dealer's
draws (for the dealer bets).  Because a round starts at a fixed depth, every
round's cards are a uniform draw from the full shoe, so the flat-bet mean estimates the
exact ``edge``.  Rounds of one shoe share cards, so the standard errors come from the
spread of per-shoe totals (every shoe is an independent batch of the same number of rounds).
"""
from __future__ import annotations

import math
import numbers
from dataclasses import dataclass

import numpy as np

from ..counting.removal import finite_number
from ..model import show
from .paytables import paytable as _resolve_paytable
from .simulate_play import play_out

__all__ = ["SIMULATED_BETS", "SimulatedSideBet", "simulate_sidebet"]

# dealing order within a round (offsets from the round's first card)
PLAYER_1, UP, PLAYER_2, HOLE, FIRST_DRAW = 0, 1, 2, 3, 4
QUEEN, EIGHT, SEVEN = 11, 7, 6        # rank indices (0 = ace ... 9 = ten, 10 J, 11 Q, 12 K)
HEARTS = 1                            # suits 0..3: spades, hearts, diamonds, clubs
MAX_DEALER_CARDS = 16                 # more than any dealer hand from a shoe of <= 8 decks


def _rank(kind):
    return kind // 4


def _suit(kind):
    return kind % 4


def _red(kind):
    suit = kind % 4
    return (suit == 1) | (suit == 2)


def _value(kind):
    """Blackjack value with an ace as 1."""
    return np.minimum(kind // 4 + 1, 10)


def settle(events, pays) -> np.ndarray:
    """The win per unit of each hand: the pay of its first event, -1 where none holds."""
    win = np.full(np.shape(events[0][0]), -1.0)
    for mask, name in reversed(events):
        win = np.where(mask, pays.get(name, -1.0), win)
    return win


# ---- the bets: each maps the dealt cards (an array per position in the round) and the
# dealer's hand to the hand's events, best first, as (mask, outcome name) pairs; a hand is
# paid as the first event that holds (``settle``) ------------------------------------------

def _twenty_one_plus_three(cards, dealer):
    a, b, c = cards[PLAYER_1], cards[PLAYER_2], cards[UP]
    ranks = np.sort(np.stack([_rank(a), _rank(b), _rank(c)]), axis=0)
    low, mid, high = ranks
    flush = (_suit(a) == _suit(b)) & (_suit(a) == _suit(c))
    trips = (low == high)
    run = (mid == low + 1) & (high == mid + 1)
    ace_high = (low == 0) & (mid == 11) & (high == 12)          # Q-K-A
    straight = run | ace_high
    return [(trips & flush, "suited trips"), (straight & flush, "straight flush"),
                  (trips, "trips"), (straight, "straight"), (flush, "flush")]


def _perfect_pairs(cards, dealer):
    a, b = cards[PLAYER_1], cards[PLAYER_2]
    pair = _rank(a) == _rank(b)
    return [(pair & (_suit(a) == _suit(b)), "perfect pair"),
                  (pair & (_red(a) == _red(b)), "coloured pair"), (pair, "mixed pair")]


def _lucky_ladies(cards, dealer):
    a, b = cards[PLAYER_1], cards[PLAYER_2]
    hard = _value(a) + _value(b)
    has_ace = (_rank(a) == 0) | (_rank(b) == 0)
    twenty = np.where(has_ace & (hard <= 11), hard + 10, hard) == 20
    queen_of_hearts = 4 * QUEEN + HEARTS
    qh_pair = (a == queen_of_hearts) & (b == queen_of_hearts)
    up, hole = cards[UP], cards[HOLE]
    dealer_natural = (((_rank(up) == 0) & (_value(hole) == 10))
                      | ((_rank(hole) == 0) & (_value(up) == 10)))
    return [(qh_pair & dealer_natural, "queen of hearts pair with dealer blackjack"),
                  (qh_pair, "queen of hearts pair"), (twenty & (a == b), "matched 20"),
                  (twenty & (_suit(a) == _suit(b)), "suited 20"), (twenty, "any 20")]


def _match_the_dealer(cards, dealer):
    a, b, up = cards[PLAYER_1], cards[PLAYER_2], cards[UP]
    suited = (a == up).astype(int) + (b == up)
    unsuited = ((_rank(a) == _rank(up)) & (a != up)).astype(int) + ((_rank(b) == _rank(up))
                                                                    & (b != up))
    return [(suited == 2, "two suited matches"),
                  ((suited == 1) & (unsuited == 1), "suited and unsuited match"),
                  (suited == 1, "suited match"), (unsuited == 2, "two unsuited matches"),
                  (unsuited == 1, "unsuited match")]


def _royal_match(cards, dealer):
    a, b = cards[PLAYER_1], cards[PLAYER_2]
    suited = _suit(a) == _suit(b)
    king_queen = np.sort(np.stack([_rank(a), _rank(b)]), axis=0)
    royal = (king_queen[0] == 11) & (king_queen[1] == 12)
    return [(suited & royal, "royal match"), (suited, "easy match")]


def _thirteen(cards, dealer):
    a, b = cards[PLAYER_1], cards[PLAYER_2]
    total = _value(a) + _value(b)                 # an ace counts 1 here
    return [(total > 13, "over 13"), (total == 13, "exactly 13"),
                  (total < 13, "under 13")]


def _bust_it(cards, dealer):
    n_cards, total, hand = dealer
    bust3 = (n_cards == 3) & (total > 21)
    eights = (_rank(hand[0]) == EIGHT) & (_rank(hand[1]) == EIGHT) & (_rank(hand[2]) == EIGHT)
    suited = (_suit(hand[0]) == _suit(hand[1])) & (_suit(hand[1]) == _suit(hand[2]))
    colour = (_red(hand[0]) == _red(hand[1])) & (_red(hand[1]) == _red(hand[2]))
    third = _value(hand[2])
    return [(bust3 & eights & suited, "suited 8-8-8"),
                  (bust3 & eights & colour, "same-colour 8-8-8"),
                  (bust3 & (third == 6), "bust on a 6"), (bust3 & (third == 7), "bust on a 7"),
                  (bust3 & (third == 8), "bust on an 8"), (bust3 & (third == 9), "bust on a 9"),
                  (bust3 & (third == 10), "bust on a ten")]


def _buster(cards, dealer):
    n_cards, total, _ = dealer
    a, b = cards[PLAYER_1], cards[PLAYER_2]
    natural = (((_rank(a) == 0) & (_value(b) == 10)) | ((_rank(b) == 0) & (_value(a) == 10)))
    bust = total > 21
    return [(bust & (n_cards >= 8) & natural, "bust 8+ cards, player blackjack"),
                  (bust & (n_cards == 7) & natural, "bust 7 cards, player blackjack"),
                  (bust & (n_cards >= 8), "bust 8+ cards"), (bust & (n_cards == 7), "bust 7 cards"),
                  (bust & (n_cards == 6), "bust 6 cards"), (bust & (n_cards == 5), "bust 5 cards"),
                  (bust & (n_cards == 4), "bust 4 cards"), (bust & (n_cards == 3), "bust 3 cards")]


def _lucky_lucky(cards, dealer):
    a, b, up = cards[PLAYER_1], cards[PLAYER_2], cards[UP]
    hard = _value(a) + _value(b) + _value(up)
    any_ace = (_rank(a) == 0) | (_rank(b) == 0) | (_rank(up) == 0)
    total = np.where(any_ace & (hard <= 11), hard + 10, hard)     # one ace as 11 if it fits
    suited = (_suit(a) == _suit(b)) & (_suit(b) == _suit(up))
    low, mid, high = np.sort(np.stack([_rank(a), _rank(b), _rank(up)]), axis=0)
    sevens = (low == SEVEN) & (high == SEVEN)
    six_seven_eight = (low == SEVEN - 1) & (mid == SEVEN) & (high == SEVEN + 1)
    return [(sevens & suited, "suited 7-7-7"), (six_seven_eight & suited, "suited 6-7-8"),
            (sevens, "7-7-7"), (six_seven_eight, "6-7-8"), ((total == 21) & suited, "suited 21"),
            (total == 21, "21"), (total == 20, "20"), (total == 19, "19")]


def _insurance(cards, dealer):
    return [(_value(cards[HOLE]) == 10, "dealer blackjack")]


def _dealer_one_suit_one_colour(hand):
    """(every card of the dealer's hand of one suit, of one colour); -1 marks no card."""
    first = hand[0]
    suited = np.ones(first.shape, dtype=bool)
    colour = np.ones(first.shape, dtype=bool)
    for card in hand[1:]:
        absent = card < 0
        suited &= absent | (_suit(card) == _suit(first))
        colour &= absent | (_red(card) == _red(first))
    return suited, colour


def _bust_bonus(cards, dealer):
    n_cards, total, hand = dealer
    bust = total > 21
    suited, _ = _dealer_one_suit_one_colour(hand)
    eights = ((n_cards == 3) & (_rank(hand[0]) == EIGHT) & (_rank(hand[1]) == EIGHT)
              & (_rank(hand[2]) == EIGHT))
    events = [(eights & suited, "suited 8-8-8"), (eights, "8-8-8")]
    up_value = _value(hand[0])
    for value, label in enumerate("A23456789T", start=1):
        here = bust & (up_value == value)
        events += [(here & suited, f"{label} up: suited bust"), (here, f"{label} up: bust")]
    return events


def _push_22(cards, dealer):
    _, total, hand = dealer
    suited, colour = _dealer_one_suit_one_colour(hand)
    twenty_two = total == 22
    return [(twenty_two & suited, "suited 22"), (twenty_two & colour, "same-colour 22"),
            (twenty_two, "22")]


def _dealer_natural(cards):
    up, hole = cards[UP], cards[HOLE]
    return (((_rank(up) == 0) & (_value(hole) == 10))
            | ((_rank(hole) == 0) & (_value(up) == 10)))


# bets made only in some rounds (the rest are not bet, and not counted in the mean):
# insurance is offered with an ace up; Bust Bonus is made after the up card and the peek,
# so never in a round the dealer has a natural
OFFERED_WHEN = {
    "insurance": lambda cards: _rank(cards[UP]) == 0,
    "bust-bonus": lambda cards: ~_dealer_natural(cards),
}

# bet -> (classifier, whether it needs the dealer's whole hand)
SIMULATED_BETS = {
    "21+3": (_twenty_one_plus_three, False),
    "perfect-pairs": (_perfect_pairs, False),
    "lucky-ladies": (_lucky_ladies, False),
    "match-the-dealer": (_match_the_dealer, False),
    "royal-match": (_royal_match, False),
    "over-13": (_thirteen, False),
    "under-13": (_thirteen, False),
    "exactly-13": (_thirteen, False),
    "bust-it": (_bust_it, True),
    "buster": (_buster, True),
    "lucky-lucky": (_lucky_lucky, False),
    "insurance": (_insurance, False),
    "bust-bonus": (_bust_bonus, True),
    "push-22": (_push_22, True),
}


def _play_dealer(up, hole, card_at, cursor, hit_soft_17):
    """The dealer's hand from his up and hole cards, drawing each round's cards from its
    ``cursor`` on (``card_at(offsets)``: each round's card at an offset, -1 past the
    shoe): (cards in the hand, final total, the hand's cards as kinds, -1 beyond the
    hand)."""
    rounds = len(up)
    hand = np.full((MAX_DEALER_CARDS, rounds), -1)
    hand[0], hand[1] = up, hole
    hard = _value(hand[0]) + _value(hand[1])
    aces = (_rank(hand[0]) == 0) | (_rank(hand[1]) == 0)
    n_cards = np.full(rounds, 2)
    for draw in range(MAX_DEALER_CARDS - 2):
        soft = aces & (hard <= 11)
        total = np.where(soft, hard + 10, hard)
        hits = (total < 17) | (hit_soft_17 & soft & (total == 17))
        if not hits.any():
            break
        card = card_at(np.where(hits, cursor + draw, 0))
        if (card[hits] < 0).any():
            raise ValueError("shoe too small: the dealer ran out of cards")
        hand[2 + draw] = np.where(hits, card, -1)
        hard = hard + np.where(hits, _value(card), 0)
        aces = aces | (hits & (_rank(card) == 0))
        n_cards = n_cards + hits
    soft = aces & (hard <= 11)
    return n_cards, np.where(soft, hard + 10, hard), hand


def _suit_true_count(kinds, depths, decks):
    """The four suit counts' true count before each round (rows: shoes; columns: rounds):
    floor((the richest unseen suit's cards - a quarter of the cards unseen) / decks unseen),
    each suit's cards seen counted directly from the dealt cards."""
    total = kinds.shape[1]
    seen = np.zeros((kinds.shape[0], total + 1, 4), dtype=np.int32)
    for suit in range(4):
        seen[:, 1:, suit] = np.cumsum(_suit(kinds) == suit, axis=1)
    unseen = 13 * decks - seen[:, depths, :]
    left = total - depths[None, :]
    excess = unseen.max(axis=2) - left / 4
    return np.floor(excess / (left / 52))


def _player(strategy, spots, rules, hit_soft_17, decks):
    """The play keywords: (Play, ChartPlayer or None).  The simulator plays a chart: the
    rule set's basic chart, a ``StrategyChart`` or a callable f(cards, dealer, allowed)."""
    from ..exact.strategy import StrategyChart
    from .played_out import Play, resolve_play
    from .simulate_play import ChartPlayer
    if callable(strategy) and not isinstance(strategy, (str, StrategyChart)):
        play = resolve_play("basic", spots, rules, hit_soft_17)
        play = Play("chart", play.spots, play.rules)
        return play, ChartPlayer(strategy, play.rules)
    play = resolve_play(strategy, spots, rules, hit_soft_17)
    if not play.played_out:
        return play, None
    if play.strategy == "optimal":
        raise ValueError("strategy: the simulator plays a chart ('basic', a StrategyChart or "
                         "a callable f(cards, dealer, allowed)), not 'optimal' (the exact "
                         "figures are the same for every strategy)")
    chart = play.chart
    if chart is None:                 # the basic chart of the rule set on this shoe
        import dataclasses

        from .. import Shoe, solve
        game = dataclasses.replace(play.rules, decks=decks)
        chart = solve(game, shoe=Shoe.decks(decks)).strategy
    return play, ChartPlayer(chart, play.rules)


@dataclass(frozen=True)
class SimulatedSideBet:
    """A simulated side bet: mean: the player's mean win per unit bet over the rounds bet
    (se_mean its standard error); bet_fraction: the share of rounds bet; gain_per_100_rounds:
    units won per 100 rounds dealt; rounds, rounds_bet, shoes: the sample; each se from the
    spread between shoes."""
    bet: str
    paytable: str
    rounds: int
    rounds_bet: int
    shoes: int
    mean: float
    se_mean: float
    bet_fraction: float
    se_bet_fraction: float
    gain_per_100_rounds: float
    se_gain_per_100_rounds: float
    threshold: float | None


def _check_int(value, field, low):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < low:
        raise ValueError(f"{field} must be a whole number >= {low}, got {show(value)}")
    return int(value)


def simulate_sidebet(name, paytable=None, *, decks: int = 6, rounds: int = 1_000_000,
                     seed=None, penetration: float = 0.75, cards_per_round: float = 5.5,
                     system=None, threshold=None, hit_soft_17: bool = False,
                     shoes_per_batch: int = 2000, strategy="two-cards", spots: int = 1,
                     rules=None) -> SimulatedSideBet:
    """Simulate side bet ``name`` (one of ``SIMULATED_BETS``) for about ``rounds`` rounds.

    With ``system`` (a count's name, 10/13 tags, or a count over cards: 52 tags or a suit
    system such as "red-black") and ``threshold``, the bet is made only when the true count
    floor(running count / decks unseen) is at or above the threshold (decks unseen exact:
    cards unseen / 52); otherwise every round is bet.  With ``system="suits"`` (the four
    suit counts) the true count is the richest unseen suit's excess over a quarter of the
    cards unseen, per deck unseen, as ``counted_sidebet`` reports it.  A bet made only
    in some rounds (``OFFERED_WHEN``: insurance with an ace up, Bust Bonus when the dealer
    has no natural) is bet only in those: its mean is per bet offered, as the exact figure
    is, and its bet_fraction the share of rounds it was offered (and the count allowed).

    strategy, spots, rules: as ``edge``: "two-cards" (the dealer draws right after the
    first cards), or every spot's hands played out by a chart before the dealer draws
    ("basic": the chart of ``rules`` for this shoe; a ``StrategyChart``; a callable
    f(cards, dealer, allowed) -> action reading only the hand's total, softness, pair
    and number of cards; see ``simulate_play``).  The bet is on the first spot; the
    dealer completes his hand in every round."""
    from .analysis import bet as _bet
    from .counted import _tags_by_kind
    from .suit_tags import is_four_suit_count
    the_bet = _bet(name)
    if the_bet.name not in SIMULATED_BETS:
        raise ValueError(f"simulate_sidebet: {show(name)} is not simulated; simulated bets: "
                         f"{', '.join(SIMULATED_BETS)}")
    table = _resolve_paytable(the_bet, paytable)
    decks = _check_int(decks, "decks", 1)
    rounds = _check_int(rounds, "rounds", 1)
    shoes_per_batch = _check_int(shoes_per_batch, "shoes_per_batch", 1)
    if not (isinstance(penetration, (int, float)) and 0 < penetration < 1):
        raise ValueError(f"penetration must be a share of the shoe in (0, 1), got "
                         f"{show(penetration)}")
    if not (isinstance(cards_per_round, (int, float)) and 1 <= cards_per_round <= 30):
        raise ValueError(f"cards_per_round must be a number 1..30, got {show(cards_per_round)}")
    if (system is None) != (threshold is None):
        raise ValueError("give system and threshold together (or neither, for a flat bet)")
    if threshold is not None:
        threshold = finite_number(threshold, "threshold")
    if seed is not None:
        seed = _check_int(seed, "seed", 0)
    if not isinstance(hit_soft_17, bool):
        raise TypeError(f"hit_soft_17 must be True or False, got {show(hit_soft_17)}")
    classify, needs_dealer = SIMULATED_BETS[the_bet.name]
    by_suit = is_four_suit_count(system)
    tags = None if system is None or by_suit else _tags_by_kind(system)
    play, player = _player(strategy, spots, rules, hit_soft_17, decks)
    if player is not None and not needs_dealer:
        player = None                 # settled before any play: nothing to play out
    k = play.spots

    total = 52 * decks
    # the first cards (each spot, the up card, each spot, the hole card), then the player's
    # and the dealer's draws (a hand of more than 11 cards would need 11 aces and twos)
    deal = 2 * k + 2
    width = (deal + (11 * k * play.rules.max_split_hands if player is not None else 0)
             + MAX_DEALER_CARDS) if needs_dealer else deal
    last = int(penetration * total)
    # round starts, as counted_sidebet lays them out (and the round's cards in the shoe)
    starts = sorted({round(i * cards_per_round)
                     for i in range(int(last / cards_per_round) + 1)})
    depths = np.array([d for d in starts if d <= last and total - d >= deal])
    if len(depths) == 0:
        raise ValueError("the shoe is too small for one round")
    n_shoes = max(2, math.ceil(rounds / len(depths)))
    rng = np.random.default_rng(seed)
    pays = {o: table.pay(o) for o in the_bet.outcomes}
    shoe_win, shoe_bets = [], []
    for start in range(0, n_shoes, shoes_per_batch):
        batch = min(shoes_per_batch, n_shoes - start)
        # a shuffled shoe: a random permutation of the 52 * decks cards, each card's kind
        # its index mod 52 (so every kind appears decks times)
        order = np.argsort(rng.random((batch, total)), axis=1)
        kinds = order % 52
        padded = np.concatenate([kinds, np.full((batch, width), -1)], axis=1)
        flat = padded.ravel()
        # each (shoe, round) row reads its cards at offsets from its first card
        base = (np.arange(batch)[:, None] * padded.shape[1] + depths[None, :]).ravel()

        def card_at(offset, flat=flat, base=base):
            if np.max(offset) >= width:
                raise ValueError("a round took more cards than the simulator's window")
            return flat[base + offset]

        first = [card_at(j) for j in range(deal)]
        # as the bets read them: the bettor's (first spot's) cards, the up and hole cards
        cards = [first[0], first[k], first[k + 1], first[2 * k + 1]]
        cursor = np.full(len(base), deal)
        if player is not None:
            cursor = play_out(player, first, k, card_at, cursor)
        dealer = (_play_dealer(cards[UP], cards[HOLE], card_at, cursor, hit_soft_17)
                  if needs_dealer else None)
        win = settle(classify(cards, dealer), pays)
        offered = OFFERED_WHEN.get(the_bet.name)
        placed: np.ndarray = (np.ones(win.shape, dtype=bool) if offered is None
                              else offered(cards))
        if tags is not None:
            running = np.concatenate([np.zeros((batch, 1)), np.cumsum(tags[kinds], axis=1)],
                                     axis=1)[:, depths]
            true = np.floor(running / ((total - depths[None, :]) / 52))
            placed = placed & (true >= threshold).ravel()
        elif by_suit:
            placed = placed & (_suit_true_count(kinds, depths, decks) >= threshold).ravel()
        win = np.where(placed, win, 0.0).reshape(batch, len(depths))
        shoe_win.append(win.sum(axis=1))
        shoe_bets.append(placed.reshape(batch, len(depths)).sum(axis=1))
    wins = np.concatenate(shoe_win)
    bets = np.concatenate(shoe_bets).astype(float)
    per_shoe = len(depths)
    n = len(wins)
    gain = wins / per_shoe
    share = bets / per_shoe
    mean = wins.sum() / bets.sum() if bets.sum() else math.nan
    # the mean per bet is a ratio of per-shoe sums: its se by the delta method
    if bets.sum():
        resid = wins - mean * bets
        se_mean = math.sqrt((resid ** 2).sum() / (n - 1) / n) / bets.mean()
    else:
        se_mean = math.nan
    return SimulatedSideBet(
        the_bet.name, table.name, n * per_shoe, int(bets.sum()), n, float(mean), float(se_mean),
        float(share.mean()), float(share.std(ddof=1) / math.sqrt(n)),
        float(100 * gain.mean()), float(100 * gain.std(ddof=1) / math.sqrt(n)),
        None if threshold is None else float(threshold))
