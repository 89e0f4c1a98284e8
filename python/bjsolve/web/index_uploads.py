"""Index files uploaded on the Counting and Simulate pages, kept by the server.

A page's state lives in its link, and a file cannot: so the page sends the file's text
(read in the browser, ``POST /api/indices``), the server checks it with the library's own
parser (``bjsolve.counting.index_file.parse_index_file``: a bad line is refused with the
parser's message) and keeps it in memory under a hash of its content.  The link carries
``indices=file:HASH``; it works as long as the server runs (and keeps the file: the most
recent ``KEPT_FILES``).  The text, not a parsed table, is what the counted game and the
simulator are given (``as_index_table`` reads an index file's text), so the page's figures
are the library's for that file.
"""
from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict

from ..counting.index_file import parse_index_file
from ..counting.indices import file_insurance

PREFIX = "file:"            # indices=file:HASH names an uploaded file
HASH_CHARS = 16             # of the SHA-256 hex digest: enough to tell files apart
KEPT_FILES = 64
MAX_BYTES = 1_000_000       # an index file of every hand is some 30 kB


class IndexUploads:
    """The uploaded index files: {key "file:HASH": (name, text)}, the newest kept."""

    def __init__(self, size: int = KEPT_FILES):
        self.size = size
        self._files: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def add(self, text: str, name: str = "") -> tuple[str, int]:
        """(key, number of index lines) for the file's text, kept; a ValueError with the
        parser's message (or the size) when the file is refused."""
        source = f"index file {name}" if name else "index file"
        if len(text.encode("utf-8")) > MAX_BYTES:
            raise ValueError(f"{source}: {len(text.encode('utf-8')):,} bytes; an index file "
                             f"is at most {MAX_BYTES:,} bytes")
        # a last newline: the text is then never read as a path or a comma list of sets
        text = text if text.endswith("\n") else text + "\n"
        plays = parse_index_file(text, source=source)
        file_insurance(text)        # its "# insurance:" line, read as the game will read it
        if not plays:
            raise ValueError(f"{source}: no index lines (only blank lines and comments); "
                             f"expected lines 'count up dbl spl sur p1 tc1 ... pk +1000' as "
                             f"'bjsolve indices --format index' writes them")
        key = PREFIX + hashlib.sha256(text.encode("utf-8")).hexdigest()[:HASH_CHARS]
        with self._lock:
            self._files.setdefault(key, (name, text))
            self._files.move_to_end(key)
            while len(self._files) > self.size:
                self._files.popitem(last=False)
        return key, len(plays)

    def get(self, key: str) -> tuple[str, str] | None:
        """(name, text) of an uploaded file, or None when the server does not keep it."""
        with self._lock:
            return self._files.get(key)


# one store for the server process: a link names a file by its content, whichever app
# (a test's or `bjsolve serve`'s) took it
UPLOADS = IndexUploads()


def is_upload(indices: str) -> bool:
    return indices.startswith(PREFIX)


def upload_label(key: str) -> str:
    """How the indices list shows an uploaded file: its name (when it came with one) and
    the start of its hash."""
    kept = UPLOADS.get(key)
    short = key[len(PREFIX):len(PREFIX) + 8]
    if kept is None:
        return f"file {short} (not kept: choose the file again)"
    return f"{kept[0] or 'uploaded file'} ({short})"
