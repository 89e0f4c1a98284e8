"""The web app driven in headless Chromium (Selenium): load the page, change a rule, read
the house edge back, type the rule summary, enter a hand with the card buttons.  The
figures read off the page are compared with the Python API's for the same rules.

Skips, saying why, where Selenium, Chromium or its driver (Debian: chromium,
chromium-driver) or the web extra is missing."""
import re
import shutil
import subprocess
import sys
import time

import pytest

import bjsolve


def _why_not() -> str | None:
    import importlib.util
    for name in ("selenium", "starlette", "uvicorn", "jinja2"):
        if importlib.util.find_spec(name) is None:
            return f"{name} is not installed"
    if not (shutil.which("chromium") or shutil.which("chromium-browser")
            or shutil.which("google-chrome")):
        return "no Chromium (Debian: apt-get install chromium chromium-driver)"
    if not shutil.which("chromedriver"):
        return "no chromedriver (Debian: apt-get install chromium-driver)"
    return None


WHY_NOT = _why_not()
if WHY_NOT:
    print(f"test_web_browser: skipped: {WHY_NOT}")
    pytest.skip(WHY_NOT, allow_module_level=True)

from selenium import webdriver  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402


@pytest.fixture(scope="module")
def server():
    proc = subprocess.Popen([sys.executable, "-m", "bjsolve", "serve", "--no-browser"],
                            stdout=subprocess.PIPE, text=True)
    try:
        url = re.search(r"http://127\.0\.0\.1:\d+/", proc.stdout.readline()).group(0)
        yield url
    finally:
        proc.terminate()
        proc.wait(30)


@pytest.fixture(scope="module")
def driver():
    options = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--window-size=1280,1000"):
        options.add_argument(flag)
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    if binary:
        options.binary_location = binary
    from selenium.webdriver.chrome.service import Service
    try:
        d = webdriver.Chrome(options=options, service=Service(shutil.which("chromedriver")))
    except Exception as exc:       # a browser that will not start here: say so and skip
        print(f"test_web_browser: skipped: Chromium did not start ({exc})")
        pytest.skip(f"Chromium did not start: {str(exc).splitlines()[0]}")
    yield d
    d.quit()


def wait_until(condition, timeout=120.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            value = condition()
        except Exception:            # an element replaced while read: read again
            value = None
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("the page did not show what was expected in time")


def text_of(d, element_id: str) -> str:
    found = d.find_elements(By.ID, element_id)
    return found[0].text if found else ""


def pct(value: float, places: int = 3) -> str:
    return f"{100 * value:.{places}f}%"


def error_beside(d, field: str) -> str:
    return d.find_element(By.CSS_SELECTOR, f'[data-error-for="{field}"]').text


def chart_on_page(d) -> dict:
    """The coloured chart as the page shows it: {hand: {upcard: action code}}."""
    return d.execute_script("""
        const table = document.querySelector('#out-chart table.chart');
        if (!table) return null;
        const rows = Array.from(table.rows);
        const upcards = Array.from(rows[0].cells).slice(1).map((c) => c.textContent);
        const chart = {};
        for (const row of rows.slice(1)) {
          const cells = Array.from(row.cells);
          if (cells.length !== upcards.length + 1) continue;     // a section's heading
          chart[cells[0].textContent] = Object.fromEntries(
            cells.slice(1).map((c, i) => [upcards[i], c.textContent]));
        }
        return chart;""")


def bars_on_page(d, chart_id: str) -> list:
    """The bars of an SVG chart on the page: [{label, series, value, title}]."""
    return d.execute_script("""
        return Array.from(document.querySelectorAll('#' + arguments[0] + ' rect.bar[data-label]'))
          .map((r) => ({label: r.dataset.label, series: r.dataset.series,
                        value: Number(r.dataset.value),
                        title: r.querySelector('title').textContent}));""", chart_id)


def test_change_rules_and_enter_a_hand(server, driver):
    d = driver
    d.get(server + "?rules=6D+S17+DAS")
    s17 = bjsolve.solve(bjsolve.Rules.parse("6D S17 DAS"))
    assert text_of(d, "edge-optimal") == pct(-s17.expected_value)
    assert chart_on_page(d) == s17.strategy.rows
    # the chart's exceptions arrive after the page
    wait_until(lambda: d.find_elements(By.ID, "exceptions-table"))

    # a rule changed with a tick box: the edge follows, the summary and the address too
    d.find_element(By.ID, "f-h17").click()
    h17 = bjsolve.solve(bjsolve.Rules.parse("6D H17 DAS"))
    wait_until(lambda: text_of(d, "edge-optimal") == pct(-h17.expected_value))
    assert text_of(d, "edge-chart") == pct(-h17.evaluate(h17.strategy))
    # the chart follows too (11 v A: hit at S17, double at H17)
    wait_until(lambda: chart_on_page(d) == h17.strategy.rows)
    assert h17.strategy.rows["11"]["A"] != s17.strategy.rows["11"]["A"]
    wait_until(lambda: "H17" in d.find_element(By.ID, "f-rules").get_attribute("value"))
    assert "H17" in d.current_url

    # the rule summary typed in: the fields follow it
    box = d.find_element(By.ID, "f-rules")
    box.clear()
    box.send_keys("1D H17 no DAS LS", Keys.ENTER)
    one = bjsolve.solve(bjsolve.Rules.parse("1D H17 no DAS LS"))
    wait_until(lambda: text_of(d, "edge-optimal") == pct(-one.expected_value))
    assert d.find_element(By.ID, "f-decks").get_attribute("value") == "1"
    assert not d.find_element(By.ID, "f-das").is_selected()

    # a bad field: the message beside it, the page still there, then put right
    decks = d.find_element(By.ID, "f-decks")
    decks.clear()
    decks.send_keys("0")
    wait_until(lambda: "Rules.decks" in d.find_element(
        By.CSS_SELECTOR, '[data-error-for="decks"]').text)
    decks.clear()
    decks.send_keys("2")
    two = bjsolve.solve(bjsolve.Rules.parse("2D H17 no DAS LS"))
    wait_until(lambda: text_of(d, "edge-optimal") == pct(-two.expected_value))
    assert d.find_element(By.CSS_SELECTOR, '[data-error-for="decks"]').text == ""

    # the hand page keeps the rules; cards entered with the buttons
    d.find_element(By.CSS_SELECTOR, '[data-nav="hand"]').click()
    wait_until(lambda: d.find_elements(By.ID, "f-hand"))
    d.find_element(By.CSS_SELECTOR, "[data-clear]").click()
    for selector in ('[data-player="T"]', '[data-player="6"]', '[data-dealer="T"]'):
        d.find_element(By.CSS_SELECTOR, selector).click()
    values = two.hand_ev("T6", "T")
    wait_until(lambda: "T6 v T" in text_of(d, "actions"))
    assert text_of(d, "best") == values.best
    best_row = d.find_element(By.CSS_SELECTOR, "#actions tr.best")
    assert f"{values[values.best]:+.6f}" in best_row.text
    assert "given no dealer blackjack" in text_of(d, "actions")
    assert "hand=T6" in d.current_url.replace("+", "")


def test_exposed_game_hand_with_two_dealer_buttons(server, driver):
    d = driver
    d.get(server + "hand?rules=6D+H17+DAS+exposed&hand=T6+v+9+7")
    rules = bjsolve.Rules.parse("6D H17 DAS exposed")
    sol = bjsolve.solve(rules)
    wait_until(lambda: "both dealer cards face up" in text_of(d, "actions"))
    assert text_of(d, "best") == sol.hand_ev("T6", ("9", "7")).best
    # the dealer buttons: the first click gives one card, the second adds the other
    d.find_element(By.CSS_SELECTOR, '[data-dealer="T"]').click()
    d.find_element(By.CSS_SELECTOR, '[data-dealer="6"]').click()
    assert d.find_element(By.ID, "f-hand").get_attribute("value") == "T6 v T 6"
    values = sol.hand_ev("T6", ("T", "6"))
    wait_until(lambda: f"{values[values.best]:+.6f}" in d.find_element(
        By.CSS_SELECTOR, "#actions tr.best").text)
    assert text_of(d, "best") == values.best


def test_counting_page_answers_a_new_ramp(server, driver, counted_game_1d_h17_nodas):
    d = driver
    d.get(server + "counting?rules=1D+H17+no+DAS&penetration=0.5&ramp=0:1,1:2,2:4"
          "&bankroll=200")
    game = counted_game_1d_h17_nodas
    first = game.evaluate("0:1,1:2,2:4", 200)
    # the page comes at once and asks for the counted game itself
    wait_until(lambda: text_of(d, "fig-score") == f"{first.score:.2f}", timeout=600)
    assert text_of(d, "fig-ror") == pct(first.ror)
    ramp = d.find_element(By.ID, "f-ramp")
    ramp.send_keys(",3:8")
    second = game.evaluate("0:1,1:2,2:4,3:8", 200)
    wait_until(lambda: text_of(d, "fig-score") == f"{second.score:.2f}")
    assert text_of(d, "fig-win_rate") == f"{second.win_rate:+.4f}"
    # the charts read back: one bar per true count, each carrying the game's figure, the
    # ramp chart the new ramp's bets beside the optimal ramp's for the spread 1-8
    frequency = bars_on_page(d, "chart-frequency")
    assert [b["label"] for b in frequency] == list(game.labels)
    assert [b["value"] for b in frequency] == pytest.approx(list(game.frequency), rel=1e-12)
    assert [b["value"] for b in bars_on_page(d, "chart-edge")] == \
        pytest.approx(list(game.edge), rel=1e-12)
    optimal = game.optimal_ramp(8, min_bet=1)
    ramps = bars_on_page(d, "chart-ramps")
    assert [b["value"] for b in ramps if b["series"] == "your ramp"] == \
        list(bjsolve.risk.parse_ramp("0:1,1:2,2:4,3:8").bets(game.tc_values))
    assert [b["value"] for b in ramps if b["series"] == "optimal ramp"] == \
        list(optimal.bets(game.tc_values))
    assert text_of(d, "optimal-ramp") == optimal.describe()
    # a bar's tooltip says its count and figure
    assert frequency[0]["title"] == (f"frequency at TC {game.labels[0]}: "
                                     f"{pct(game.frequency[0])} of rounds")
    assert "ramp=0%3A1%2C1%3A2%2C2%3A4%2C3%3A8" in d.current_url
    # the optional fields: a wong-in count and a target risk, typed; kept in the address
    d.find_element(By.ID, "f-wong_in").send_keys("1")
    d.find_element(By.ID, "f-target_ror").send_keys("5%")
    third = game.evaluate("0:1,1:2,2:4,3:8", 200, wong_in=1, target_ror=0.05)
    wait_until(lambda: text_of(d, "fig-bankroll_for_target")
               == f"{third.bankroll_for_target:,.1f}")
    assert text_of(d, "fig-score") == f"{third.score:.2f}"
    assert "wong_in=1" in d.current_url and "target_ror=5%25" in d.current_url
    # a wong-in count that does not read: the message beside it
    d.find_element(By.ID, "f-wong_in").send_keys("x")
    wait_until(lambda: "wong_in" in d.find_element(
        By.CSS_SELECTOR, '[data-error-for="wong_in"]').text)
    d.find_element(By.ID, "f-wong_in").send_keys(Keys.BACK_SPACE)
    wait_until(lambda: d.find_element(By.CSS_SELECTOR, '[data-error-for="wong_in"]').text == "")
    # a ramp that does not read: the message beside the field
    ramp.send_keys(",4:")
    wait_until(lambda: "true count:bet" in error_beside(d, "ramp"))
    ramp.send_keys(Keys.BACK_SPACE, Keys.BACK_SPACE, Keys.BACK_SPACE)
    wait_until(lambda: error_beside(d, "ramp") == "")
    # tags of one's own that are not 10 numbers: the message beside the system field; the
    # name typed back, the page answers again
    system = d.find_element(By.ID, "f-system")
    system.clear()
    system.send_keys("-1,1,1,1,1,1,0,0,0")
    wait_until(lambda: "got 9 numbers" in error_beside(d, "system"))
    system.clear()
    system.send_keys("HILO")
    wait_until(lambda: error_beside(d, "system") == "")
    wait_until(lambda: text_of(d, "fig-score") == f"{third.score:.2f}")


def test_simulate_page_runs_shows_progress_and_stops(server, driver):
    from bjsolve.web.simjobs import WEB_CHUNK_ROUNDS
    d = driver
    # a short run to its end: the figures are the API's for the same seed
    d.get(server + "simulate?rules=6D+H17+DAS+LS&rounds=200000&seed=3&ramp=0:1,1:2,2:4")
    d.find_element(By.ID, "sim-start").click()
    want = bjsolve.simulate(bjsolve.Rules.parse("6D H17 DAS LS"), rounds=200_000, seed=3,
                            system="hilo", ramp="0:1,1:2,2:4", chunk_rounds=WEB_CHUNK_ROUNDS)
    wait_until(lambda: text_of(d, "sim-mean") == f"{want.mean:+.5f}")
    assert "seed=3" in d.current_url and "rounds=200000" in d.current_url
    assert "job=" in d.find_element(By.CSS_SELECTOR, '[data-download="simulation.csv"]'
                                    ).get_attribute("href")
    # the table's options: two spots, a table maximum of 3 units, insurance at +3
    for field, value in (("spots", "2"), ("table_max", "3"), ("insurance", "3")):
        box = d.find_element(By.ID, f"f-{field}")
        box.clear()
        box.send_keys(value)
    d.find_element(By.ID, "sim-start").click()
    want = bjsolve.simulate(bjsolve.Rules.parse("6D H17 DAS LS"), rounds=200_000, seed=3,
                            system="hilo", ramp="0:1,1:2,2:4", spots=2, table_max=3,
                            insurance=3, chunk_rounds=WEB_CHUNK_ROUNDS)
    wait_until(lambda: text_of(d, "sim-mean") == f"{want.mean:+.5f}")
    assert text_of(d, "sim-hands") == f"{want.hands:,}"
    assert "spots=2" in d.current_url and "table_max=3" in d.current_url
    # a long run: the bar moves, Stop keeps the rounds played so far
    rounds = d.find_element(By.ID, "f-rounds")
    rounds.clear()
    rounds.send_keys("1e9")
    d.find_element(By.ID, "sim-start").click()
    bar = d.find_element(By.ID, "sim-progress")
    # (the bar still shows the run before until the new one answers: wait for Stop, which
    # only a running job enables)
    wait_until(lambda: d.find_element(By.ID, "sim-stop").is_enabled()
               and float(bar.get_attribute("value")) > 0)
    d.find_element(By.ID, "sim-stop").click()
    wait_until(lambda: "PARTIAL" in text_of(d, "sim-figures"))
    assert "stopped" in text_of(d, "sim-done")
    assert d.find_element(By.ID, "sim-start").is_enabled()
    partial = text_of(d, "sim-rounds")
    # bad rounds: the message beside the field, the partial result still shown
    rounds.clear()
    rounds.send_keys("0")
    d.find_element(By.ID, "sim-start").click()
    wait_until(lambda: "whole number" in error_beside(d, "rounds"))
    assert text_of(d, "sim-rounds") == partial
    # a table maximum below the minimum: found by the simulator, shown beside its field
    rounds.clear()
    rounds.send_keys("1000")
    box = d.find_element(By.ID, "f-table_max")
    box.clear()
    box.send_keys("0.5")
    d.find_element(By.ID, "sim-start").click()
    wait_until(lambda: "table_max" in error_beside(d, "table_max"))
    assert error_beside(d, "rounds") == ""


def test_an_index_file_uploaded_on_counting_and_simulate(server, driver, tmp_path,
                                                        counted_game):
    from bjsolve.counting.indices import index_table_from_file
    from bjsolve.web.simjobs import WEB_CHUNK_ROUNDS
    d = driver
    text = ("# insurance: take at TC >= +3\n16 10 1 0 0 2 0 1 +1000\n"
            "12 3 1 0 0 2 2 1 +1000\n11 1 1 0 0 2 1 3 +1000\n")
    good, bad = tmp_path / "mine.txt", tmp_path / "bad.txt"
    good.write_text(text)
    bad.write_text("16 10 1 0 0 2 0 1 +1000\n12 3 1 0 0 9 2 1 +1000\n")
    rules = bjsolve.Rules.parse("1D H17 no DAS")
    d.get(server + "counting?rules=1D+H17+no+DAS&penetration=0.5&ramp=0:1,1:2,2:4"
          "&bankroll=200")
    basic = counted_game("1D H17 no DAS", "hilo", penetration=0.5).evaluate("0:1,1:2,2:4",
                                                                           200)
    wait_until(lambda: text_of(d, "fig-score") == f"{basic.score:.2f}", timeout=600)
    # a bad file: the parser's message beside the field, the figures and the list kept
    d.find_element(By.ID, "f-index-file").send_keys(str(bad))
    wait_until(lambda: "line 2" in error_beside(d, "indices"))
    assert "play" in error_beside(d, "indices")
    assert d.find_element(By.ID, "f-indices").get_attribute("value") == ""
    assert text_of(d, "fig-score") == f"{basic.score:.2f}"
    # a good one: the figures of the counted game with that file's table, its key in the link
    d.find_element(By.ID, "f-index-file").send_keys(str(good))
    table = index_table_from_file(text, rules, "hilo")
    want = counted_game("1D H17 no DAS", "hilo", penetration=0.5,
                        index_text=text).evaluate("0:1,1:2,2:4", 200)
    assert f"{want.score:.2f}" != f"{basic.score:.2f}"      # the file shows on the page
    wait_until(lambda: text_of(d, "fig-score") == f"{want.score:.2f}", timeout=600)
    assert text_of(d, "fig-win_rate") == f"{want.win_rate:+.4f}"
    assert error_beside(d, "indices") == ""
    assert "indices=file%3A" in d.current_url
    # the link opened again shows the file chosen in the list
    d.get(d.current_url)
    chosen = d.find_element(By.CSS_SELECTOR, "#f-indices option:checked").text
    assert chosen.startswith("mine.txt")
    # Simulate: the same file, run with a seed, is the library's simulate with its table
    d.get(server + "simulate?rules=1D+H17+no+DAS&penetration=0.5&rounds=100000&seed=5"
          "&ramp=0:1,1:2,2:4")
    d.find_element(By.ID, "f-index-file").send_keys(str(good))
    wait_until(lambda: "indices=file%3A" in d.current_url)
    d.find_element(By.ID, "sim-start").click()
    ran = bjsolve.simulate(rules, rounds=100_000, seed=5, penetration=0.5, system="hilo",
                           ramp="0:1,1:2,2:4", indices=table, chunk_rounds=WEB_CHUNK_ROUNDS)
    wait_until(lambda: text_of(d, "sim-mean") == f"{ran.mean:+.5f}")


def test_pick_a_preset_and_read_the_edge_back(server, driver):
    from selenium.webdriver.support.ui import Select
    d = driver
    d.get(server)
    free_bet = bjsolve.Rules.preset("free-bet")
    sol = bjsolve.solve(free_bet)
    Select(d.find_element(By.ID, "f-preset")).select_by_value("free-bet")
    wait_until(lambda: text_of(d, "edge-optimal") == pct(-sol.expected_value))
    assert text_of(d, "edge-chart") == pct(-sol.evaluate(sol.strategy))
    wait_until(lambda: chart_on_page(d) == sol.strategy.rows)
    # the panel is filled: the fields, and the summary with the game's own rules
    summary = d.find_element(By.ID, "f-rules").get_attribute("value")
    assert bjsolve.Rules.parse(summary) == free_bet
    assert d.find_element(By.ID, "f-h17").is_selected()
    assert d.find_element(By.ID, "f-surrender").get_attribute("value") == "none"
    assert "P22" in d.current_url

    # a field changed: the game's rules stay, the list says "custom"
    d.find_element(By.ID, "f-h17").click()
    s17 = bjsolve.solve(bjsolve.Rules.preset("free-bet", hit_soft_17=False))
    wait_until(lambda: text_of(d, "edge-optimal") == pct(-s17.expected_value))
    assert d.find_element(By.ID, "f-preset").get_attribute("value") == ""

    # a game the pages do not show (Blackjack Switch: the library solves it, the pages'
    # tables are one hand's): the library's message beside the summary
    from bjsolve.exact.switch import PAGES_REFUSAL
    Select(d.find_element(By.ID, "f-preset")).select_by_value("blackjack-switch")
    wait_until(lambda: error_beside(d, "rules") == PAGES_REFUSAL)
    # ... and the page stays usable: a classic preset answers again
    Select(d.find_element(By.ID, "f-preset")).select_by_value("vegas-strip")
    strip = bjsolve.solve(bjsolve.Rules.preset("vegas-strip"))
    wait_until(lambda: text_of(d, "edge-optimal") == pct(-strip.expected_value))
    assert error_beside(d, "rules") == ""
