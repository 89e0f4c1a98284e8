"""Reading the page's query string: the rules panel and the hand, each field's mistake kept
beside the field's name (the page shows it next to that field).

The rules come either as the one-line summary ``rules=6D H17 DAS LS`` (what
``Rules.describe`` prints and ``Rules.parse`` reads back) or as one parameter per field
(``decks=6&h17=1&...``); fields given one by one override the summary, so the rules panel
can send what the user changed while the link keeps the short summary.
"""
from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Mapping

import bjsolve

from ..model import parse_payout, parse_rounds
from .index_uploads import UPLOADS, is_upload

# query parameter -> Rules field, for the parameters that are on/off switches
SWITCHES = {
    "h17": "hit_soft_17", "double_soft": "double_soft", "dan": "double_any_cards",
    "das": "double_after_split", "rsa": "resplit_aces", "hsa": "hit_split_aces",
    "dealer_wins_ties": "dealer_wins_ties",
}
# query parameter -> Rules field, for the parameters that are one of a few words
CHOICES = {
    "double": "double", "surrender": "surrender", "hole_card": "hole_card",
    "natural_tie": "natural_tie",
}
SPLIT_CLASSES = ("CDZ-", "CDP1", "CDP")
ON_WORDS = {"1": True, "on": True, "true": True, "yes": True,
            "0": False, "off": False, "false": False, "no": False}


class FieldErrors(dict):
    """{query parameter: message} for the fields the user got wrong."""


def _field_of(message: str) -> str:
    """The query parameter a Rules error is about ('Rules.decks must ...' -> 'decks')."""
    m = re.search(r"Rules\.(\w+)", message)
    if not m:
        return "rules"
    name = m.group(1)
    reverse = {v: k for k, v in {**SWITCHES, **CHOICES}.items()}
    return {"max_split_hands": "split_hands", "blackjack_payout": "payout"}.get(
        name, reverse.get(name, name))


def parse_decks(text: str) -> float:
    """'6' -> 6, 'inf' or 'infinite' -> math.inf (Rules checks the range)."""
    word = text.strip().lower()
    if word in ("inf", "infinite", "∞"):
        return math.inf
    try:
        return int(word)
    except ValueError:
        raise ValueError(f"decks must be a whole number of decks (1, 2, 6, 8, ...) or 'inf', "
                         f"got {text.strip()[:20]!r}") from None


def rules_from_query(params: Mapping[str, str]) -> tuple[bjsolve.Rules | None, FieldErrors]:
    """(Rules, {}) from the query, or (None, {parameter: message}) when a field is wrong."""
    errors = FieldErrors()
    base = bjsolve.Rules()
    summary = params.get("rules", "").strip()
    if summary:
        try:
            base = bjsolve.Rules.parse(summary)
        except (TypeError, ValueError) as exc:
            errors["rules"] = str(exc)
    fields: dict = {}
    # (the payout is read by the library's one reader, its message naming the page's field)
    readers: dict[str, tuple[str, Callable[[str], float]]] = {
        "decks": ("decks", parse_decks),
        "payout": ("blackjack_payout", functools.partial(parse_payout, field="payout")),
        "split_hands": ("max_split_hands", _parse_hands)}
    for param, (name, read) in readers.items():
        if params.get(param, "").strip():
            try:
                fields[name] = read(params[param])
            except ValueError as exc:
                errors[param] = str(exc)
    for param, name in SWITCHES.items():
        if param in params:
            word = params[param].strip().lower()
            if word not in ON_WORDS:
                errors[param] = f"{param} must be on or off (1 or 0), got {word[:20]!r}"
            else:
                fields[name] = ON_WORDS[word]
    for param, name in CHOICES.items():
        if params.get(param, "").strip():
            fields[name] = params[param]       # Rules checks the word
    if errors:
        return None, errors
    try:
        return base.replace(**fields), errors
    except (TypeError, ValueError) as exc:
        errors[_field_of(str(exc))] = str(exc)
        return None, errors


def _parse_hands(text: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise ValueError(f"split_hands must be 1..4 (1 = no splitting), got "
                         f"{text.strip()[:20]!r}") from None


def split_from_query(params: Mapping[str, str], errors: FieldErrors) -> str:
    """The post-split strategy class (default CDZ-)."""
    split = params.get("split", "CDZ-").strip().upper() or "CDZ-"
    if split not in SPLIT_CLASSES:
        errors["split"] = (f"split must be one of {', '.join(SPLIT_CLASSES)}; "
                           f"got {split[:20]!r}")
    return split


def rule_fields(rules: bjsolve.Rules) -> dict:
    """The rules panel's values for these rules (what the form shows)."""
    from fractions import Fraction
    payout = Fraction(rules.blackjack_payout).limit_denominator(100)
    shown = (f"{payout.numerator}:{payout.denominator}"
             if float(payout) == rules.blackjack_payout else repr(rules.blackjack_payout))
    values = {"decks": "inf" if rules.infinite else str(int(rules.decks)),
              "payout": shown, "split_hands": str(rules.max_split_hands)}
    values.update({param: "1" if getattr(rules, name) else "0"
                   for param, name in SWITCHES.items()})
    values.update({param: getattr(rules, name) for param, name in CHOICES.items()})
    return values


@functools.cache
def preset_choices() -> tuple[tuple[str, str], ...]:
    """(name, rule summary) of each of the library's presets, classic ones and the games:
    the rules panel's preset list.  Picking one puts its summary in the summary box (the
    games' own rules, such as P22 or RDx3, have no field of their own: the summary carries
    them), so the page's link keeps the summary, not the preset's name."""
    return tuple((name, bjsolve.Rules.preset(name).describe())
                 for name in bjsolve.Rules.presets())


def preset_of(rules: bjsolve.Rules) -> str:
    """The name of the preset these rules are exactly, or '' (the list then shows
    'custom')."""
    for name, _ in preset_choices():
        if bjsolve.Rules.preset(name) == rules:
            return name
    return ""


def parse_hand(text: str) -> tuple[tuple | str, tuple | str]:
    """'T6 v 9' (also 'T 6 vs 9', '10,6 v 9') -> (player cards, dealer cards), in forms
    ``Solution.hand_ev`` reads: one dealer card is the upcard, several ('T6 v 9 7', the
    exposed game's two face-up cards) a tuple; the cards and how many the game takes are
    checked there."""
    parts = re.split(r"\s+vs?\.?\s+|\s*\bvs?\.?\s+|\s+vs?\b\s*", text.strip(), maxsplit=1,
                     flags=re.IGNORECASE)
    if len(parts) != 2 or not parts[0].strip() or not parts[1].strip():
        raise ValueError(f"hand: type the player's cards, 'v' and the dealer's upcard, such "
                         f"as 'T6 v 9' (both dealer cards in the exposed game: 'T6 v 9 7'); "
                         f"got {text.strip()[:40]!r}")
    return _cards(parts[0]), _cards(parts[1])


def _cards(text: str) -> tuple | str:
    tokens = [t for t in re.split(r"[\s,]+", text.strip()) if t]
    return tokens[0] if len(tokens) == 1 else tuple(tokens)


# ---- the counting page's fields ----------------------------------------------------------

COUNT_DEFAULTS = {"system": "hilo", "penetration": "0.75", "indices": "",
                  "ramp": "0:1,1:2,2:4,3:8,4:12", "bankroll": "1000", "unit": "1"}
# the Counting page's spots (hands the player plays each round: where rounds start); the
# Simulate page reads its spots with its own options (web.simjobs)
SPOTS_DEFAULT, MAX_SPOTS = "1", 7
INDEX_SETS = ("", "i18", "fab4", "i18,fab4", "all")
# the counting page's optional fields (empty: not asked): the bankroll for a target risk of
# ruin, the trip ruin over so many rounds, and the true count the player wongs in at
COUNT_OPTIONAL = ("target_ror", "trip_rounds", "wong_in")
# the Simulate page's own fields (besides the counting ones): read by web.simjobs
SIM_DEFAULTS = {"rounds": "1e7", "seed": "1", "spots": "1", "other_spots": "0",
                "insurance": "", "table_min": "1", "table_max": "", "wong_out": "",
                "tc_rounding": "floor", "decks_estimation": "exact"}
TC_ROUNDINGS = ("floor", "truncate", "round")
DECKS_ESTIMATIONS = ("exact", "half", "full")


def count_from_query(params: Mapping[str, str], errors: FieldErrors) -> dict:
    """The counting fields: system, penetration, indices (a named set, none, or an uploaded
    file's key ``file:HASH``, its (name, text) then under ``index_file``), ramp text,
    bankroll (units) and unit (money per unit); a number that does not read goes into
    ``errors``."""
    raw = {k: (params.get(k) or v).strip() for k, v in COUNT_DEFAULTS.items()}
    raw["indices"] = (params.get("indices") or "").strip().lower()
    count: dict = {"system": raw["system"].lower(), "ramp": raw["ramp"],
                   "indices": raw["indices"]}
    try:
        count["system"] = parse_system(raw["system"])
    except ValueError as exc:
        errors["system"] = str(exc)
    if is_upload(raw["indices"]):
        # an uploaded file: the game gets its text (its key stays in the link and the
        # game's key: the key is the text's hash)
        kept = UPLOADS.get(raw["indices"])
        if kept is None:
            errors["indices"] = (f"indices: the uploaded index file {raw['indices'][:40]!r} "
                                 f"is not kept by this server (it keeps uploads while it "
                                 f"runs); choose the file again")
        else:
            count["index_file"] = kept
    elif raw["indices"] not in INDEX_SETS:
        errors["indices"] = (f"indices must be none, one of {', '.join(INDEX_SETS[1:])} or "
                             f"an uploaded file; got {raw['indices'][:20]!r}")
    for name in ("penetration", "bankroll", "unit"):
        try:
            count[name] = float(raw[name])
        except ValueError:
            errors[name] = f"{name} must be a number, got {raw[name][:20]!r}"
    count["spots"] = int(SPOTS_DEFAULT)
    spots = (params.get("spots") or SPOTS_DEFAULT).strip()
    if spots.isdigit() and 1 <= int(spots) <= MAX_SPOTS:
        count["spots"] = int(spots)
    else:
        errors["spots"] = (f"spots must be a whole number of spots 1..{MAX_SPOTS} (hands "
                           f"played each round), got {spots[:20]!r}")
    # the optional ones: read as numbers here; CountedGame.evaluate checks their ranges
    for name in COUNT_OPTIONAL:
        text = (params.get(name) or "").strip()
        count[name] = None
        if not text:
            continue
        try:
            count[name] = _optional_number(name, text)
        except ValueError as exc:
            errors[name] = str(exc)
    return count


def parse_system(text: str) -> str | tuple:
    """The count system field: a built-in system's name ('hilo', any case), or 10 tags for
    the ranks A, 2..9, T separated by commas or spaces ('-1,1,1,1,1,1,0,0,0,-1'), given to
    ``CountedGame`` and ``simulate`` as a tuple of numbers.  A name not known, or tags that
    are not 10 finite numbers, is a ValueError saying so (checked by ``count_tags``, as the
    library checks them)."""
    from ..counting import count_tags
    word = text.strip()
    tokens = [t for t in re.split(r"[\s,;]+", word) if t]
    if len(tokens) == 1 and not _is_number(tokens[0]):
        count_tags(tokens[0])           # the library's message for a name not known
        return tokens[0].lower()
    bad = [t for t in tokens if not _is_number(t)]
    if bad or len(tokens) != 10:
        what = (f"{bad[0][:12]!r} is not a number" if bad
                else f"got {len(tokens)} number{'s' if len(tokens) != 1 else ''}")
        raise ValueError(f"system: tags are 10 numbers, one for each rank A,2,3,4,5,6,7,8,9,T "
                         f"(such as -1,1,1,1,1,1,0,0,0,-1); {what}")
    try:
        tags = count_tags(tuple(float(t) for t in tokens))
    except ValueError as exc:
        raise ValueError(f"system: {exc}") from None
    # whole tags as whole numbers: the game's key and the page's link stay short
    return tuple(int(t) if t.is_integer() else t for t in tags)


def system_text(system) -> str:
    """The system field's text for a name or a tag tuple (what ``parse_system`` reads)."""
    if isinstance(system, str):
        return system
    return ",".join(f"{t:g}" for t in system)


def _is_number(token: str) -> bool:
    try:
        float(token)
    except ValueError:
        return False
    return True


def _optional_number(name: str, text: str) -> float | int:
    """target_ror: a probability ('0.05' or '5%'); trip_rounds: a whole number ('1e4'
    reads); wong_in: a whole true count ('+2' reads).  Whole values go as int.
    trip_rounds is read by ``bjsolve.model.parse_rounds`` ('1e4', '10,000', '10k'), up to
    the trip ruin's ``MAX_ROUNDS``."""
    if name == "trip_rounds":
        from ..risk.ruin import MAX_ROUNDS
        return parse_rounds(text, "trip_rounds", MAX_ROUNDS)
    word = text.replace(",", "").replace("_", "")
    percent = name == "target_ror" and word.endswith("%")
    try:
        value = float(word[:-1] if percent else word)
    except ValueError:
        what = {"target_ror": "a probability such as 0.05 or 5%",
                "wong_in": "a whole true count such as +2"}[name]
        raise ValueError(f"{name} must be {what}, got {text[:20]!r}") from None
    if percent:
        return value / 100
    if name != "target_ror" and value.is_integer():
        return int(value)
    return value


def index_argument(count: dict):
    """The ``indices`` to give ``CountedGame`` and ``simulate`` for the counting fields: an
    uploaded file's text, a set's name, or None."""
    if "index_file" in count:
        return count["index_file"][1]
    return count["indices"] or None
