"""Pictures (PNG or SVG) with matplotlib, the optional ``[plot]`` extra: a strategy chart in
the colours of the printed charts, and a heat map of an EV table."""
from __future__ import annotations

import io

from .cells import chart_sections as _sections
from .terminal import ACTION_COLORS, FREE_CODE_WORDS, action_letter

PICTURE_FORMATS = ("png", "svg")


def _pyplot():
    try:
        import matplotlib
    except ImportError:
        raise ValueError("--format png/svg needs matplotlib: pip install 'bjsolve[plot]'") from None
    matplotlib.use("Agg")      # no display needed
    import matplotlib.pyplot as plt
    return plt


def render_picture(tables, fmt: str) -> bytes:
    """One picture for ``tables``: the strategy chart if there is one (with the house edge
    in its title when an edge table comes along), else a heat map of the one EV table."""
    if fmt not in PICTURE_FORMATS:
        raise ValueError(f"unknown picture format {fmt!r}; known: png, svg")
    tables = list(tables)
    edge = next((t for t in tables if t.name == "edge"), None)
    charts = [t for t in tables if t.kind == "strategy"]
    if charts:
        fig = chart_figure(charts[0], edge)
    else:
        numeric = [t for t in tables if t.name != "edge"]
        if len(numeric) != 1:
            raise ValueError("a picture shows one table: name one table (or the strategy chart)")
        fig = heatmap_figure(numeric[0])
    buf = io.BytesIO()
    fig.savefig(buf, format=fmt, bbox_inches="tight", dpi=150)
    _pyplot().close(fig)
    return buf.getvalue()


def _title_lines(table, edge=None):
    rules = next((n[7:] for n in table.notes if n.startswith("rules: ")), "")
    lines = [table.title[:1].upper() + table.title[1:] + (f": {rules}" if rules else "")]
    if edge is not None:
        chart, optimal = (float(edge.values[i][0]) for i in range(2))
        lines.append(f"house edge {100 * chart:.3f}% with this chart, {100 * optimal:.3f}% "
                     "with composition-dependent optimal play"
                     + (" (negative: a player advantage)" if min(chart, optimal) < 0 else ""))
    return lines


def chart_figure(table, edge=None):
    """The chart: hard totals, soft totals and pairs, dealer upcards across, a legend."""
    plt = _pyplot()                      # first: it names the [plot] extra if missing
    from matplotlib.patches import Patch

    rows = [str(r) for r in table.rows]
    cols = [str(c) for c in table.columns]
    index = {r: i for i, r in enumerate(rows)}
    sections = [(t, rs) for t, rs in _sections(rows) if rs]
    n_lines = sum(len(rs) + 1 for _, rs in sections)
    fig, ax = plt.subplots(figsize=(0.55 * len(cols) + 1.6, 0.3 * n_lines + 1.8))
    y = 0
    for title, rs in sections:
        ax.text(-0.5, y + 0.5, title, fontweight="bold", va="center", ha="left", fontsize=9)
        y += 1
        for r in rs:
            ax.text(-0.6, y + 0.5, r, va="center", ha="right", fontsize=8)
            for j, code in enumerate(table.values[index[r]]):
                code = str(code)
                color = ACTION_COLORS.get(action_letter(code), (None, "#ffffff", ""))[1]
                ax.add_patch(plt.Rectangle((j, y), 1, 1, facecolor=color, edgecolor="#666",
                                           linewidth=0.5))
                ax.text(j + 0.5, y + 0.5, code, va="center", ha="center", fontsize=7,
                        color="white" if action_letter(code) in ("S", "D") else "black", fontweight="bold")
            y += 1
    for j, c in enumerate(cols):
        ax.text(j + 0.5, -0.4, c, ha="center", va="bottom", fontsize=8, fontweight="bold")
    ax.set_xlim(-1.6, len(cols))
    ax.set_ylim(y, -1.2)
    ax.axis("off")
    ax.set_title("\n".join(_title_lines(table, edge)), fontsize=9, loc="left")
    legend = [Patch(facecolor=v[1], edgecolor="#666", label=f"{k} {v[2]}")
              for k, v in ACTION_COLORS.items()]
    codes = {str(v) for row in table.values for v in row}
    for code, meaning in FREE_CODE_WORDS:     # the games' free plays, where the chart has them
        if any(c == code or c.startswith(code) for c in codes):
            color = ACTION_COLORS[action_letter(code)][1]
            legend.append(Patch(facecolor=color, edgecolor="#666", label=f"{code} {meaning}"))
    ax.legend(handles=legend, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=5,
              fontsize=7, frameon=False)
    return fig


def heatmap_figure(table):
    """An EV (or probability) table as a heat map, values written in the cells."""
    # (lazy, like matplotlib: pictures only)
    import numpy as np
    plt = _pyplot()
    values = np.array([[np.nan if isinstance(v, str) or v is None else float(v) for v in row]
                       for row in table.values])
    fig, ax = plt.subplots(figsize=(0.62 * len(table.columns) + 2.2,
                                    0.26 * len(table.rows) + 1.6))
    finite = values[np.isfinite(values)]
    bound = float(np.max(np.abs(finite))) if finite.size else 1.0
    diverging = table.style == "ev"
    image = ax.imshow(values, cmap="RdYlGn" if diverging else "viridis", aspect="auto",
                      vmin=-bound if diverging else None, vmax=bound if diverging else None)
    ax.set_xticks(range(len(table.columns)), [str(c) for c in table.columns], fontsize=8)
    ax.set_yticks(range(len(table.rows)), [str(r) for r in table.rows], fontsize=7)
    ax.xaxis.tick_top()
    for i in range(values.shape[0]):
        for j in range(values.shape[1]):
            if np.isfinite(values[i, j]):
                ax.text(j, i, f"{values[i, j]:+.3f}" if diverging else f"{values[i, j]:.3f}",
                        ha="center", va="center", fontsize=5.5)
    unit = "EV per initial bet" if diverging else "probability"
    fig.colorbar(image, ax=ax, label=unit, shrink=0.6)
    measure = next((n for n in table.notes if "EV per" in n or "probabilit" in n), "")
    ax.set_title("\n".join(_title_lines(table) + ([measure[:100]] if measure else [])),
                 fontsize=8, loc="left", pad=26)
    return fig
