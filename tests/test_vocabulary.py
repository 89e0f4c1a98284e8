"""One word per idea: the library's keywords and defaults, as the command line's flags say
them ("One vocabulary, one layout").  Signatures are read with ``inspect``, so a function
that drifts back to another name or default fails here."""
import dataclasses
import inspect
from importlib import import_module

import pytest

import bjsolve

# the modules, by what they hold (bjsolve.simulate and bjsolve.solve are the functions)
count_distribution = import_module("bjsolve.counting.count_laws")
count_tables = import_module("bjsolve.counting.tables")
counting = import_module("bjsolve.counting.removal")
indices = import_module("bjsolve.counting.indices")
risk_indices = import_module("bjsolve.counting.risk_indices")
game = import_module("bjsolve.risk.game")
ramp = import_module("bjsolve.risk.ramp")
risk = import_module("bjsolve.risk.ruin")
round_starts = import_module("bjsolve.risk.round_starts")
simulate = import_module("bjsolve.simulation.simulator")
simulation_result = import_module("bjsolve.simulation.result")
solve = import_module("bjsolve.exact.solver")

# every function or method that takes the true-count rounding / the decks estimation
TC_ROUNDING = [game.CountedGame.__init__, simulate.simulate, simulate.build_plan,
               indices.generate_indices, indices.as_index_table, count_tables.indices_table,
               risk_indices.risk_averse_indices, risk_indices.risk_indices_table,
               count_distribution.CountDistribution.true_counts,
               count_distribution.CountDistribution.true_count_law,
               round_starts.round_starts, game.insurance_gains]
DECKS_ESTIMATION = [game.CountedGame.__init__, simulate.simulate, simulate.build_plan,
                    count_distribution.CountDistribution.true_counts,
                    count_distribution.CountDistribution.true_count_law,
                    round_starts.round_starts, game.insurance_gains]


@pytest.mark.parametrize("function", TC_ROUNDING, ids=lambda f: f.__qualname__)
def test_tc_rounding_is_one_keyword_with_one_default(function):
    assert inspect.signature(function).parameters["tc_rounding"].default == "floor"


@pytest.mark.parametrize("function", DECKS_ESTIMATION, ids=lambda f: f.__qualname__)
def test_decks_estimation_is_one_keyword_with_one_default(function):
    assert inspect.signature(function).parameters["decks_estimation"].default == "exact"


def test_the_values_are_the_same_everywhere():
    assert count_distribution.TC_ROUNDINGS == indices.TC_ROUNDINGS
    assert simulate.TC_ROUNDINGS == count_distribution.WHOLE_TC_ROUNDINGS
    assert simulate.DECKS_ESTIMATIONS == count_distribution.DECKS_ESTIMATIONS
    from bjsolve.cli.counting_args import DECKS_ESTIMATIONS, TC_ROUNDINGS
    assert TC_ROUNDINGS == count_distribution.WHOLE_TC_ROUNDINGS
    assert DECKS_ESTIMATIONS == count_distribution.DECKS_ESTIMATIONS


OLD_NAMES = {"rounding", "tc_convention", "true_count_method", "split_strategy",
             "split_class", "upcard", "grid"}
MODULES = [bjsolve, counting, count_distribution, count_tables, game, indices, risk,
           risk_indices, simulate, simulation_result, solve, ramp, round_starts,
           import_module("bjsolve.exact.dealer"), import_module("bjsolve.exact.strategy"),
           import_module("bjsolve.counting.index_file"),
           import_module("bjsolve.counting.shoe_values")]


def _public_callables():
    for module in MODULES:
        for name in getattr(module, "__all__", None) or dir(module):
            if name.startswith("_"):
                continue
            obj = getattr(module, name)
            if getattr(obj, "__module__", "").startswith("bjsolve") and callable(obj):
                yield f"{module.__name__}.{name}", obj
                if inspect.isclass(obj):
                    for attr, member in vars(obj).items():
                        if callable(member) and not attr.startswith("_") or attr == "__init__":
                            yield f"{module.__name__}.{name}.{attr}", member


def test_no_public_signature_uses_an_old_name():
    found = []
    for where, obj in _public_callables():
        try:
            params = inspect.signature(obj).parameters
        except (TypeError, ValueError):
            continue
        found += [f"{where}({p})" for p in params if p in OLD_NAMES]
    assert found == []


@pytest.mark.parametrize("function", [
    bjsolve.solve, bjsolve.effects_of_removal, bjsolve.estimate_ev,
    counting.decision_effects_of_removal, counting.decision_effects,
    counting.playing_efficiency, bjsolve.dealer_probabilities, bjsolve.dealer_table,
    bjsolve.simulate], ids=lambda f: f.__name__)
def test_shoe_is_keyword_only_everywhere(function):
    assert inspect.signature(function).parameters["shoe"].kind is inspect.Parameter.KEYWORD_ONLY


def test_a_positional_shoe_is_refused():
    with pytest.raises(TypeError):
        bjsolve.solve(bjsolve.Rules(decks=1), bjsolve.Shoe.decks(1))


@pytest.mark.parametrize("function", [
    solve.Solution.hand_ev, solve.Solution.best_action, solve.Solution.allowed_actions,
    bjsolve.dealer_probabilities, counting.decision_effects_of_removal,
    indices.IndexTable.index, bjsolve.StrategyChart.code], ids=lambda f: f.__qualname__)
def test_the_dealers_card_is_dealer(function):
    assert "dealer" in inspect.signature(function).parameters


def test_post_split_class_is_split():
    sol = bjsolve.solve(bjsolve.Rules(decks=1), split="CDP1", threads=1)
    assert sol.split == "CDP1" and sol.expected_value.split == "CDP1"
    assert sol.hand_ev("88", "T").split == "CDP1"
    assert bjsolve.effects_of_removal(bjsolve.Rules(decks=1), split="cdp1").split == "CDP1"


@pytest.mark.parametrize("result", [
    counting.EVEstimate, counting.RemovalEffects, counting.DecisionEffects,
    counting.CloseDecision, indices.IndexLine,
    indices.IndexTable, ramp.RampResult, risk.RiskSummary, risk.TripRuin,
    risk.LifetimeRuin, simulation_result.SimulationResult, simulation_result.TrueCountRow,
    simulation_result.RuinResult], ids=lambda c: c.__name__)
def test_results_are_frozen_dataclasses(result):
    assert dataclasses.is_dataclass(result) and result.__dataclass_params__.frozen


def test_estimate_ev_is_a_result_with_named_fields():
    rules = bjsolve.Rules(decks=1)
    # a user EOR vector, so the linear figure is known independently: base + (N-1)/(N-k)
    # x the sum of the removed cards' effects (52 cards, one 5 out: factor 51/51 = 1)
    got = bjsolve.estimate_ev(rules, "5", effects=[0.0, 0, 0, 0, 0.006, 0, 0, 0, 0, 0],
                              base=-0.001, exact=False)
    assert got.linear == pytest.approx(-0.001 + 0.006, abs=1e-15)
    assert got.linear_change == pytest.approx(0.006, abs=1e-15)
    assert got.exact is None and got.removed == (5,) and got.strategy == "user"
    with pytest.raises(dataclasses.FrozenInstanceError):
        got.linear = 0.0


def test_index_rounding_is_for_the_exact_true_count_only():
    with pytest.raises(ValueError, match="index_rounding='ceiled' goes with tc_rounding='exact'"):
        indices.generate_indices(bjsolve.Rules(decks=1), index_rounding="ceiled")


def test_the_trip_ruins_horizon_is_trip_rounds_everywhere():
    """'rounds' are the rounds simulate deals; the trip ruin's horizon is trip_rounds in
    risk.trip_ruin, risk_summary, CountedGame.evaluate and TripRuin, as --trip-rounds."""
    for function in (risk.trip_ruin, risk.risk_summary, game.CountedGame.evaluate):
        params = inspect.signature(function).parameters
        assert "trip_rounds" in params and "rounds" not in params, function
    assert "trip_rounds" in {f.name for f in dataclasses.fields(risk.TripRuin)}
    assert "trip_rounds" in {f.name for f in dataclasses.fields(risk.RiskSummary)}
    coin = {-1: 0.5, 1: 0.5}
    # a fair coin from 1 unit over 1 round: ruined with probability 1/2 exactly
    assert risk.trip_ruin(coin, 1, 1).probability == pytest.approx(0.5, abs=1e-12)
