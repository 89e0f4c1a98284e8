"""Bar charts as inline SVG, made on the server from the figures the page's tables show.

The page must work offline and the tests must read a chart back, so a chart is plain SVG
text: one ``<rect class="bar">`` per value, carrying ``data-label`` (the true count),
``data-series`` and ``data-value`` (the figure at full precision, as the JSON view holds
it) and a ``<title>`` the browser shows as a tooltip.  Axes are labelled and say their
units; a zero line is drawn where values change sign.
"""
from __future__ import annotations

import html
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

WIDTH, HEIGHT = 440, 240         # the default size (px); a chart may be wider
LEFT, RIGHT, TOP, BOTTOM = 62, 12, 28, 46        # room for the axes' numbers and names


@dataclass(frozen=True)
class Series:
    """One set of bars: ``name`` (the legend and the tooltip), ``values`` (one per label,
    in the figures' own units), ``css`` (the bar's class, which gives its colour)."""
    name: str
    values: Sequence[float]
    css: str


def _e(text) -> str:
    return html.escape(str(text), quote=True)


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """About ``count`` round numbers (1, 2 or 5 times a power of ten apart) covering
    low..high (which include 0: bars start at 0)."""
    low, high = min(low, 0.0), max(high, 0.0)
    if high - low <= 0:
        high = low + 1.0
    raw = (high - low) / count
    power = math.floor(math.log10(raw))
    # (the step written in decimal, so that 2e-05 is the float nearest 2e-05)
    step = next(float(f"{m}e{power}") for m in (1, 2, 5, 10) if float(f"{m}e{power}") >= raw)
    first, last = math.floor(low / step + 1e-9), math.ceil(high / step - 1e-9)
    return [float(f"{k * step:.12g}") for k in range(first, last + 1)]


def bar_chart(chart_id: str, title: str, labels: Sequence[str], series: Sequence[Series], *,
              x_name: str, y_name: str, tick_text: Callable[[float], str],
              value_text: Callable[[float], str], width: int = WIDTH) -> str:
    """A bar chart (bars of several series side by side at each label) as an ``<svg>``
    element with id ``chart_id``.  ``tick_text`` writes the y axis' numbers,
    ``value_text`` a bar's value in its tooltip; ``x_name``/``y_name`` name the axes
    with their units; ``width`` in px."""
    values = [v for s in series for v in s.values if math.isfinite(v)]
    ticks = nice_ticks(min(values, default=0.0), max(values, default=1.0))
    low, high = ticks[0], ticks[-1]
    plot_w, plot_h = width - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def y(value: float) -> float:
        return TOP + plot_h * (high - value) / (high - low)

    slot = plot_w / max(len(labels), 1)
    bar_w = slot * 0.8 / max(len(series), 1)
    parts = [(f'<svg id="{_e(chart_id)}" class="chart-svg" xmlns="http://www.w3.org/2000/svg" '
              f'viewBox="0 0 {width} {HEIGHT}" width="{width}" height="{HEIGHT}" role="img" '
              f'aria-label="{_e(title)}">'),
             f'<text class="chart-title" x="{LEFT}" y="16">{_e(title)}</text>']
    for tick in ticks:                               # grid lines and the y axis' numbers
        ty = y(tick)
        parts.append(f'<line class="grid{" zero" if tick == 0 else ""}" x1="{LEFT}" '
                     f'x2="{width - RIGHT}" y1="{ty:.1f}" y2="{ty:.1f}"/>'
                     f'<text class="tick" x="{LEFT - 4}" y="{ty + 3.5:.1f}" '
                     f'text-anchor="end">{_e(tick_text(tick))}</text>')
    every = max(1, math.ceil(len(labels) / 24))      # x labels that fit
    for i, label in enumerate(labels):
        x0 = LEFT + i * slot + slot * 0.1
        for k, s in enumerate(series):
            v = s.values[i]
            if not math.isfinite(v):
                continue
            top, bottom = sorted((y(v), y(0.0)))
            parts.append(
                f'<rect class="bar {_e(s.css)}" x="{x0 + k * bar_w:.1f}" y="{top:.1f}" '
                f'width="{bar_w:.1f}" height="{max(bottom - top, 0.5):.1f}" '
                f'data-label="{_e(label)}" data-series="{_e(s.name)}" data-value="{v!r}">'
                f'<title>{_e(s.name)} at TC {_e(label)}: {_e(value_text(v))}</title></rect>')
        if i % every == 0:
            parts.append(f'<text class="tick" x="{LEFT + (i + 0.5) * slot:.1f}" '
                         f'y="{TOP + plot_h + 13}" text-anchor="middle">{_e(label)}</text>')
    parts.append(f'<line class="axis" x1="{LEFT}" x2="{LEFT}" y1="{TOP}" '
                 f'y2="{TOP + plot_h}"/>')
    parts.append(f'<text class="axis-name" x="{LEFT + plot_w / 2:.1f}" y="{HEIGHT - 8}" '
                 f'text-anchor="middle">{_e(x_name)}</text>')
    parts.append(f'<text class="axis-name" transform="translate(13 {TOP + plot_h / 2:.1f}) '
                 f'rotate(-90)" text-anchor="middle">{_e(y_name)}</text>')
    if len(series) > 1:                               # the legend, top right
        x = float(width - RIGHT)
        for s in reversed(series):
            item = 14 + 6.2 * len(s.name)
            x -= item
            parts.append(f'<rect class="bar {_e(s.css)}" x="{x:.1f}" y="7" width="10" '
                         f'height="10"/><text class="legend-text" x="{x + 13:.1f}" '
                         f'y="16">{_e(s.name)}</text>')
    parts.append("</svg>")
    return "".join(parts)
