"""What a new user met walking through every command at 80 columns: each test is one
finding (a bad input that ran for ever or passed silently, a flag spelled two ways, a
number that did not say what it was)."""
import io

import pytest

from bjsolve.cli import main


def run(*args):
    out = io.StringIO()
    code = main(list(args), out=out)
    return code, out.getvalue()


def one_error_line(capsys, args, words):
    code, out = run(*args)
    err = capsys.readouterr().err
    assert code == 2 and out == "", (args, code, err)
    assert len(err.strip().splitlines()) == 1 and err.startswith("bjsolve: error:"), err
    assert words in err, err


@pytest.mark.parametrize("args, words", [
    # ran for ever (a 99-spot round; a list of 10**24 chunks built before the run)
    (["game", "--spots", "99"], "'99' is not a whole number 1..7"),
    (["game", "--spots", "0"], "'0' is not a whole number 1..7"),
    (["simulate", "--rounds", "1e30"], "rounds must be a whole number 1..1000000000000000"),
    (["simulate", "--rounds", "1e9", "--chunk-rounds", "1"], "give a larger chunk_rounds"),
    (["simulate", "--spots", "8"], "'8' is not a whole number 1..7"),
    (["simulate", "--threads", "0"], "'0' is not a whole number 1..1024"),
    # passed silently: nan, zero, and a flag that has no effect without another
    (["indices", "--risk-averse", "--round-variance", "nan"], "not a positive finite number"),
    (["indices", "--risk-averse", "--round-variance", "0"], "not a positive finite number"),
    (["indices", "--round-variance", "1.2"], "--round-variance goes with --risk-averse"),
    (["game", "--bankroll", "inf"], "not a positive finite number"),
    (["game", "--bankroll", "-3"], "not a positive finite number"),
])
def test_bad_input_is_refused_before_any_work(args, words, capsys):
    one_error_line(capsys, args, words)


def test_simulate_api_refuses_a_run_too_large_to_plan():
    import bjsolve
    with pytest.raises(ValueError, match="rounds must be a whole number"):
        bjsolve.simulate(rounds=10**16, seed=1)
    with pytest.raises(ValueError, match="chunk_rounds"):
        bjsolve.simulate(rounds=10**7, seed=1, chunk_rounds=1)
