"""What a table is and how it is shown: text, CSV, JSON, Markdown, HTML, pictures,
terminal colours, and progress bars.  Builds on ``model`` only; the solver's results use it
to print themselves.
"""

from typing import TYPE_CHECKING

from ..lazy import lazy_exports

# public name -> module that defines it (imported on first use)
_EXPORTS = {
    "Table": "table",
    "Grid": "table",
    "chart_table": "table",
    "render_many": "render",
    "to_text": "render",
    "to_csv": "render",
    "to_json": "render",
    "to_markdown": "render",
    "to_html": "render_html",
    "ProgressBar": "progress",
}

__all__ = list(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:  # the names as type checkers see them
    from .progress import ProgressBar
    from .render import render_many, to_csv, to_json, to_markdown, to_text
    from .render_html import to_html
    from .table import Grid, Table, chart_table
