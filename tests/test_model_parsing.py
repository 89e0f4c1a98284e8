"""The readers of typed numbers in bjsolve.model: rounds (parse_rounds) and the blackjack
payout (parse_payout), shared by the command line, Rules.parse and the web."""
from __future__ import annotations

from fractions import Fraction

import pytest

from bjsolve import Rules
from bjsolve.model import parse_payout, parse_rounds, payout_label


@pytest.mark.parametrize("text,rounds", [
    ("100000", 100_000), ("1e6", 10**6), ("1E6", 10**6), ("2M", 2 * 10**6),
    ("2m", 2 * 10**6), ("250k", 250_000), ("1.5B", 1_500_000_000), ("1_000_000", 10**6),
    ("1,000,000", 10**6), (" 42 ", 42), ("+7", 7), ("1.1M", 1_100_000), ("2.5e5", 250_000),
    ("1", 1), ("1e20", 10**20),
])
def test_rounds_in_every_spelling(text, rounds):
    assert parse_rounds(text) == rounds


@pytest.mark.parametrize("text", ["", "x", "M", "0", "-1", "1.5", "0.0005k", "nan", "inf",
                                  "1e400", "1 000", "1e6e6", "two"])
def test_not_a_number_of_rounds_names_the_field_the_text_and_the_forms(text):
    with pytest.raises(ValueError) as caught:
        parse_rounds(text, "trip_rounds")
    message = str(caught.value)
    assert message.startswith("trip_rounds must be a whole number >= 1")
    assert "1e6" in message and "2M" in message and repr(text.strip()) in message


def test_rounds_above_the_maximum_are_refused_with_the_range():
    assert parse_rounds("1e6", maximum=10**6) == 10**6
    with pytest.raises(ValueError, match=r"whole number 1\.\.1,000,000"):
        parse_rounds("1000001", maximum=10**6)


def test_rounds_must_be_text():
    with pytest.raises(TypeError, match="rounds must be a string"):
        parse_rounds(1000)         # type: ignore[arg-type]


@pytest.mark.parametrize("text,payout", [
    ("3:2", 1.5), ("3/2", 1.5), ("1.5", 1.5), ("6:5", 1.2), ("6/5", 1.2), ("1:1", 1.0),
    (" 6 / 5 ", 1.2), ("2:1", 2.0), ("7:5", 1.4),
])
def test_payout_as_a_ratio_or_a_number(text, payout):
    assert parse_payout(text) == payout


@pytest.mark.parametrize("text", ["", "x", "3:0", "0", "0:1", "1:2:3", "6//5", "nan",
                                  "inf", "-1", "1001", "3:", ":2"])
def test_not_a_payout_names_the_field_the_text_and_the_forms(text):
    with pytest.raises(ValueError) as caught:
        parse_payout(text, "payout")
    message = str(caught.value)
    assert message.startswith("payout must be a ratio such as 3:2, 6:5 or 6/5")
    assert "up to 1000" in message and repr(text.strip()) in message


@pytest.mark.parametrize("payout", [1.5, 1.2, 1.0, 2.0, 1.4, 0.5, 1e-13, 0.1 + 0.2, 999.75])
def test_payout_label_reads_back(payout):
    assert parse_payout(payout_label(payout)) == payout


def test_rule_summaries_read_a_payout_with_a_slash():
    assert Rules.parse("6D H17 6/5").blackjack_payout == float(Fraction(6, 5))
    assert Rules.parse("6D H17 6/5") == Rules.parse("6D H17 6:5")
    with pytest.raises(ValueError, match="rules summary: blackjack_payout must be"):
        Rules.parse("6D 3:0")
