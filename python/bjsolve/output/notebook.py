"""Results in a notebook: the HTML a result shows itself as (``_repr_html_``) and the
DataFrames of ``to_pandas()``.

Each result class has two short methods that call the functions here, so that the way
results look lives in one place.  The HTML is a fragment (no page, no script, no external
style sheet): a caption that says what the object is, a compact table of its figures with
their units, and notes with the conventions (conditioned on no dealer blackjack or not,
the post-split strategy class, what is exact and what is approximate).  Every text taken
from the object (rules, notes, labels such as ``<=-5``) is escaped.

pandas is optional: ``pandas_module()`` imports it when a DataFrame is asked for and
otherwise raises an ImportError that names the extra to install.
"""
from __future__ import annotations

import html
import math

from ..model.deal import dealer_label
from ..model.ranks import label
from .cells import AFTER_DOUBLE_NOTE
from .render import units
from .render_html import chart_fragment, grid_fragment

PANDAS_HINT = ("to_pandas needs pandas, which bjsolve does not require: "
               "pip install 'bjsolve[pandas]' (or pip install pandas)")

# the notebook's own table style is kept; these only align numbers and set notes apart
_NUMBER = ' style="text-align:right;font-variant-numeric:tabular-nums"'
_CAPTION = ' style="caption-side:top;text-align:left"'
_LEFT = ' style="text-align:left"'
_NOTES = ' style="font-size:85%;margin-top:0.2em"'


def pandas_module():
    """pandas, imported now (it is optional), or an ImportError naming the extra."""
    try:
        import pandas      # (lazy: pandas is optional)
    except ImportError:
        raise ImportError(PANDAS_HINT) from None
    return pandas


# ---- numbers as text ----------------------------------------------------------------------

def _e(text) -> str:
    return html.escape(str(text), quote=True)


def _missing(v) -> bool:
    return v is None or (isinstance(v, float) and math.isnan(v))


def percent(v, decimals: int = 4, signed: bool = True) -> str:
    """A fraction as a percent: -0.006154 -> '-0.6154%' ('--' for no value)."""
    if _missing(v):
        return "--"
    v = float(v)
    text = f"{100 * v:{'+' if signed else ''}.{decimals}f}%"
    if text.startswith("-") and not text.strip("-0.%"):
        text = ("+" if signed else "") + text[1:]     # -0.0000%: a rounding of zero
    return text


def probability(v) -> str:
    """A probability with its digits: 0.083333, 6.000e-06 ('--' for no value)."""
    if _missing(v):
        return "--"
    v = float(v)
    return f"{v:.3e}" if 0 < v < 1e-3 else f"{v:.6f}"


def number(v, spec: str = ",.6g") -> str:
    if _missing(v):
        return "--"
    if isinstance(v, float) and math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return format(v, spec)


# ---- HTML building blocks -----------------------------------------------------------------

def _looks_numeric(text: str) -> bool:
    return text[:1] in "+-0123456789." or text in ("--", "inf")


def _cell(text, numeric: bool = True) -> str:
    """A cell; numbers right-aligned, words left-aligned (a notebook's own style sheet
    right-aligns every cell)."""
    text = str(text)
    return f"<td{_NUMBER if numeric and _looks_numeric(text) else _LEFT}>{_e(text)}</td>"


def grid(caption: str, columns, rows, *, corner: str = "", numeric: bool = True) -> str:
    """A table: ``columns`` the header labels, ``rows`` [(row label, [cell texts])]."""
    head = (f"<tr><th>{_e(corner)}</th>" + "".join(f"<th>{_e(c)}</th>" for c in columns)
            + "</tr>")
    body = "".join(f"<tr><th>{_e(label)}</th>" + "".join(_cell(c, numeric) for c in cells)
                   + "</tr>" for label, cells in rows)
    return (f"<table><caption{_CAPTION}>{_e(caption)}</caption><thead>{head}</thead>"
            f"<tbody>{body}</tbody></table>")


def figures(caption: str, rows) -> str:
    """A table of named figures: ``rows`` [(figure, value text, meaning)]."""
    body = "".join(f"<tr><th{_LEFT}>{_e(name)}</th>{_cell(value)}"
                   f"<td{_LEFT}>{_e(meaning)}</td></tr>" for name, value, meaning in rows)
    return (f"<table><caption{_CAPTION}>{_e(caption)}</caption><thead><tr><th>figure</th>"
            f"<th>value</th><th{_LEFT}>meaning / unit</th></tr></thead><tbody>{body}</tbody>"
            "</table>")


def notes(lines) -> str:
    items = "".join(f"<li>{_e(n)}</li>" for n in lines if n)
    return f"<ul{_NOTES}>{items}</ul>" if items else ""


def block(title: str, *parts: str) -> str:
    """One result: a bold title above its tables and notes."""
    heading = f"<p><b>{_e(title)}</b></p>" if title else ""
    return f'<div class="bjsolve-result">{heading}' + "".join(parts) + "</div>"


def _measure(given_no_blackjack: bool) -> str:
    return ("given no dealer blackjack (the dealer has peeked)" if given_no_blackjack
            else "unconditioned (dealer naturals included)")


# ---- bjsolve.tables.Table (the tables the command line prints) ----------------------------

def _left_captions(fragment: str) -> str:
    """The page's fragments (bjsolve.render_html) with their captions set left: the page's
    style sheet does that, a notebook shows them without it."""
    return fragment.replace("<caption>", f"<caption{_CAPTION}>")


def chart_html(table) -> str:
    # the chart alone (its notes are not shown), except the games' note that the choice
    # after a double (redouble, rescue) has no code
    after_double = "".join(f'<p style="font-size:.8em;max-width:40em">{html.escape(n)}</p>'
                           for n in table.notes if n.startswith(AFTER_DOUBLE_NOTE))
    return _left_captions(chart_fragment(table)) + after_double


def table_html(table) -> str:
    body = _left_captions(chart_fragment(table) if table.kind == "strategy"
                          else grid_fragment(table))
    unit = units(table)
    return block("", body,     # (the table's caption is its title)
                 notes(((f"units: {unit}",) if unit else ()) + tuple(table.notes)))


# ---- the exact solve ----------------------------------------------------------------------

def _dealer_rows(solution):
    """[(dealer column, its probability, E[round | it])]: upcards, or the exposed game's
    dealer codes, the EV unconditioned."""
    out = []
    for column, keys in solution.dealer_columns():
        weights = [solution.deal.weights[k] for k in keys]
        total = sum(weights)
        ev = (solution.ev_by_dealer[keys[0]] if len(keys) == 1 else     # (no rounding)
              sum(w * solution.ev_by_dealer[k] for w, k in zip(weights, keys)) / total)
        out.append((column, total, ev))
    return out


def solution_html(solution, shoe_text: str) -> str:
    rules, ev = solution.rules, solution.expected_value
    rows = [("expected value", percent(ev),
             "% of the initial bet per round, composition-dependent optimal play, "
             "unconditioned (dealer naturals included); negative: the house's edge"),
            ("house edge", percent(-ev), "the same figure from the house's side"),
            ("shoe", shoe_text, ""),
            ("split class", solution.split,
             "post-split strategy: CDZ- plays a split hand as the same cards unsplit; "
             "CDP1 / CDP: composition-dependent post-split play"),
            ("per-hand values", "hand_ev()", "EVs of one hand are "
             + _measure(solution.conditioned) + " by default")]
    by_dealer = _dealer_rows(solution)
    dealer_grid = grid("EV of the round by dealer card (% of the initial bet, unconditioned)",
                       [c for c, _, _ in by_dealer],
                       [("probability", [probability(p) for _, p, _ in by_dealer]),
                        ("EV", [percent(v, 3) for _, _, v in by_dealer])],
                       corner="dealer")
    warn = (["WARNING: the shoe is so small that a round could run out of cards; the "
             "values follow the degenerate convention of solve and describe no real game"]
            if solution.may_run_out else [])
    return block(f"Exact solve: {rules.describe()}", figures("Figures", rows), dealer_grid,
                 notes(warn + ["the basic-strategy chart: .strategy; its EV: "
                               ".evaluate(.strategy)"]))


def solution_frame(solution):
    pd = pandas_module()
    rows = _dealer_rows(solution)
    frame = pd.DataFrame({"probability": [p for _, p, _ in rows],
                          "ev": [float(v) for _, _, v in rows]},
                         index=pd.Index([c for c, _, _ in rows], name="dealer"))
    frame.attrs.update(expected_value=float(solution.expected_value), split=solution.split,
                       rules=solution.rules.describe(), measure="unconditioned")
    return frame


def action_values_html(values) -> str:
    cards = "".join(label(c) for c in values.cards)
    best = values.best
    split = (f"; split: post-split class {values.split}" if "split" in values
             else "")
    rows = [(action + (" (best)" if action == best else ""), [percent(v)])
            for action, v in values.items()]
    return block(f"{cards} against {dealer_label(values.dealer)}",
                 grid("EV by action (% of the initial bet)", ["EV"], rows, corner="action"),
                 notes([f"EVs {_measure(values.given_no_blackjack)}{split}"]))


def dealer_outcomes_html(outcomes) -> str:
    keys = list(outcomes)
    return block(f"Dealer's final outcome, upcard {dealer_label(outcomes.dealer)}",
                 grid("probability of each final total", [str(k) for k in keys],
                      [("probability", [probability(outcomes[k]) for k in keys])],
                      corner="outcome"),
                 notes([f"probabilities {_measure(outcomes.given_no_blackjack)}; "
                        "21: three or more cards (a two-card 21 is blackjack)"]))


# ---- outcome distribution -----------------------------------------------------------------

def distribution_html(dist) -> str:
    exact = "exact" if dist.exact else f"approximate: {dist.method}"
    variance = "exact" if dist.variance_exact else "from the approximate probabilities"
    rows = [("mean", number(dist.mean, "+.6f"), "initial bets per round (its EV), exact"),
            ("SD", number(dist.sd, ".6f"), f"initial bets per round; variance {variance}"),
            ("outcomes", str(len(dist.values)), "distinct net results"),
            ("spots", str(dist.spots), "hands per round against one dealer"
             + (f"; correlation between spots {dist.correlation:.4f}" if dist.spots > 1
                else ""))]
    cumulative = 0.0
    table_rows = []
    for v, p in zip(dist.values, dist.probabilities):
        cumulative += float(p)
        table_rows.append((number(float(v), "+g"), [probability(p), probability(cumulative)]))
    title = "Outcome distribution of one round" + (f": {dist.description}"
                                                   if dist.description else "")
    return block(title,
                 figures("Figures", rows),
                 grid("P(net result)", ["probability", "P(result <= it)"], table_rows,
                      corner="net result (initial bets)"),
                 notes([f"probabilities: {exact}",
                        "unconditioned: dealer naturals included; a natural pays its payout, "
                        "a surrender -0.5"]
                       + (["WARNING: the shoe may run out within a round (degenerate "
                           "values)"] if dist.may_run_out else [])))


def distribution_frame(dist):
    pd = pandas_module()
    return pd.DataFrame({"value": dist.values, "probability": dist.probabilities})


# ---- counting -----------------------------------------------------------------------------

def _rank_labels():
    return [label(r) for r in range(1, 11)]


def removal_effects_html(effects, shoe_text: str) -> str:
    vector = effects.as_vector()
    shares = effects.shoe.probabilities()
    rows = [("EOR", [percent(v) for v in vector]),
            ("share of the shoe", [probability(p) for p in shares])]
    how = ("the strategy of the full shoe, frozen" if effects.strategy == "fixed"
           else "the strategy re-optimised for each shoe")
    return block(f"Effects of removal: {effects.rules.describe()}",
                 grid("Change in the round's EV when one card of the rank is removed "
                      "(% of the initial bet)", _rank_labels(), rows, corner="rank"),
                 figures("Figures", [
                     ("EV of the full shoe", percent(effects.base_ev),
                      "% of the initial bet, unconditioned"),
                     ("sum of share x EOR", percent(effects.weighted_mean(), 6),
                      "0 for a fixed strategy (the fundamental theorem)")]),
                 notes([f"EV unconditioned (dealer naturals included); strategy: "
                        f"{effects.strategy} ({how}); split class {effects.split}",
                        f"shoe: {shoe_text}"]))


def removal_effects_frame(effects):
    pd = pandas_module()
    return pd.DataFrame({"effect": list(effects.as_vector()),
                         "probability": [float(p) for p in effects.shoe.probabilities()]},
                        index=pd.Index(_rank_labels(), name="rank"))


def _decision_columns(effects):
    ranks = sorted(next(iter(effects.effects.values())))
    return ranks, [label(r) for r in ranks]


def decision_effects_html(effects) -> str:
    ranks, labels = _decision_columns(effects)
    rows = [(action, [percent(value)] + [percent(effects.effects[action][r]) for r in ranks])
            for action, value in effects.values.items()]
    cards = "".join(label(c) for c in effects.cards)
    return block(f"Effects of removal on {cards} against {dealer_label(effects.dealer)}",
                 grid("EV of each action, and its change when one card of the rank is "
                      "removed (% of the initial bet)", ["EV"] + labels, rows,
                      corner="action"),
                 notes([f"EVs {_measure(effects.given_no_blackjack)}; the hand's and the "
                        "upcard's cards are already out of the shoe", effects.note]))


def decision_effects_frame(effects):
    pd = pandas_module()
    ranks, labels = _decision_columns(effects)
    data = {"ev": [float(v) for v in effects.values.values()]}
    for r, name in zip(ranks, labels):
        data[name] = [float(effects.effects[a][r]) for a in effects.values]
    return pd.DataFrame(data, index=pd.Index(list(effects.values), name="action"))


def _index_rows(table):
    """One row per index number: (hand, dealer's upcard, play below, index, play from it, the exact
    crossing, the line's gain)."""
    out = []
    for (row, upcard), line in table.lines.items():
        for i, threshold in enumerate(line.thresholds):
            crossing = line.crossings[i] if i < len(line.crossings) else None
            out.append((row, label(upcard), line.plays[i], int(threshold), line.plays[i + 1],
                        crossing, table.gains.get((row, upcard))))
    return out


def index_table_html(table) -> str:
    rows = [(f"{hand} v {up}", [below, f"{index:+d}", above,
                                number(crossing, "+.2f"), percent(gain, 5)])
            for hand, up, below, index, above, crossing, gain in _index_rows(table)]
    insurance = ("never on the grid" if table.insurance is None else
                 f"at TC >= {table.insurance:+d}" + (
                     f" (break-even at {table.insurance_crossing:+.2f})"
                     if table.insurance_crossing is not None else ""))
    return block(f"Index plays: {table.system}, {table.rules.describe()} "
                 f"({table.selection})",
                 grid("Play below the index, and from it on (true count)",
                      ["play below", "index", "play from index", "crossing", "gain"], rows,
                      corner="hand"),
                 notes([f"insurance: {insurance}",
                        "index: the whole true count from which the second play is made "
                        f"(true count rounding {table.tc_rounding}); crossing: the exact "
                        "true count where the two plays are worth the same; gain: what "
                        "playing the line is worth over the play at true count 0 (% of the "
                        "initial bet per round)",
                        f"values of two-card hands {_measure(table.rules.hole_card == 'peek')}",
                        table.method()]))


def index_table_frame(table):
    pd = pandas_module()
    columns = ["hand", "dealer", "play_below", "index", "play_from", "crossing", "gain"]
    return pd.DataFrame(_index_rows(table), columns=columns)


# ---- the counted game ---------------------------------------------------------------------

def counted_game_html(game) -> str:
    sd = game.variance ** 0.5               # (numpy arrays)
    rows = [(label, [probability(f), percent(e, 3), number(float(s), ".4f")])
            for label, f, e, s in zip(game.labels, game.frequency, game.edge, sd)]
    flat = float(game.frequency @ game.edge)
    system = game.system if isinstance(game.system, str) else list(game.system)
    strategy = game.strategy + (f" ({game.indices.selection})"
                                if game.strategy == "indices" else "")
    return block(f"Counted game: {game.rules.describe()}",
                 figures("Figures", [
                     ("count", str(system), f"true count: {game.decks_estimation} decks, "
                                            f"{game.tc_rounding}"),
                     ("penetration", number(game.penetration, "g"),
                      f"cut card after {game.cut} cards"),
                     ("rounds per shoe", number(game.rounds_per_shoe, ".2f"), ""),
                     ("strategy", strategy, "insurance " + (
                         "never" if game.insurance is None else f"at TC >= {game.insurance:+d}")),
                     ("flat-bet edge", percent(flat, 3),
                      "EV per round of a flat one-unit bet, unconditioned")]),
                 grid("By true count at round start (edge: % of the bet, unconditioned; "
                      "SD: per unit bet)", ["frequency", "edge", "SD"], rows,
                      corner="true count"),
                 notes(list(game.notes())
                       + ["a ramp's figures: .evaluate(ramp, bankroll); the best ramp for a "
                          "spread: .optimal_ramp(spread)"]))


def counted_game_frame(game):
    pd = pandas_module()
    return pd.DataFrame({"frequency": game.frequency, "edge": game.edge,
                         "sd": game.variance ** 0.5},
                        index=pd.Index(list(game.labels), name="true count"))


def ramp_html(ramp) -> str:
    return block(f"Bet ramp: {ramp.describe()}",
                 grid("bet (units) from each true count on",
                      [f"{tc:+d}" for tc, _ in ramp.points],
                      [("bet", [number(b, "g") for _, b in ramp.points])],
                      corner="true count"),
                 notes(["below the first count: the first bet; spread "
                        f"{number(ramp.spread, 'g')} (largest bet over smallest above 0)"]
                       + ([f"rounds below TC {ramp.wong_in:+d} are sat out (wong in)"]
                          if ramp.wong_in is not None else [])))


def ramp_frame(ramp):
    pd = pandas_module()
    return pd.DataFrame({"true_count": [int(tc) for tc, _ in ramp.points],
                         "bet": [float(b) for _, b in ramp.points]})


def _ramp_figure(name: str, value) -> str:
    """One of a ramp's figures as text: ruin as a probability, the advantage in percent,
    money with its sign, the rest to six significant digits."""
    if name.startswith("bankroll"):
        return number(value, ",.6g")          # units (a bankroll for a target risk too)
    if "ruin" in name:
        return probability(value)
    if name.startswith("advantage"):
        return percent(value)
    return number(value, "+,.6g" if name.startswith(("win", "CE")) else ",.6g")


def ramp_result_html(result) -> str:
    units = result.units()
    money = result.money()            # {} unless a unit's worth in money was given
    rows = [(k, _ramp_figure(k, v), units.get(k, "")
             + (f" = {money[k]:,.2f} in money" if k in money else ""))
            for k, v in result.summary().items() if v is not None]
    worth = f", a unit worth {result.unit:g} in money" if result.unit else ""
    return block(f"Ramp {result.ramp.describe()}"
                 + (f", bankroll {result.bankroll:g} units" if result.bankroll else "") + worth,
                 figures("Figures per round dealt (amounts in the ramp's units)", rows),
                 notes([f"risk of ruin: {result.ror_method}" if result.ror is not None else "",
                        result.trip_ruin_note or "",
                        f"UNRELIABLE: {result.caveat}" if result.caveat else "",
                        "rounds treated as independent"]))


def ramp_result_frame(result):
    pd = pandas_module()
    units = result.units()
    summary = {k: v for k, v in result.summary().items() if v is not None}
    return pd.DataFrame({"value": [float(v) for v in summary.values()],
                         "unit": [units.get(k, "") for k in summary]},
                        index=pd.Index(list(summary), name="figure"))


# ---- simulation ---------------------------------------------------------------------------

def simulation_html(result) -> str:
    return "".join(table_html(t) for t in result.tables())


def simulation_frame(result):
    pd = pandas_module()
    frame = pd.DataFrame([vars(r) for r in result.per_true_count]).set_index("true_count")
    frame.attrs.update(result.summary())
    return frame


# ---- risk ---------------------------------------------------------------------------------

# what each figure of RiskSummary.rows() is (a row not named here shows without words)
RISK_MEANINGS = {
    "EV per round": "units (initial bets) per round", "SD per round": "units per round",
    "EV per 100 rounds": "units", "SD per 100 rounds": "units (10 x the SD per round)",
    "N0 = (SD/EV)^2 (rounds)": "rounds for the expected win to equal one SD",
    "DI = 1000 EV/SD": "no unit", "SCORE = DI^2": "units per 100 rounds for a 10,000-unit "
                                                  "bankroll, Kelly-scaled bets",
    "bankroll (units)": "units", "trip rounds": "rounds of the trip",
    "trip ruin": "probability of losing the bankroll within the rounds",
    "lifetime ruin (exact)": "probability of ever losing the bankroll",
    "lifetime ruin (dominant root)": "r^(B/h), Lundberg's upper bound",
    "lifetime ruin (normal approx.)": "exp(-2 mu B / sigma^2)"}


def risk_summary_html(summary) -> str:
    rows = [(name, probability(v) if "ruin" in name and "bankroll for" not in name
             else number(v, ",.6g"),
             "units" if name.startswith("bankroll for") else RISK_MEANINGS.get(name, ""))
            for name, v in summary.rows()]
    return block("Risk of a flat one-unit bet",
                 figures("Figures (units: initial bets; ruin: probability)", rows),
                 notes(["ruin: the bankroll falls to 0 or below; trip ruin within the "
                        "rounds given, lifetime ruin ever; rounds independent"]))


def risk_summary_frame(summary):
    pd = pandas_module()
    rows = summary.rows()
    return pd.DataFrame({"value": [float(v) for _, v in rows]},
                        index=pd.Index([k for k, _ in rows], name="figure"))


def trip_ruin_html(ruin) -> str:
    return block("Trip ruin", figures("P(ruined within the rounds)", [
        ("probability", probability(ruin.probability), "of losing the bankroll"),
        ("bankroll", number(ruin.bankroll, ",g"), "units"),
        ("trip rounds", f"{ruin.trip_rounds:,}", "rounds played"),
        ("error bound", number(ruin.error_bound, ".1e"), "rigorous, on the probability")]))


def lifetime_ruin_html(ruin) -> str:
    return block("Lifetime ruin", figures("P(ever ruined)", [
        ("probability", probability(ruin.probability), f"exact: {ruin.method}"
         if ruin.method else "exact"),
        ("dominant root", probability(ruin.dominant_root_estimate),
         "r^(B/h), Lundberg's upper bound"),
        ("normal approximation", probability(ruin.normal), "exp(-2 mu B / sigma^2)"),
        ("bankroll", number(ruin.bankroll, ",g"), "units"),
        ("error bound", number(ruin.error_bound, ".1e"), "0: exact to rounding")]))
