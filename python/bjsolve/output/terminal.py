"""Colour for strategy charts on a terminal (ANSI codes), in the colours of the usual printed
charts: hit green, stand red, double blue, split yellow, surrender grey."""
from __future__ import annotations

# first letter of an action code -> (text style, meaning); shared with the HTML chart
ACTION_COLORS = {
    "H": ("black on green", "#5cb85c", "hit"),
    "S": ("white on red", "#d9534f", "stand"),
    "D": ("white on blue", "#3b7dd8", "double"),
    "P": ("black on yellow", "#f0c93a", "split"),
    "R": ("black on white", "#d6d6d6", "surrender"),
}


# the games' free plays (Rules.free_doubles, Rules.free_splits) in the legends of the
# coloured charts: (code, meaning); "FP" stands for FP, FPh, FPs, FPd
FREE_CODE_WORDS = (("Fh", "free double, else hit"), ("Fs", "free double, else stand"),
                   ("FP", "free split"))


def action_letter(code: str) -> str:
    """The ACTION_COLORS key of a chart code: its first letter, except that a free play
    (Fh, Fs: a free double; FP, FPh, ...: a free split) takes the colour of its action."""
    if code.startswith("FP"):
        return "P"
    if code.startswith("F"):
        return "D"
    return code[:1]


def code_style(code: str) -> str | None:
    entry = ACTION_COLORS.get(action_letter(code)) if code else None
    return entry[0] if entry else None


# ANSI colour numbers of the style words (foreground 30 + n, background 40 + n)
_ANSI = {"black": 0, "red": 1, "green": 2, "yellow": 3, "blue": 4, "white": 7}


def _sgr(style: str) -> str:
    """The ANSI escape that starts a "FG on BG" style."""
    fg, _, bg = style.partition(" on ")
    return f"\x1b[{30 + _ANSI[fg]};{40 + _ANSI[bg]}m"


def colored_chart(table, plain: str) -> str:
    """``plain``, the text chart of ``table`` (``to_text`` without colour), with each action
    code on its colour (ANSI codes, written directly: importing a terminal library would cost
    more than the chart)."""
    rows = {str(r) for r in table.rows}
    out = []
    for line in plain.splitlines():
        words = line.split()
        if words and words[0] in rows and not line.startswith("#"):
            pos = len(line) - len(line.lstrip()) + len(words[0])
            parts = [line[:pos]]
            for word in words[1:]:
                start = line.index(word, pos)
                style = code_style(word)
                if style:   # the whole two-character cell, so the colours form blocks
                    cell = max(start - max(2 - len(word), 0), pos)
                    parts.append(line[pos:cell] + _sgr(style) + line[cell:start + len(word)]
                                 + "\x1b[0m")
                else:
                    parts.append(line[pos:start + len(word)])
                pos = start + len(word)
            parts.append(line[pos:])
            line = "".join(parts)
        out.append(line)
    return "\n".join(out) + "\n"
