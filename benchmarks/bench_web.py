"""The web app in headless Chromium: how long a first load and a rule change take, and
screenshots of each page.

    python benchmarks/bench_web.py                      # timings
    python benchmarks/bench_web.py --screenshots docs   # and docs/web-*.png

Needs the web extra, Selenium and a Chromium with its driver (Debian: chromium,
chromium-driver).  Timings are what a user waits for: from the navigation (or the click on
a rule) until the new house edge is on the page; a rule change includes the debounce.
"""
import argparse
import os
import socket
import statistics
import subprocess
import sys
import time


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-m", "bjsolve", "serve", "--no-browser",
                             "--port", str(port)], stdout=subprocess.PIPE, text=True)
    proc.stdout.readline()            # "serving on ..." once the socket listens
    return proc


def browser(width=1280, height=1000, scale=1.0):
    from selenium import webdriver
    options = webdriver.ChromeOptions()
    options.add_argument(f"--force-device-scale-factor={scale}")
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu",
                 f"--window-size={width},{height}", "--disable-dev-shm-usage"):
        options.add_argument(flag)
    if os.path.exists("/usr/bin/chromium"):
        options.binary_location = "/usr/bin/chromium"
    service = None
    if os.path.exists("/usr/bin/chromedriver"):
        from selenium.webdriver.chrome.service import Service
        service = Service("/usr/bin/chromedriver")
    return webdriver.Chrome(options=options, service=service)


def wait_for(condition, timeout=30.0, step=0.005):
    end = time.perf_counter() + timeout
    while time.perf_counter() < end:
        value = condition()
        if value:
            return value
        time.sleep(step)
    raise TimeoutError("the page did not update")


def edge_text(driver) -> str:
    from selenium.webdriver.common.by import By
    found = driver.find_elements(By.ID, "edge-chart")
    return found[0].text if found else ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--screenshots", metavar="DIR", help="save web-*.png there")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    from selenium.webdriver.common.by import By
    port = free_port()
    server = start_server(port)
    # screenshots drawn at 0.75 scale: small PNGs for docs/, still readable
    driver = browser(scale=0.75 if args.screenshots else 1.0)
    base = f"http://127.0.0.1:{port}"
    try:
        loads = []
        for i in range(args.repeat):
            decks = (2, 4, 5, 7, 3, 6, 8)[i % 7]      # a new solve each time: not cached
            t0 = time.perf_counter()
            driver.get(f"{base}/?rules={decks}D+H17+DAS")   # (not the warm-up's S17)
            wait_for(lambda: edge_text(driver))
            loads.append(time.perf_counter() - t0)
        driver.get(f"{base}/?rules=6D+S17+DAS+LS")
        changes = []
        for i in range(args.repeat):
            # a payout not used before (untimed), so that the timed click asks for rules
            # never solved in this server: no answer comes from the cache
            payout = driver.find_element(By.ID, "f-payout")
            before = driver.find_element(By.ID, "out-edge").get_attribute("innerHTML")
            payout.clear()
            payout.send_keys(f"{1.5 + (i + 1) / 1000:g}")
            wait_for(lambda before=before: driver.find_element(By.ID, "out-edge")
                     .get_attribute("innerHTML") != before)
            time.sleep(0.5)         # the exceptions that follow the chart are done too
            box = driver.find_element(By.ID, "f-h17")
            before = driver.find_element(By.ID, "out-edge").get_attribute("innerHTML")
            t0 = time.perf_counter()
            box.click()
            wait_for(lambda before=before: driver.find_element(By.ID, "out-edge")
                     .get_attribute("innerHTML") != before)
            changes.append(time.perf_counter() - t0)
            time.sleep(0.5)
        print(f"first load of a page with a new 2..8-deck solve: median "
              f"{statistics.median(loads):.3f} s, max {max(loads):.3f} s ({len(loads)} loads)")
        print(f"6D rule change (H17/S17 click, rules not solved before) to new edge and chart "
              f"on the page: median "
              f"{statistics.median(changes):.3f} s, max {max(changes):.3f} s "
              f"({len(changes)} changes)")
        if args.screenshots:
            shots = {"web-edge.png": (f"{base}/?rules=6D+H17+DAS+LS", "exceptions-table"),
                     "web-hand.png": (f"{base}/hand?rules=6D+H17+DAS+LS&hand=T6+v+9",
                                      "actions"),
                     "web-counting.png": (f"{base}/counting?rules=6D+H17+DAS+LS"
                                          "&ramp=0:1,1:2,2:4,3:8,4:12&bankroll=1000&unit=25",
                                          "figures")}
            for name, (url, shown) in shots.items():
                driver.get(url)
                wait_for(lambda shown=shown: driver.find_elements(By.ID, shown), timeout=300)
                time.sleep(0.5)
                height = driver.execute_script("return document.body.scrollHeight")
                driver.set_window_size(1280, min(max(height + 160, 700), 2400))
                path = os.path.join(args.screenshots, name)
                driver.save_screenshot(path)
                print("saved", path)
                driver.set_window_size(1280, 1000)
            save_simulate_screenshot(driver, base, args.screenshots)
    finally:
        driver.quit()
        server.terminate()
        server.wait()
    return 0


def save_simulate_screenshot(driver, base: str, directory: str) -> None:
    """web-simulate.png: a run of 1e7 rounds started with the Run button, shown when done."""
    from selenium.webdriver.common.by import By
    driver.get(f"{base}/simulate?rules=6D+H17+DAS+LS&indices=i18&ramp=0:1,1:2,2:4,3:8,4:12"
               "&unit=25&rounds=1e7&seed=1")
    driver.find_element(By.ID, "sim-start").click()
    wait_for(lambda: driver.find_elements(By.ID, "sim-figures"), timeout=600)
    time.sleep(0.5)
    height = driver.execute_script("return document.body.scrollHeight")
    driver.set_window_size(1280, min(max(height + 160, 700), 2400))
    path = os.path.join(directory, "web-simulate.png")
    driver.save_screenshot(path)
    print("saved", path)
    driver.set_window_size(1280, 1000)


if __name__ == "__main__":
    sys.exit(main())
