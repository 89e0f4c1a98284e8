"""The tables of a solve (EVs by hand and upcard, the chart, dealer outcomes, the house
edge ...) for the CLI and the API; what a table is lives in ``bjsolve.output.table``.

Rows use the usual chart's hand codes: "4".."20" hard totals, "A2".."A9" soft,
"22".."TT", "AA" pairs, "BJ"; columns the dealer's upcard 2..T, A.  A hard or soft row is
the probability-weighted mean over the two-card hands with that code (non-pairs; the pair
itself for 4 and 20, which no other two cards make), so it is exact for the shoe given.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..model.actions import ACTIONS
from ..model.deal import (
    dealer_columns,
    dealer_key_weight,
    dealer_keys,
    dealer_label,
    player_hand_weights,
)
from ..model.hands import PAIR_CODES, hand_code, total_code
from ..model.ranks import hand_total, label
from ..model.rules import Rules
from ..model.shoe import Shoe
from ..output.table import Grid, Table, chart_legend, chart_table
from ..output.table import table_notes as _notes
from .dealer import dealer_probabilities
from .engines import round_values
from .policy import policy_engines

if TYPE_CHECKING:
    pass

TABLE_NAMES = ("initial", "dealer", "stand", "hit", "double", "split", "surrender",
               "optimal", "strategy", "advantage", "exceptions", "insurance")
EV_ROWS = tuple(str(t) for t in range(4, 21)) + tuple(f"A{k}" for k in range(2, 10)) + PAIR_CODES


def _playable_columns(solution):
    """[(label, [keys with decisions])]: exposed dealer naturals have none."""
    out = []
    for col, keys in solution.dealer_columns():
        keys = [k for k in keys if k in solution._engines]
        if keys:
            out.append((col, keys))
    return out


def _row_members(shoe, key):
    """{row code: [(weight, cards)]} with the pair fallback for hard 4 and 20."""
    by_row: dict = {}
    for cards, w in player_hand_weights(shoe, key).items():
        if cards[0] == cards[1]:
            by_row.setdefault(label(cards[0]) * 2, []).append((w, cards))
        code = total_code(cards)
        if code not in ("BJ", "AA"):
            by_row.setdefault(code, {}).setdefault(cards[0] == cards[1], []).append((w, cards))
    return {code: (m if isinstance(m, list) else (m.get(False) or m.get(True)))
            for code, m in by_row.items()}


def _measure(solution) -> str:
    if solution.rules.hole_card == "exposed":
        return "both dealer cards known"
    if not solution.conditioned:
        return f"unconditioned (no hole card: {solution.rules.hole_card})"
    if solution.rules.surrender == "early":
        return ("given no dealer blackjack, except two-card hands against A and T, which are "
                "unconditioned (early surrender is decided before the peek)")
    return "given no dealer blackjack"


def ev_table(solution, action: str) -> Table:
    """Per-row EV of one action (or "optimal": the best allowed action per hand)."""
    # (lazy: the default command prints without numpy)
    import numpy as np
    if action not in ACTIONS + ("optimal",):
        raise ValueError(f"action must be one of {', '.join(ACTIONS + ('optimal',))}, "
                         f"got {action!r}")
    shoe, rules = solution.shoe, solution.rules
    columns = _playable_columns(solution)
    cols = tuple(c for c, _ in columns)
    rows = PAIR_CODES if action == "split" else EV_ROWS
    values = np.full((len(rows), len(cols)), np.nan)
    for j, (_, keys) in enumerate(columns):
        sums: dict[str, list[float]] = {}    # row code -> [sum of weight * EV, sum of weight]
        for key in keys:
            wk = solution.deal.weights[key]
            for code, members in _row_members(shoe, key).items():
                if code not in rows:
                    continue
                for w, cards in members:
                    ev = solution.hand_ev(cards, key)
                    if code not in PAIR_CODES:
                        ev = {k: v for k, v in ev.items() if k != "split"}
                    if action == "optimal":
                        v = max(ev.values())
                    elif action in ev:
                        v = ev[action]
                    else:
                        continue
                    acc = sums.setdefault(code, [0.0, 0.0])
                    acc[0] += wk * w * v
                    acc[1] += wk * w
        for code, (num, den) in sums.items():
            values[rows.index(code), j] = num / den
    notes = [f"EV per initial bet, {_measure(solution)}"]
    if action != "split":
        notes.append("hard/soft rows: probability-weighted mean over the two-card hands with "
                     "that code")
    if action in ("split", "optimal"):
        notes.append(f"split EVs: post-split strategy {solution.split}, resplits forced up to "
                     f"{rules.max_split_hands} hands")
    if action == "optimal":
        notes.append("composition-dependent optimal play of each two-card hand")
    return Table(action, f"{action} EV", rows, cols, values, _notes(rules, shoe, *notes))


def strategy_table(solution, count_exceptions: bool = True) -> Table:
    """The basic-strategy chart; ``count_exceptions=False`` skips the (slow) search for the
    composition-dependent exceptions and only points to them."""
    chart = solution.strategy
    cols = tuple(c for c, _ in _playable_columns(solution))
    exceptions = (f"{len(chart.exceptions)} composition-dependent exceptions"
                  if count_exceptions else "composition-dependent exceptions")
    notes = _notes(solution.rules, solution.shoe,
                   "total-dependent basic strategy for the original two cards",
                   *chart_legend(solution.rules),
                   f"split decisions use post-split strategy {solution.split}",
                   f"{exceptions}: 'bjsolve exceptions' with the same rules lists them")
    return chart_table(chart, cols, notes)


def exceptions_table(solution) -> Table:
    # (lazy: the default command prints without numpy)
    import numpy as np
    chart = solution.strategy
    rows = tuple(f"{''.join(label(c) for c in e.cards)} v {dealer_label(e.dealer)}"
                 for e in chart.exceptions)
    cols = ("total", "chart", "optimal", "gain")
    values = np.array([[total_code(e.cards), e.chart_action, e.optimal_action, float(e.gain)]
                       for e in chart.exceptions], dtype=object).reshape(len(rows), 4)
    measure = _measure(solution)
    # JSON: the hand's total as a number and whether it is soft ("A7" in the text column
    # is soft 18, a code a program would have to parse)
    records = [{"cards": [label(c) for c in e.cards],
                "dealer": (label(e.dealer) if isinstance(e.dealer, int)
                           else [label(c) for c in e.dealer]),
                "total": hand_total(e.cards)[0], "soft": hand_total(e.cards)[1],
                "chart": e.chart_action, "optimal": e.optimal_action, "gain": float(e.gain)}
               for e in chart.exceptions]
    return Table("exceptions", "composition-dependent exceptions to the chart", rows, cols,
                 values, _notes(solution.rules, solution.shoe,
                                f"gain: EV per initial bet, {measure}", "hands of 2 to 4 cards"),
                 records=records)


def initial_table(solution) -> Table:
    """Probability of each starting hand code together with each dealer column (sums to 1)."""
    # (lazy: the default command prints without numpy)
    import numpy as np
    shoe = solution.shoe
    columns = solution.dealer_columns()
    cols = tuple(c for c, _ in columns)
    # hard 4 and 20 are only ever a pair, which has its own row
    rows = (tuple(str(t) for t in range(5, 20)) + tuple(f"A{k}" for k in range(2, 10))
            + ("BJ",) + PAIR_CODES)
    values = np.zeros((len(rows), len(cols)))
    for j, (_, keys) in enumerate(columns):
        for key in keys:
            wk = solution.deal.weights[key]
            for cards, w in player_hand_weights(shoe, key).items():
                values[rows.index(hand_code(cards, can_split=True)), j] += wk * w
    return Table("initial", "probability of each starting hand and dealer hand", rows, cols,
                 values, _notes(solution.rules, shoe,
                                "joint probability of the deal (all cells sum to 1, that is 100%)"),
                 # percent: 0.088% keeps two or three digits where a fraction squeezed into
                 # 80 columns read 0.001
                 style="percent", units="probability, a fraction of 1 (text output shows "
                                        "percent)")


def dealer_outcome_table(rules: Rules, *, shoe: Shoe | None = None,
                         given_no_blackjack: bool = False) -> Table:
    # (lazy: the default command prints without numpy)
    import numpy as np
    if not isinstance(given_no_blackjack, bool):
        raise TypeError(f"given_no_blackjack must be True or False, got {given_no_blackjack!r}")
    if given_no_blackjack and rules.hole_card == "exposed":
        raise ValueError("--given-no-blackjack: both dealer cards are known in the exposed game")
    source = shoe if shoe is not None else rules.shoe()
    keys = dealer_keys(rules, source)
    columns = dealer_columns(keys)
    outcome_keys: tuple[int | str, ...] = (17, 18, 19, 20, 21, "bust", "blackjack")
    outcome_labels: tuple[str, ...] = tuple(str(o) for o in outcome_keys)
    if rules.hole_card == "exposed":
        # the exposed game's dealer table: outcomes as scores, a bust scoring 0
        outcome_keys = ("bust", 17, 18, 19, 20, 21, "blackjack")
        outcome_labels = ("0", "17", "18", "19", "20", "21", "BJ")
    elif given_no_blackjack:
        # given no dealer blackjack the natural's column would hold zeros only
        outcome_keys, outcome_labels = outcome_keys[:-1], outcome_labels[:-1]
    values = np.zeros((len(columns), len(outcome_keys)))
    for i, (_, ks) in enumerate(columns):
        total = 0.0
        for k in ks:
            cards = (k,) if isinstance(k, int) else k
            w = dealer_key_weight(source, k)
            d = dealer_probabilities(rules, cards, shoe=source,
                                     given_no_blackjack=given_no_blackjack and len(cards) == 1)
            values[i] += w * np.array([d[o] for o in outcome_keys])
            total += w
        values[i] /= total
    measure = ("given no dealer blackjack" if given_no_blackjack
               else f"unconditioned (dealer naturals in '{outcome_labels[-1]}')")
    what = ("only the upcard is removed from the shoe" if rules.hole_card != "exposed"
            else "rows: the dealer's two exposed cards (soft 18+ shown as hard totals); "
                 "columns: final score, 0 = bust, BJ = the dealer's natural")
    return Table("dealer", "dealer final outcome", tuple(c for c, _ in columns),
                 outcome_labels, values,
                 _notes(rules, source, f"probabilities, {measure}; 21 excludes the natural",
                        what), style="percent",
                 units="probability, a fraction of 1 (text output shows percent)")


SPLIT_CLASS_MEANING = {
    "CDZ-": "split hands played as the unsplit hand of the same cards",
    "CDP1": "the first split hand's own best play for every split hand",
    "CDP": "each split hand's own best play",
}


def _first_round(solution) -> str:
    full = solution.shoe == solution.rules.shoe()
    return ("one player, full shoe off the top" if full
            else "one player, first round from the shoe shown")


def chart_values_by_dealer(solution, chart=None) -> dict:
    """{dealer key: EV of the round given that key} when the player follows ``chart``
    (default: the solution's basic-strategy chart) for every decision."""
    chart = solution.strategy if chart is None else chart
    deal = solution.deal
    return round_values(solution.rules, solution.shoe,
                        policy_engines(solution.rules, solution.shoe, chart, deal), deal)


def house_edge_table(solution, chart_by_dealer=None, after_double_ev=None) -> Table:
    """The house edge (minus the round's EV, per initial bet) of the basic-strategy chart
    and of composition-dependent optimal play, each with its convention; with
    ``after_double_ev`` (a game with a choice after a double: the EV of the chart played
    with the printed after-double chart) a row for that too."""
    if chart_by_dealer is None:
        chart_by_dealer = chart_values_by_dealer(solution)
    shoe = solution.shoe
    weights = solution.deal.weights
    chart_ev = sum(weights[k] * v for k, v in chart_by_dealer.items())
    rows: tuple = ("basic-strategy chart", "optimal play")
    chart_words = "the total-dependent chart for every decision, split hands included"
    if solution.rules.redoubles or solution.rules.double_rescue:
        # the chart is for the first decisions: say who makes the choice after a double
        chart_words = ("the total-dependent chart for the first decisions, split hands "
                       "included; after a double, the best choice for the exact cards")
    conventions = (
        chart_words,
        (f"composition-dependent best play of each hand; split "
         f"{solution.split}: {SPLIT_CLASS_MEANING[solution.split]}"))
    grid = [[-float(chart_ev), conventions[0]],
            [-float(solution.expected_value), conventions[1]]]
    records = [{"strategy": "basic", "house_edge": -float(chart_ev),
                "ev": float(chart_ev), "split": "chart"},
               {"strategy": "optimal", "house_edge": -float(solution.expected_value),
                "ev": float(solution.expected_value), "split": solution.split}]
    if after_double_ev is not None:
        # between the chart's row and optimal play
        rows = (rows[0], "chart + after-double chart", rows[1])
        grid.insert(1, [-float(after_double_ev),
                        ("the chart, and after a double the after-double chart below: what "
                         "a player who reads both charts gets")])
        records.insert(1, {"strategy": "basic+after-double", "house_edge": -float(after_double_ev),
                           "ev": float(after_double_ev), "split": "chart"})
    values = Grid(grid, 2)
    return Table("edge", "house edge", rows, ("house edge", "convention"), values,
                 _notes(solution.rules, shoe,
                        f"house edge = minus the EV of a round, per initial bet (negative: a "
                        f"player advantage); {_first_round(solution)}; unconditioned (dealer "
                        f"naturals included)"),
                 style="percent", units="fraction of the initial bet (text: percent)",
                 layout="summary",
                 records=records)


def switch_edge_table(switch) -> Table:
    """Blackjack Switch (a ``SwitchSolution``): the house edge per hand and per round with
    the switch played, and per hand never switching, with the method named."""
    rows = ("switching, per hand", "switching, per round", "never switching, per hand")
    per_hand = "per unit bet on each hand (a round bets two units)"
    values = Grid([[switch.house_edge_per_hand, per_hand],
                   [switch.house_edge_per_round, "per round, in units of one hand's bet"],
                   [-switch.no_switch_value / 2.0, per_hand + ", never switching"]], 2)
    notes = _notes(switch.rules, switch.shoe,
                   f"house edge = minus the EV, unconditioned (dealer naturals included); "
                   f"{_first_round(switch)}",
                   f"method: {switch.method}",
                   f"rounds switched: {100 * switch.switch_rate:.2f}%; each hand played by "
                   f"its composition-dependent best play, split {switch.split}; "
                   f"{switch.seconds:.1f} s")
    return Table("edge", "Blackjack Switch house edge", rows, ("house edge", "convention"),
                 values, notes, style="percent",
                 units="fraction of the bet (text: percent)", layout="summary",
                 records=[{"strategy": "switch", "per": "hand",
                           "house_edge": switch.house_edge_per_hand,
                           "removal": switch.removal},
                          {"strategy": "switch", "per": "round",
                           "house_edge": switch.house_edge_per_round,
                           "removal": switch.removal},
                          {"strategy": "never switch", "per": "hand",
                           "house_edge": -switch.no_switch_value / 2.0,
                           "removal": switch.removal}])


def switch_values_table(switch) -> Table:
    """Blackjack Switch: each two-card hand's value by upcard given no dealer natural (the
    other hand's cards averaged over), the table the published switch strategies give:
    switch when the two switched hands add up to more than the two dealt ones."""
    import numpy as np

    from .switch import PAIRS, hand_label
    values = switch.hand_values()
    ups = tuple(range(2, 11)) + (1,)
    rows = tuple(hand_label(h) for h in PAIRS)
    grid = np.full((len(PAIRS), len(ups)), np.nan)
    for i, hand in enumerate(PAIRS):
        for j, up in enumerate(ups):
            grid[i, j] = values.get((hand, up), np.nan)
    twenty_one = ("a switched ace-ten counts as 21 (AT row: the dealt natural)"
                  if not switch.rules.switch_blackjack else
                  "a switched ace-ten is a blackjack")
    differ, lost = switch.simple_rule_loss()
    notes = _notes(switch.rules, switch.shoe,
                   "EV of each two-card hand given no dealer natural, the hand's best play, "
                   "averaged over the other hand's cards",
                   f"switch when the two hands after the swap add up to more; {twenty_one}",
                   f"deciding by this table instead of each deal's own values: "
                   f"{100 * differ:.2f}% of rounds decided otherwise, "
                   f"{100 * lost / 2:.4f}% of a bet per hand lost")
    return Table("switch", "Blackjack Switch: hand values for the switch", rows,
                 tuple("A" if u == 1 else "T" if u == 10 else str(u) for u in ups), grid,
                 notes)


def advantage_table(solution, strategy: str = "optimal") -> Table:
    """The round's EV by dealer column and overall, for composition-dependent optimal play
    (``strategy="optimal"``) or for the basic-strategy chart (``"basic"``)."""
    # (lazy: the default command prints without numpy)
    import numpy as np
    if strategy not in ("optimal", "basic"):
        raise ValueError(f"strategy must be 'optimal' or 'basic', got {str(strategy)[:40]!r}")
    by_key = (solution.ev_by_dealer if strategy == "optimal"
              else chart_values_by_dealer(solution))
    columns = solution.dealer_columns()
    vals = []
    for _, keys in columns:
        ws = [solution.deal.weights[k] for k in keys]
        vals.append(sum(w * by_key[k] for w, k in zip(ws, keys)) / sum(ws))
    overall = sum(solution.deal.weights[k] * v for k, v in by_key.items())
    values = np.array([vals + [overall]])
    cols = tuple(c for c, _ in columns) + ("overall",)
    how = (f"composition-dependent optimal play, split {solution.split}" if strategy == "optimal"
           else "the basic-strategy chart (table 'strategy') for every decision, split hands "
                "included")
    return Table("advantage", "player advantage", ("EV",), cols, values,
                 _notes(solution.rules, solution.shoe,
                        "EV per initial bet of a whole round, unconditioned (dealer naturals "
                        f"included); {_first_round(solution)}; each dealer card (or dealer hand): "
                        "the EV given it; overall: the round's EV", how))


def surrender_table(solution) -> Table:
    """What surrendering gains over the best other action, per row and upcard (positive:
    surrender).  Surrender's own EV is the same in every cell where the dealer has peeked
    (-0.5 given no dealer blackjack), so the gain is the informative number; the notes give
    surrender's EV.  ``ev_table(solution, "surrender")`` has the EVs themselves.  Where the
    rules offer no surrender the table says so and is empty."""
    # (lazy: the default command prints without numpy)
    import numpy as np
    rules = solution.rules
    if rules.surrender == "none":
        cols = tuple(c for c, _ in _playable_columns(solution))
        values = np.full((len(EV_ROWS), len(cols)), np.nan)
        return Table("surrender", "surrender gain", EV_ROWS, cols, values,
                     _notes(rules, solution.shoe,
                            "surrender is not offered under these rules (see --surrender)"))
    surrender = ev_table(solution, "surrender")
    others = {a: ev_table(solution, a) for a in ("stand", "hit", "double")}
    best_other = np.fmax.reduce([t.values for t in others.values()])
    gain = surrender.values - best_other
    if rules.surrender == "early" or not solution.conditioned:
        own = ("surrender's own EV: -0.5 where the dealer cannot have a natural; against A "
               "and T without a peek, -0.5 less half the chance of a dealer natural "
               "(unconditioned)")
    else:
        own = "surrender's own EV: -0.5 in every cell (given no dealer blackjack)"
    return Table("surrender", "surrender gain", EV_ROWS, surrender.columns, gain,
                 _notes(rules, solution.shoe,
                        f"EV of surrendering minus EV of the best of stand, hit and double, per "
                        f"initial bet ({_measure(solution)}); positive: surrender is best "
                        f"(pairs compared without splitting)", own,
                        f"{rules.surrender} surrender"))


def insurance_table(solution) -> Table:
    """EV of an insurance bet (pays 2:1) against a dealer ace, with one more card known."""
    # (lazy: the default command prints without numpy)
    import numpy as np
    if solution.rules.hole_card == "exposed":
        raise ValueError("insurance: not offered in the exposed game (both dealer cards are "
                         "known, so a natural is never in doubt)")
    rows = ("ace only",) + tuple(f"{label(r)} out" for r in range(1, 11))
    values = np.full((len(rows), 1), np.nan)
    values[0, 0] = solution.insurance_ev()
    for r in range(1, 11):
        try:
            values[r, 0] = solution.insurance_ev((r,))
        except ValueError:
            pass  # the shoe has no such card left
    return Table("insurance", "insurance EV", rows, ("EV",), values,
                 _notes(solution.rules, solution.shoe,
                        "EV per unit insured (pays 2:1), the dealer's ace and the named card "
                        "out of the shoe"))


def build_table(name: str, rules: Rules, shoe: Shoe | None, solution_factory,
                given_no_blackjack: bool = False, advantage_strategy: str = "optimal") -> Table:
    """Build a named table; ``solution_factory()`` gives the (cached) solve when needed."""
    if name not in TABLE_NAMES:
        raise ValueError(f"unknown table {name!r}; known: {', '.join(TABLE_NAMES)}")
    if name == "dealer":
        return dealer_outcome_table(rules, shoe=shoe, given_no_blackjack=given_no_blackjack)
    sol = solution_factory()
    if name in ("stand", "hit", "double", "split", "optimal"):
        return ev_table(sol, name)
    return {"initial": initial_table, "strategy": strategy_table,
            "advantage": lambda sol: advantage_table(sol, advantage_strategy),
            "surrender": surrender_table, "exceptions": exceptions_table,
            "insurance": insurance_table}[name](sol)
