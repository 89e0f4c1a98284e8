"""bjsolve sidebet: a side bet's exact outcome probabilities and house edge for a pay table
and shoe (suits counted); --count adds the effects of removal and the best linear count (by
rank, and by card where the bet reads suits); --list gives every side bet under every
preset pay table.

Example: bjsolve sidebet 21+3 --paytable five-tier --decks 8
         bjsolve sidebet perfect-pairs --decks 6 --remove QH,QH,5 --count
         bjsolve sidebet buster --h17 --paytable-file mytable.json
         bjsolve sidebet over-13 --decks 6 --counted --penetration 0.83
         bjsolve sidebet --list --decks 8 --format markdown
         bjsolve sidebet 21+3 --simulate 1000000 --system hilo --threshold 2
         bjsolve sidebet 21+3 --counted --system suits --simulate 200000 --threshold 3
"""
from __future__ import annotations

from . import common, counting_args

NAME = "sidebet"
HELP = "side bets (21+3, Perfect Pairs, Lucky Ladies, Buster, ...): exact edge, EORs, best count"


def add_arguments(parser) -> None:
    parser.add_argument("bet", nargs="?", metavar="NAME",
                        help="the side bet: 21+3, perfect-pairs, lucky-ladies, lucky-lucky, "
                             "royal-match, match-the-dealer, over-13, under-13, exactly-13, "
                             "insurance, bust-it, buster, bust-bonus, push-22")
    g = parser.add_argument_group("side bet")
    table = g.add_mutually_exclusive_group()
    table.add_argument("--paytable", metavar="PRESET",
                       help="a preset pay table of the bet (default: its first preset; "
                            "docs/side-bets.md lists them)")
    table.add_argument("--paytable-file", metavar="FILE",
                       help="a JSON object {outcome: pay to one} read from FILE (default: none, "
                            "the preset)")
    g.add_argument("--decks", type=common.whole_number(1, 10000), default=6, metavar="N",
                   help="number of decks (default: 6)")
    g.add_argument("--spanish", action="store_true",
                   help="Spanish decks: 48 cards, the four tens taken out (default: off)")
    s17 = g.add_mutually_exclusive_group()
    s17.add_argument("--h17", dest="hit_soft_17", action="store_true", default=False,
                     help="dealer hits soft 17 (dealer bets only)")
    s17.add_argument("--s17", dest="hit_soft_17", action="store_false",
                     help="dealer stands on soft 17 (default)")
    g.add_argument("--remove", metavar="CARDS",
                   help="cards out of the shoe, e.g. QH,7S,5 (a rank alone: its suit "
                        "unknown, spread over the suits; default: a full shoe)")
    # the words of CountedGame and simulate (counting_args.STRATEGIES); left out: two cards
    g.add_argument("--strategy", type=common.lower_choice(counting_args.STRATEGIES),
                   choices=counting_args.STRATEGIES, default=None,
                   help="the dealer-drawn bets (bust-it, buster, bust-bonus, push-22) with "
                        "every spot's hands played out before the dealer draws, by basic "
                        "(the chart of --rules) or optimal play; the figures are the same "
                        "(docs/side-bets.md) and the notes say which (default: none, only "
                        "the player's first two cards out, as published tables have it)")
    g.add_argument("--spots", type=common.whole_number(1, 7), default=1, metavar="N",
                   help="with --strategy basic|optimal: the player's spots, each played out "
                        "(default: 1)")
    g.add_argument("--rules", dest="rules_text", metavar="SUMMARY",
                   help="with --strategy basic|optimal: the game the hands are played in, "
                        "e.g. \"DAS LS SPL3\" (decks and soft 17 from --decks and --h17; "
                        "default: bjsolve.Rules())")
    g.add_argument("--dealer", metavar="CARD",
                   help="bust-bonus only: the dealer's up card the bet is made against "
                        "(default: every up card)")
    g.add_argument("--count", action="store_true",
                   help="add the effects of removal of each rank and suit and the best "
                        "linear count (with published counts' correlations), and for a bet "
                        "that reads suits the best count over cards (rank and suit) and the "
                        "suit counts' figures (default: off)")
    g.add_argument("--counted", action="store_true",
                   help="how often the count (--system) gives the bet an edge over "
                        "a shoe, and the units won per 100 rounds betting one unit then "
                        "(default: off)")
    g.add_argument("--system", metavar="NAME|TAGS",
                   help="with --counted: a count system (hilo, ko, ...), 10 tags A..T, 13 "
                        "tags A..K or 52 by card (AS, AH, AD, AC, 2S, ..., KC); suits: the "
                        "four suit counts; red-black: the red-black suit count; cards: the "
                        "bet's best level-1 count over cards (default: the bet's best "
                        "level-1 count by rank)")
    g.add_argument("--penetration", type=common.positive_number, default=0.75, metavar="P",
                   help="with --counted: the share of the shoe dealt before the shuffle "
                        "(default: 0.75)")
    g.add_argument("--cards-per-round", type=common.positive_number, default=5.5,
                   metavar="C", help="with --counted: cards dealt per round (default: 5.5)")
    g.add_argument("--simulate", type=common.rounds_count(10**9), metavar="ROUNDS",
                   help="also simulate ROUNDS rounds (an independent check of the exact "
                        "figures; default: off)")
    g.add_argument("--threshold", type=common.finite_number, metavar="TC",
                   help="with --simulate and --system: bet only at a true count >= TC "
                        "(default: bet every round)")
    g.add_argument("--seed", type=common.whole_number(0, 2**64 - 1), default=1,
                   help="with --simulate: the random seed (default: 1)")
    g.add_argument("--list", action="store_true",
                   help="every side bet under every preset pay table on this shoe (default: "
                        "off)")
    common.add_output_arguments(parser)


def _paytable(args):
    if args.paytable_file is None:
        return args.paytable
    import json
    try:
        with open(args.paytable_file, encoding="utf-8") as f:
            data = json.load(f)
    except OSError as exc:
        raise common.UsageError(f"--paytable-file {args.paytable_file}: cannot read it: "
                                f"{exc.strerror or common.one_line(exc)}") from None
    except ValueError as exc:
        raise common.UsageError(f"--paytable-file {args.paytable_file}: not JSON: "
                                f"{common.one_line(exc)}") from None
    if not isinstance(data, dict):
        raise common.UsageError(f"--paytable-file {args.paytable_file}: give a JSON object "
                                "{\"outcome\": pay, ...}")
    return data


def _shoe(args):
    from ..sidebets import resolve_shoe
    cards = ()
    if args.remove is not None:
        cards = tuple(args.remove.replace(",", " ").split())
        if not cards:
            raise common.UsageError("--remove: give the cards to remove, e.g. --remove QH,7S,5")
    return resolve_shoe(decks=args.decks, remove=cards, spanish=args.spanish)


def _play(args) -> dict:
    """The play keywords of the sidebets functions from --strategy, --spots, --rules."""
    if args.strategy is None:
        if args.spots != 1 or args.rules_text is not None:
            raise common.UsageError("--spots and --rules go with --strategy basic|optimal "
                                    "(the hands played out)")
        return {}
    from ..model import Rules
    rules = None
    if args.rules_text is not None:
        import dataclasses
        text = args.rules_text.strip()
        if not text:
            raise common.UsageError("--rules: give the rules, e.g. --rules \"DAS LS\"")
        parsed = Rules.parse(text)
        rules = dataclasses.replace(parsed, decks=args.decks, hit_soft_17=args.hit_soft_17)
    return {"strategy": args.strategy, "spots": args.spots, "rules": rules}


def run(args) -> int:
    import numpy as np

    from ..output import Table
    from ..sidebets import best_count, edge, edges_table, effects_of_removal
    from ..sidebets.analysis import bet
    shoe = _shoe(args)
    soft = "H17" if args.hit_soft_17 else "S17"
    shoe_note = f"shoe: {shoe.describe()}; dealer {soft} (dealer bets only)"
    if args.list:
        if args.bet is not None:
            raise common.UsageError("--list lists every bet: leave NAME out")
        results = edges_table(shoe=shoe, hit_soft_17=args.hit_soft_17, **_play(args))
        rows = tuple(f"{r.bet} / {r.paytable.name}" for r in results)
        values = np.array([[r.house_edge, r.sd] for r in results])
        common.emit(Table(
            "sidebets", "house edge of every side bet and preset pay table", rows,
            ("house edge", "SD"), values,
            (shoe_note, "house edge = -EV per unit bet; SD per unit bet; conventions: "
             "bjsolve sidebet NAME, docs/side-bets.md",
             "the dealer-drawn bets: " + (
                 "only the player's first two cards out (no --strategy)"
                 if args.strategy is None else
                 (f"every spot's hands played out ({args.strategy}, {args.spots} spot(s)) "
                  "before the dealer draws; the same figures as with two cards"))),
            style="prob", units="fractions of the side bet",
            records=[{"bet": r.bet, "paytable": r.paytable.name, "house_edge": r.house_edge,
                      "sd": r.sd, "source": r.paytable.source} for r in results]), args)
        return 0
    if args.bet is None:
        raise common.UsageError("give the side bet's NAME (or --list)")
    table = _paytable(args)              # read once: --count uses it too
    play = _play(args)
    result = edge(args.bet, table, shoe=shoe, hit_soft_17=args.hit_soft_17,
                  dealer=args.dealer, **play)
    names = tuple(result.probabilities)
    if result.dealer is not None:        # against one up card: the others' rows are empty
        names = tuple(o for o in names if result.probabilities[o] > 0 or o == "no win")
    pays = [result.paytable.pay(o) if o != "no win" else -1.0 for o in names]
    probs = [result.probabilities[o] for o in names]
    notes = (shoe_note, f"pay table {result.paytable.name}: {result.paytable.source}",
             f"conventions: {result.convention}",
             f"house edge {result.house_edge:.6%}; EV {result.expected_value:+.8f}, SD "
             f"{result.sd:.6f} per unit bet")
    tables = [Table(
        "outcomes", f"{result.title}: outcomes, pays (to one) and returns", names,
        ("pays", "probability", "return"),
        np.array([[p, q, p * q] for p, q in zip(pays, probs)]), notes, style="prob",
        units="pays to one; probabilities; returns per unit bet",
        column_styles={"pays": "units", "return": "ev"},
        records=[{"outcome": o, "pays": p, "probability": q, "return": p * q}
                 for o, p, q in zip(names, pays, probs)] + [
                     {"outcome": "total", "expected_value": result.expected_value,
                      "house_edge": result.house_edge, "sd": result.sd}])]
    if args.count:
        effects = effects_of_removal(args.bet, table, shoe=shoe,
                                     hit_soft_17=args.hit_soft_17, dealer=args.dealer,
                                     **play)
        count = best_count(args.bet, effects=effects)
        rows = count.ranks
        tables.append(Table(
            "removal", "effects of removal of one card, and the best linear count", rows,
            ("EOR", "tag"), np.array([[e, t] for e, t in zip(count.eor, count.tags)]),
            (f"EOR: change in the EV per unit bet when one card of the rank (of a suit in "
             f"proportion) leaves the shoe; tags: the least-squares count, level "
             f"{count.level}, correlation {count.correlation:.4f}",
             "published counts' correlations with the EORs: " + ", ".join(
                 f"{k} {v:+.3f}" for k, v in count.published.items())),
            style="ev", units="EV per unit bet; tags", column_styles={"tag": "units"},
            records=[{"rank": r, "eor": e, "tag": t} for r, e, t in
                     zip(count.ranks, count.eor, count.tags)]))
        if bet(result.bet).suits_matter:
            suits = tuple(effects.by_suit)
            tables.append(Table(
                "suits", "effects of removal of one card of each suit", suits, ("EOR",),
                np.array([[effects.by_suit[s]] for s in suits]),
                ("one card of the suit, of a rank in proportion to the shoe",),
                style="ev", units="EV per unit bet"))
            tables.append(_cards_table(args, table, effects))
    if args.counted:
        tables.append(_counted_table(args, result, shoe))
    if args.simulate is not None:
        tables.append(_simulated_table(args, result, play))
    elif args.threshold is not None:
        raise common.UsageError("--threshold needs --simulate ROUNDS")
    common.emit(tables, args)
    return 0


def _cards_table(args, table, effects):
    """The best linear count over cards (rank and suit), by rank and suit."""
    import numpy as np

    from ..model.suited_shoe import RANK_NAMES, SUIT_NAMES
    from ..output import Table
    from ..sidebets import suit_count
    count = suit_count(args.bet, table, effects=effects, hit_soft_17=args.hit_soft_17)
    values = np.full((13, 8), np.nan)
    for card, eor, tag in zip(count.cards, count.eor, count.tags):
        r, s = RANK_NAMES.index(card[0]), SUIT_NAMES.index(card[1])
        values[r, s], values[r, 4 + s] = eor, tag
    columns = tuple(f"EOR {s}" for s in SUIT_NAMES) + tuple(f"tag {s}" for s in SUIT_NAMES)
    pair = ("not computed (a dealer bet, or a shoe of fractional counts)"
            if count.suit_pair_effect != count.suit_pair_effect
            else f"{count.suit_pair_effect:+.3e}")
    return Table(
        "cards", "effects of removal by card, and the best linear count over cards",
        RANK_NAMES, columns, values,
        (f"tags: the least-squares count over the 52 cards, level {count.level}, correlation "
         f"{count.correlation:.4f} (the best count by rank of that level: "
         f"{count.rank_correlation:.4f})",
         f"two cards of one suit seen, against two of two suits (the four suit counts' "
         f"signal): EV change {pair} per unit bet",
         "published counts' correlations over cards: " + ", ".join(
             f"{k} {v:+.3f}" for k, v in count.published.items()),
         "--counted --system cards bets this count (level 1); --system suits the four suit "
         "counts"),
        style="ev", units="EV per unit bet; tags",
        column_styles={f"tag {s}": "units" for s in SUIT_NAMES},
        records=[{"card": c, "eor": e, "tag": t} for c, e, t in
                 zip(count.cards, count.eor, count.tags)] + [
                     {"level": count.level, "correlation": count.correlation,
                      "rank_correlation": count.rank_correlation,
                      "suit_pair_effect": count.suit_pair_effect,
                      "published": count.published}])


def _system(args, result, shoe):
    """--system as counted_sidebet and simulate_sidebet take it ("cards": the bet's best
    level-1 count over cards, as {card: tag})."""
    tags = _tags(args.system)
    if isinstance(tags, str) and tags.strip().lower() == "cards":
        from ..sidebets import suit_count
        count = suit_count(args.bet, result.paytable, shoe=shoe, max_level=1,
                           hit_soft_17=args.hit_soft_17)
        return dict(zip(count.cards, count.tags))
    return tags


def _tags(text):
    if text is None:
        return None
    parts = [p for p in text.replace(",", " ").split() if p]
    if len(parts) == 1 and not parts[0].lstrip("+-").replace(".", "").isdigit():
        return parts[0]
    try:
        return tuple(float(p) for p in parts)
    except ValueError:
        raise common.UsageError(f"--system: {text[:40]!r} is not a count system or a list of "
                                "10, 13 or 52 numbers") from None


def _counted_table(args, result, shoe):
    import numpy as np

    from ..output import Table
    from ..sidebets import best_count, counted_sidebet
    if args.remove is not None:
        raise common.UsageError("--counted deals whole shoes: leave out --remove")
    tags = _system(args, result, shoe)
    if tags is None:
        # level 1 (tags -1, 0, +1): three tag classes keep the exact model quick
        tags = best_count(args.bet, result.paytable, shoe=shoe, max_level=1).tags
    counted = counted_sidebet(args.bet, result.paytable, system=tags, shoe=shoe,
                              penetration=args.penetration,
                              cards_per_round=args.cards_per_round,
                              hit_soft_17=args.hit_soft_17)
    # the text shows the true counts of at least one round in 10 million
    shown = {tc: sv for tc, sv in counted.by_true_count.items() if sv[0] >= 1e-7}
    if counted.count == "suits":
        count_note = ("the four suit counts (the cards seen of each suit); true count: the "
                      "richest unseen suit's excess over a quarter of the cards unseen, per "
                      "deck unseen")
        information = "the four suit counts"
    else:
        count_note = ("tags " if len(counted.tags) < 52 else
                      "tags by card (AS, AH, AD, AC, 2S, ..., KC) ") + ", ".join(
                          f"{t:g}" for t in counted.tags)
        information = "the running count"
    rows = tuple(f"{tc:+d}" for tc in shown)
    values = np.array([[share, value] for share, value in shown.values()])
    return Table(
        "counted", "the bet by true count (floored), over a shoe's rounds", rows,
        ("share of rounds", "EV given the count"), values,
        (f"{count_note}; {counted.rounds} rounds a shoe "
         f"({args.cards_per_round:g} cards a round, penetration {args.penetration:g})",
         f"betting one unit exactly when the EV given {information} (and the up card, "
         f"for a bet made after it) is positive: "
         f"{counted.bet_fraction:.4%} of rounds, edge {counted.edge_when_bet:+.4%} per bet, "
         f"{counted.gain_per_100_rounds:+.4f} units per 100 rounds",
         "exact given the model: the cards seen are hypergeometric by tag class (by suit "
         "for the suit counts); the EV given a running count averages the class totals "
         "giving it; rows: true counts of at least 1 round in 10 million"),
        style="prob", units="share of rounds; EV per unit bet",
        column_styles={"EV given the count": "ev"},
        records=[{"true_count": tc, "share": share, "ev": value}
                 for tc, (share, value) in counted.by_true_count.items()])


def _simulated_table(args, result, play):
    """The simulator's figures beside the exact ones (flat, or at a true-count threshold)."""
    import numpy as np

    from ..output import Table
    from ..sidebets import counted_sidebet, simulate_sidebet
    from ..sidebets.simulate import OFFERED_WHEN
    if args.remove is not None or args.spanish or args.dealer is not None:
        raise common.UsageError("--simulate deals whole standard shoes: leave out --remove, "
                                "--spanish and --dealer")
    if (args.threshold is None) != (args.system is None):
        raise common.UsageError("--simulate: give --system and --threshold together (or "
                                "neither, for a flat bet)")
    if args.threshold is not None and args.bet in OFFERED_WHEN:
        # counted_sidebet reports these bets' value per bet offered at each count, not per
        # round, so its rounds by true count give no figure to set beside the simulator's
        raise common.UsageError(f"--threshold: {args.bet} is made only in some rounds; "
                                "simulate it flat (leave out --system and --threshold)")
    tags = _system(args, result, _shoe(args))
    sim = simulate_sidebet(args.bet, result.paytable, decks=args.decks, rounds=args.simulate,
                           seed=args.seed, penetration=args.penetration,
                           cards_per_round=args.cards_per_round, system=tags,
                           threshold=args.threshold, hit_soft_17=args.hit_soft_17, **play)
    if args.threshold is None:
        rows = ("EV per unit bet",)
        values = np.array([[sim.mean, sim.se_mean, result.expected_value]])
        note = ("flat: every round bet" if args.bet not in OFFERED_WHEN else
                "flat: bet in every round it is offered (the exact figure is given that)")
    else:
        counted = counted_sidebet(args.bet, result.paytable, system=tags, decks=args.decks,
                                  penetration=args.penetration,
                                  cards_per_round=args.cards_per_round,
                                  hit_soft_17=args.hit_soft_17)
        bet = [(s, v) for tc, (s, v) in counted.by_true_count.items() if tc >= args.threshold]
        share = sum(s for s, _ in bet)
        gain = 100 * sum(s * v for s, v in bet)
        rows = ("share of rounds bet", "units per 100 rounds")
        values = np.array([[sim.bet_fraction, sim.se_bet_fraction, share],
                           [sim.gain_per_100_rounds, sim.se_gain_per_100_rounds, gain]])
        suits = "; the four suit counts: the richest suit's" if counted.count == "suits" else ""
        note = (f"bet at a true count >= {args.threshold:g} (floored, decks unseen exact"
                f"{suits}); exact: counted_sidebet's rounds by true count")
    return Table(
        "simulated", "the simulator beside the exact figures", rows,
        ("simulated", "SE", "exact"), values,
        (note, (f"{sim.rounds:,} rounds in {sim.shoes:,} shoes (seed {args.seed}), "
                f"{args.cards_per_round:g} cards a round, penetration {args.penetration:g}; "
                "SE from the spread between shoes; agreement within about 4 SE is expected")),
        style="ev", units="per unit bet or per 100 rounds",
        records=[{"figure": r, "simulated": v[0], "se": v[1], "exact": v[2]}
                 for r, v in zip(rows, values)])
