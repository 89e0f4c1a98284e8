"""One value of a table as text, shared by the text, HTML and picture renderers; and the
sections (hard, soft, pairs) of a strategy chart's rows."""
from __future__ import annotations

import math
import numbers

EV_DECIMALS = 6

# how the chart's legend note on the games' after-double choice (redouble, rescue) starts:
# the coloured charts without notes (web page, notebook) show that note under the chart
AFTER_DOUBLE_NOTE = "after a double's card: "


def is_missing(v) -> bool:
    return v is None or (isinstance(v, float) and math.isnan(v))


def number(v):
    """A plain float for numpy scalars and floats, a plain int for integers (CSV and JSON
    write 100000, not 100000.0, and a 64-bit seed keeps every digit); other values
    unchanged."""
    if isinstance(v, str) or v is None:
        return v
    if isinstance(v, numbers.Integral) and not isinstance(v, bool):
        return int(v)
    try:
        return float(v)
    except (TypeError, ValueError):
        return v


def cell(v, *, style: str = "ev", decimals: int = EV_DECIMALS, signed: bool = False) -> str:
    """One number as text.  ``signed``: a percent with its sign (+0.221%), for a column
    of EVs that has negative values too."""
    v = number(v)
    if isinstance(v, str):
        return v
    if is_missing(v):
        return "--"
    if style == "percent":
        text = f"{100 * v:{'+' if signed else ''}.{max(decimals - 3, 1)}f}%"
    elif style == "units":
        text = f"{v:.6g}"              # a bet of 4 units: 4, not 4.000000
    elif style == "prob":
        if 1 < abs(v) < 1e15 and v == int(v):
            # a bankroll or a number of rounds: 400, not 400.000000 (a probability of 1
            # keeps its decimals, like the rest of its column)
            text = str(int(v))
        elif 0 < v < 1e-3:
            text = f"{v:.3e}"         # a small probability keeps its digits: 6.0e-06, not 0.000006
        elif 1000 <= abs(v) < 1e7:
            # a bankroll for a target risk or N0 (1106.5, 163787.3): seven significant
            # digits, not 1106.500000
            text = f"{v:.7g}"
        else:
            text = f"{v:.{decimals}f}"
    else:
        text = f"{v:+.{decimals}f}"
    if text.startswith("-") and not text.strip("-0.%"):
        # a tiny negative rounding (a mean that is 0 up to 1e-18) shows as zero, unsigned
        text = ("+" if style == "ev" or signed else "") + text[1:]
    return text


def chart_sections(rows):
    """Chart rows split into hard totals, soft totals and pairs."""
    pairs = [r for r in rows if len(r) == 2 and r[0] == r[1] and r[0] in "A23456789T"]
    soft = [r for r in rows if r.startswith("A") and r not in pairs]
    hard = [r for r in rows if r not in pairs and r not in soft]
    return [("Hard totals", hard), ("Soft totals", soft), ("Pairs", pairs)]
