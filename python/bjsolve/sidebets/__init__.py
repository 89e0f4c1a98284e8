"""Side bets, exact with suits: 21+3, Perfect Pairs, Lucky Ladies, Lucky Lucky, Royal Match,
Match the Dealer, Over/Under 13, insurance, Bust It, Buster Blackjack, Bust Bonus and Free
Bet's Push 22.

>>> from bjsolve import sidebets
>>> r = sidebets.edge("21+3", "classic", decks=6)
>>> print(f"{r.house_edge:.4%}")
3.2386%

Every probability is exact for the shoe given (a ``SuitedShoe``: counts by rank and suit;
a ``bjsolve.Shoe`` is spread evenly over suits).  Pay tables are data (``PRESETS``, or any
mapping {outcome: pay to one}).  ``effects_of_removal`` and ``best_count`` give the
effects of removing each card and the best linear count; ``edges_table`` every bet under
every preset; ``counted_sidebet`` how often a count finds an edge and what betting then
earns (card bets; a first exact model).  Conventions: docs/side-bets.md.
"""
from .analysis import (BETS, BestCount, RemovalEffects, SideBetResult, best_count, bet, edge,
                       edges_table, effects_of_removal, resolve_shoe)
from .counted import CountedSideBet, counted_sidebet
from .paytables import DEFAULT_PAYTABLE, PRESETS, PayTable, paytable, register_paytable
from .suited_shoe import SuitedShoe, parse_card

__all__ = ["BETS", "DEFAULT_PAYTABLE", "PRESETS", "BestCount", "CountedSideBet", "PayTable",
           "RemovalEffects", "SideBetResult", "SuitedShoe", "best_count", "bet",
           "counted_sidebet", "edge", "edges_table", "effects_of_removal", "parse_card",
           "paytable", "register_paytable", "resolve_shoe"]
