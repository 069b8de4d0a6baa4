"""Headless Chromium for the page's Selenium tests: starts the driver, or exits 77 with the reason when Chromium,
its driver or Selenium is missing. Waits are WebDriverWait deadlines, generous for a loaded 2-core machine."""
import contextlib
import os
import sys

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait
except ImportError as error:
    print(f"selenium is not installed: {error}")
    sys.exit(77)

TIMEOUT = 30


def start(logs_requests=False):
    """A headless Chromium (keeping Chrome's performance log, with every request, when `logs_requests`), or exit 77
    when there is none."""
    chromium = next((p for p in ["/usr/bin/chromium", "/usr/bin/chromium-browser"] if os.path.exists(p)), None)
    driver_path = next((p for p in ["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"] if os.path.exists(p)),
                       None)
    if chromium is None or driver_path is None:
        print("chromium or chromium-driver is not installed")
        sys.exit(77)
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1200,800"]:
        options.add_argument(argument)
    if logs_requests:
        options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    options.binary_location = chromium
    return webdriver.Chrome(service=Service(driver_path), options=options)


@contextlib.contextmanager
def checked(logs_requests=False):
    """A headless Chromium and the list of failures a test's checks append to; at the end the browser quits and the
    test exits, 1 with each failure printed or 0. A check that raises (a wait that timed out) ends the test with its
    exception."""
    driver = start(logs_requests)
    failures = []
    try:
        yield driver, failures
    finally:
        driver.quit()
    for failure in failures:
        print("FAIL:", failure)
    sys.exit(1 if failures else 0)


def wait(driver, what, condition):
    """The condition's first truthy value, or an AssertionError naming `what` after TIMEOUT seconds."""
    return WebDriverWait(driver, TIMEOUT, poll_frequency=0.05, ignored_exceptions=(Exception,)).until(
        lambda d: condition(), message=f"timed out waiting for {what}")


def rows(driver):
    """The keys of the rows shown, in order."""
    return [r.get_attribute("data-key") for r in driver.find_elements(By.CSS_SELECTOR, "[data-key][data-table]")]


def choose(driver, role, value):
    """Picks `value` in the select `[data-role=role]` (and the page gets its change event)."""
    Select(driver.find_element(By.CSS_SELECTOR, f"[data-role={role}]")).select_by_value(value)


def cell(driver, key, language, table=None):
    table_part = f'[data-table="{table}"]' if table else "[data-table]"
    return driver.find_element(By.CSS_SELECTOR, f'[data-key="{key}"]{table_part} [data-language="{language}"]')


def status(driver):
    return driver.find_element(By.CSS_SELECTOR, "[data-role=status]").text
