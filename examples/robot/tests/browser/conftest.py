"""Fixtures of the inspector's browser tests: the robot binary (built with
`--features inspect`), Debian's headless Chromium driven through chromedriver by selenium,
and helpers to wait for what a person would see.

Nothing here skips: a missing binary, browser or driver is an error (CI must fail, not pass
quietly). Screenshots go to $INSPECTOR_ARTIFACTS (default target/browser-artifacts).
"""

import json
import os
import pathlib
import re
import shutil
import signal
import subprocess
import tempfile
import time

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

ROOT = pathlib.Path(__file__).resolve().parents[4]
BIN = pathlib.Path(os.environ.get("ROBOT_EXAMPLE_BIN", ROOT / "target" / "debug" / "robot-example"))
# Writes a behavior tree shaped like the original robot's (430-odd behaviors) to a directory:
# `cargo build -p robot-runtime-tests --bin shaped-tree`.
SHAPED_TREE = pathlib.Path(os.environ.get("SHAPED_TREE_BIN", ROOT / "target" / "debug" / "shaped-tree"))
ARTIFACTS = pathlib.Path(os.environ.get("INSPECTOR_ARTIFACTS", ROOT / "target" / "browser-artifacts"))
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
NGINX = "/usr/sbin/nginx"
OPENSSL = "/usr/bin/openssl"

# Selenium must never fetch a driver or a browser of its own.
os.environ["SE_OFFLINE"] = "true"


def wait_for(what, check, timeout=20.0, every=0.1):
    """Polls `check` until it returns something truthy; fails with `what` after `timeout`."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            last = check()
        except Exception as e:  # the page may be re-rendering
            last = e
        if last and not isinstance(last, Exception):
            return last
        time.sleep(every)
    raise AssertionError(f"timed out waiting for {what} (last: {last!r})")


class Robot:
    """A `robot-example` process with the inspector."""

    def __init__(self, args, workdir):
        self.workdir = pathlib.Path(workdir)
        self.out = open(self.workdir / f"stdout-{id(self)}.txt", "w+")
        self.err = open(self.workdir / f"stderr-{id(self)}.txt", "w+")
        env = dict(os.environ, NO_COLOR="1")
        self.proc = subprocess.Popen([str(BIN), *args], stdout=self.out, stderr=self.err,
                                     stdin=subprocess.DEVNULL, env=env, cwd=ROOT)
        self.url = None

    def stderr(self):
        self.err.flush()
        return (pathlib.Path(self.err.name)).read_text()

    def stdout(self):
        self.out.flush()
        return (pathlib.Path(self.out.name)).read_text()

    def wait_url(self, timeout=60):
        """The page's address the robot printed. Standard error is not a terminal here, so
        the robot printed its address without the token (`#token=<--inspect-token>`):
        `url` is the bare address; `page_url(token)` puts a token in its fragment."""
        def found():
            m = re.search(r"inspect: open (http://[^\s#]+)(#token=\S+)? in a browser", self.stderr())
            if not m and self.proc.poll() is not None:
                raise AssertionError(f"the robot exited ({self.proc.returncode}): {self.stderr()}")
            return m and m.group(1)
        self.url = wait_for("the inspector's address on stderr", found, timeout)
        return self.url

    def page_url(self, token=None):
        return self.url + (f"#token={token}" if token else "")

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.out.close()
        self.err.close()


@pytest.fixture(scope="session")
def binary():
    if not BIN.exists():
        pytest.fail(f"{BIN} is missing: build it with "
                    "`cargo build -p robot-example --features inspect --bin robot-example`")
    return BIN


@pytest.fixture
def robots(binary, tmp_path):
    started = []

    def start(*args, wait=True):
        r = Robot(args, tmp_path)
        started.append(r)
        if wait:
            r.wait_url()
        return r

    yield start
    for r in started:
        r.stop()


@pytest.fixture(scope="session")
def shaped_tree_bin():
    if not SHAPED_TREE.exists():
        pytest.fail(f"{SHAPED_TREE} is missing: build it with "
                    "`cargo build -p robot-runtime-tests --bin shaped-tree`")
    return SHAPED_TREE


def chromium(extra=(), downloads=None):
    """Debian's headless Chromium through its chromedriver (a profile of its own; `extra`
    arguments; downloads into `downloads`)."""
    for path in (CHROMIUM, CHROMEDRIVER):
        if not os.access(path, os.X_OK):
            pytest.fail(f"{path} is missing: install Debian's chromium and chromium-driver "
                        "(bash .ci/setup-browser)")
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    profile = tempfile.mkdtemp(prefix="inspector-chromium-")
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
              "--no-first-run", "--disable-background-networking",
              "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
              "--window-size=1600,1000", f"--user-data-dir={profile}", *extra):
        opts.add_argument(a)
    if downloads:
        opts.add_experimental_option("prefs", {"download.default_directory": str(downloads),
                                               "download.prompt_for_download": False})
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    driver.set_page_load_timeout(30)
    if downloads:
        driver.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
    driver._profile_dir = profile
    return driver


def close_chromium(driver):
    driver.quit()
    shutil.rmtree(driver._profile_dir, ignore_errors=True)


@pytest.fixture(scope="session")
def browser():
    driver = chromium()
    yield driver
    close_chromium(driver)


@pytest.fixture
def page(browser):
    """The browser, checked after each test for script errors in the page."""
    yield browser
    # Refused loads (the token test's 401s) are the server's answers, and a page reconnecting
    # to a robot a test already stopped is refused by nobody: neither is the page's error.
    errors = [l for l in browser.get_log("browser") if l.get("level") == "SEVERE"
              and "Failed to load resource" not in l.get("message", "")
              and "Error during WebSocket handshake" not in l.get("message", "")
              and "ERR_CONNECTION_REFUSED" not in l.get("message", "")]
    assert not errors, f"the page logged errors: {errors}"


def screenshot(driver, name):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    driver.save_screenshot(str(path))
    return path


def read_trace(path):
    """The trace's events (the header line apart)."""
    lines = [json.loads(l) for l in pathlib.Path(path).read_text().splitlines() if l.strip()]
    assert lines and lines[0]["event"] == "tree", "the trace starts with its tree header"
    return lines[1:]


def stack_at(events, tick):
    """The stack the trace records at the end of `tick` (base names, as the page shows them)."""
    stack = []
    for e in events:
        if e["tick"] > tick:
            break
        if e["event"] == "stack":
            stack = e["stack"]
    return " > ".join(s.split("(")[0] for s in stack)


def js_attr(driver, css, name):
    """An attribute of the first element matching `css`, read in one go (the page re-renders
    often, so element references go stale)."""
    return driver.execute_script(
        "const e = document.querySelector(arguments[0]); return e ? e.getAttribute(arguments[1]) : null;",
        css, name)


def js_text(driver, css):
    """The text of the first element matching `css` (None when there is none)."""
    return driver.execute_script(
        "const e = document.querySelector(arguments[0]); return e ? e.innerText : null;", css)


def click(driver, css, timeout=10):
    """Clicks the element matching `css`, again if the page re-rendered it meanwhile."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By

    def attempt():
        try:
            driver.find_element(By.CSS_SELECTOR, css).click()
            return True
        except StaleElementReferenceException:
            return False
    wait_for(f"a click on {css}", attempt, timeout)


def fill_breakpoint(driver, on, target):
    """Fills the page's breakpoint form: what it breaks on (`activation`, `condition`, ...)
    and the behavior it watches."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    Select(driver.find_element(By.ID, "break-on")).select_by_value(on)
    box = driver.find_element(By.ID, "break-target")
    box.clear()
    box.send_keys(target)


def add_breakpoint(driver, on, target):
    """Sets a breakpoint from the page's form (see `fill_breakpoint`)."""
    from selenium.webdriver.common.by import By

    fill_breakpoint(driver, on, target)
    driver.find_element(By.ID, "break-add").click()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """On a failure, a screenshot of the page and what it showed as its last reply."""
    outcome = yield
    report = outcome.get_result()
    if report.when == "call" and report.failed and "page" in item.fixturenames:
        driver = item.funcargs.get("page")
        if driver is not None:
            try:
                path = screenshot(driver, f"failed-{item.name}")
                report.sections.append(("inspector", f"screenshot: {path}\nreply: {js_text(driver, '#reply')}"))
            except Exception as e:  # the browser may be gone
                report.sections.append(("inspector", f"no screenshot: {e}"))
