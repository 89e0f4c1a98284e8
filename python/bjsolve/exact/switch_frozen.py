"""Blackjack Switch played with a shoe's decisions frozen on other shoes: the EV and the
outcome law of the round (docs/games.md, "Blackjack Switch", "The counted game").

``frozen_switch_rounds(base, shoes)``: for each shoe of ``shoes`` (whole cards), the round
played by the decisions of ``base`` (a ``SwitchSolution``, removal "full"): every deal's
keep-or-switch choice, each hand's first action and every later decision, frozen in the
engines of ``base``'s shoe (``GameEngine.freeze_decisions``) and copied into policy engines
of the played shoe, as the fixed effects of removal play them
(``switch_removal.frozen_switch_ev``).  It gives the EV of that path, and the round's law
the way ``switch_law`` makes the analysis' own (each hand's law from the policy engine's
round law with all five cards out, the two hands combined as independent given the
dealer's outcome): its mean is the same EV reached another way (the tests hold them
together to 1e-12).  A fixed strategy: the counted game calibrates it by the fundamental
theorem (``bjsolve.risk.switch_game``).
"""
from __future__ import annotations

import numpy as np

from ..model.deal import hand_limit
from ..model.shoe import Shoe
from .engines import make_engine
from .kernel_rules import SPLIT_CLASSES, kernel_rules
from .scheduler import run_units
from .switch import PAIRS, RANKS, HandTable, SwitchSolution, _deal_arrays, game_rules
from .switch_law import combine_hands, hand_laws
from .switch_removal import _frozen_unit, frozen_engine, frozen_switch_ev


def _contexts(shoe: Shoe) -> list:
    """The (other hand, upcard) contexts ``shoe`` can deal: both hands' cards and the upcard."""
    counts = np.array(shoe.counts)
    keys = []
    for up in RANKS:
        for o, pair in enumerate(PAIRS):
            need = np.zeros(10, dtype=int)
            need[up - 1] += 1
            for c in pair:
                need[c - 1] += 1
            if (need <= counts).all():
                keys.append((o, up))
    return keys


def _dealable_hands(on: Shoe, up: int) -> list:
    """The PAIRS indices of the hands ``on`` (the other hand's cards out) can deal with
    ``up`` out too and a card left."""
    left = np.array(on.counts, dtype=float)
    left[up - 1] -= 1
    out = []
    for h, (a, b) in enumerate(PAIRS):
        rest = left.copy()
        rest[a - 1] -= 1
        rest[b - 1] -= 1
        if rest.min() >= 0 and rest.sum() >= 1:
            out.append(h)
    return out


def frozen_switch_rounds(base: SwitchSolution, shoes: dict, threads=None, *,
                         ev_path: bool = True, batch: int = 4,
                         switches: dict | None = None, plays: dict | None = None) -> dict:
    """{key: (EV, second moment, (joint, values))} of a round on each ``shoes[key]`` (whole
    cards, none larger than base's shoe) played by base's frozen decisions (module doc):
    EV and E[X^2] in units of one hand's bet, both hands, unconditioned; ``joint`` the two
    hands' law over ``values`` (``switch_law.switch_round_joint``).  ``ev_path`` False:
    the EV is the law's mean, the EV engines' path (the same value, checked by the
    tests) is skipped: a fifth less time.  ``batch``: shoes per pass over the contexts
    (each pass freezes the full shoe's engines again; the hands' laws of a shoe take
    about 60 MB until its round law is made).  ``switches``: {key: {label: which of
    base's deals (``base._deals``) are switched}}, the same hands' play with other
    keep-or-switch choices (a counter's switch indices): each adds ``(key, label)`` to the
    result, at the cost of combining the hands' laws once more.  ``plays``: {key: the
    hands' play on ``shoes[key]`` in place of base's decisions where it departs from them
    (a counter's play indices, ``bjsolve.risk.switch_plays.PlayDepartures``: called
    (hand, upcard, allowed) it gives a first action or None, ``apply(engine, upcard,
    limit)`` sets its decisions in each context's policy engine)}."""
    if base.removal != "full" or base.shoe.is_infinite or base.play != "optimal":
        raise ValueError("frozen switch rounds take a finite shoe's analysis with "
                         "removal='full' and play='optimal'")
    names = list(shoes)
    out = {}
    for start in range(0, len(names), max(1, batch)):
        part = {name: shoes[name] for name in names[start:start + max(1, batch)]}
        out.update(_frozen_batch(base, part, threads, ev_path, switches or {}, plays or {}))
    return out


def _frozen_batch(base: SwitchSolution, shoes: dict, threads, ev_path: bool,
                  switches: dict, plays: dict) -> dict:
    """``frozen_switch_rounds`` of a few shoes: one pass over the contexts."""
    rules = base.rules
    params = kernel_rules(game_rules(rules), SPLIT_CLASSES[base.split])
    n = len(PAIRS)
    # the counts a hand may hold against each upcard (the full shoe's: the played shoes
    # are no larger), for the play indices' decisions
    limits = {up: hand_limit(base.shoe, up) for up in RANKS} if plays else {}

    def unit(key):
        o, up = key
        source = make_engine(params, base.shoe.remove(*PAIRS[o]), up)
        source.freeze_decisions()
        out = {}
        for name, shoe1 in shoes.items():
            if (o, up) not in contexts[name]:
                continue
            engine = frozen_engine(base, shoe1, o, up, source)
            departures = plays.get(name)
            if departures is not None:
                departures.apply(engine, up, limits[up])
            values = (_frozen_unit(base, shoe1, o, up, source, engine, first=departures)
                      if ev_path else None)
            on = shoe1.remove(*PAIRS[o])
            laws = hand_laws(rules, engine, on, up, _dealable_hands(on, up))
            out[name] = (values, laws)
        return out

    contexts = {name: set(_contexts(shoe)) for name, shoe in shoes.items()}
    keys = sorted(set().union(*contexts.values()))
    results = run_units(keys, unit, threads)
    base_switches = base.switched
    out = {}
    for name, shoe1 in shoes.items():
        tables = [np.full((10, n, n), np.nan) for _ in range(3)] + [
            np.full((10, n, n), -1, dtype=np.int8)]
        laws: dict = {}
        for (o, up), per_shoe in results.items():
            if name not in per_shoe:
                continue
            frozen_values, hand = per_shoe.pop(name)     # (freed once combined)
            if frozen_values is not None:
                for t, v in zip(tables, frozen_values):
                    t[up - 1, o] = v
            laws[(o, up)] = hand
        deal = _deal_arrays(shoe1)
        prob, beta = deal[5:]
        decided = (prob > 0) & (beta < 1.0)
        played = {name: base_switches, **{(name, label): chosen for label, chosen
                                          in switches.get(name, {}).items()}}
        for key, chosen in played.items():
            joint, values, _ = combine_hands(rules, deal, decided, chosen & decided, laws,
                                             True)
            totals = values[:, None] + values[None, :]
            second = float((joint * totals * totals).sum())
            ev = (frozen_switch_ev(base, shoe1, HandTable(*tables), chosen) if ev_path
                  else float((joint * totals).sum()))
            out[key] = (ev, second, (joint, values))
        del laws
    return out


__all__ = ["frozen_switch_rounds"]
