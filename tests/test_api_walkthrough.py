"""The public API as a quantitative analyst meets it in a notebook: every spelling a user
types gives the same answer or a clear error (never a silent None or a wrong number),
results print compactly, and results pickle for process pools.

Expected values come from identities between spellings or between API routes, never from
the engine's own output pasted back.
"""
import pickle

import numpy as np
import pytest

import bjsolve
from bjsolve import Rules, indices


@pytest.fixture(scope="module")
def hilo_6d():
    return indices.generate_indices(Rules(decks=6), "hilo")


# ---- index look-ups --------------------------------------------------------------------

@pytest.mark.parametrize("row, upcard, play", [
    ("16", "T", "stand"), ("16", "10", "stand"), ("16", "K", "stand"), (16, 10, "stand"),
    (np.int64(16), np.int64(10), "stand"), ("16", 10, "Stand"), ("T6", 10, "stand"),
    ((10, 6), 10, "stand"),
])
def test_index_accepts_every_spelling(hilo_6d, row, upcard, play):
    # 16 v T stand is an index play of every published Hi-Lo list; every spelling of it
    # must find the same line as the canonical one (it used to return None, read "never")
    canonical = hilo_6d.index("16", 10, "stand")
    assert canonical is not None
    assert hilo_6d.index(row, upcard, play) == canonical


@pytest.mark.parametrize("row, upcard, play, field", [
    ("16", 10, "fly", "play"), ("16", 11, "stand", "upcard"), ("X9", 10, "stand", "row"),
    ("21", 10, "stand", "row"), (True, 10, "stand", "row"), ("16", "TT", "stand", "upcard"),
])
def test_index_refuses_what_does_not_exist(hilo_6d, row, upcard, play, field):
    with pytest.raises((ValueError, TypeError), match=field):
        hilo_6d.index(row, upcard, play)


def test_index_table_repr_is_a_summary(hilo_6d):
    text = repr(hilo_6d)
    assert len(text) < 400, len(text)     # it printed ~100 KB of lines
    assert "hilo" in text and f"{len(hilo_6d.lines)} index lines" in text
