"""Headless Chromium for the page's Selenium tests: starts the driver, or exits 77 with the reason when Chromium,
its driver or Selenium is missing. Waits are WebDriverWait deadlines, generous for a loaded 2-core machine."""
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


def start():
    """A headless Chromium, or exit 77 when there is none."""
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
    options.binary_location = chromium
    return webdriver.Chrome(service=Service(driver_path), options=options)


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
