#!/usr/bin/env python3
"""The translator's page in a real headless Chromium (Selenium), against a running daemon.

Usage: page_test.py URL_WITH_TOKEN BUNDLE SOCKET HOTSTRINGS SCREENSHOT
Exit 0 when every check passes, 77 when Chromium or Selenium is missing (the reason on stdout), 1 otherwise.
"""
import os
import subprocess
import sys
import time

try:
    from selenium import webdriver
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.chrome.service import Service
except ImportError as error:
    print(f"selenium is not installed: {error}")
    sys.exit(77)

url, bundle, socket_path, hotstrings, screenshot = sys.argv[1:6]
origin = url.split("/?")[0]


def wait(what, condition, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            value = condition()
            if value:
                return value
        except Exception:
            pass
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def cell(driver, key, language):
    return driver.find_element(By.CSS_SELECTOR, f'[data-key="{key}"][data-table="Localizable"] [data-language="{language}"]')


options = webdriver.ChromeOptions()
for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1200,800"]:
    options.add_argument(argument)
options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
chromium = next((path for path in ["/usr/bin/chromium", "/usr/bin/chromium-browser"] if os.path.exists(path)), None)
driver_path = next((path for path in ["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"] if os.path.exists(path)), None)
if chromium is None or driver_path is None:
    print("chromium or chromium-driver is not installed")
    sys.exit(77)
options.binary_location = chromium
driver = webdriver.Chrome(service=Service(driver_path), options=options)
failures = []
try:
    driver.get(url)
    wait("the redirect to the bare URL", lambda: "token=" not in driver.current_url)
    wait("the rows", lambda: driver.find_elements(By.CSS_SELECTOR, "[data-key][data-table]"))

    # Search narrows the rows.
    search = driver.find_element(By.CSS_SELECTOR, "[data-role=search]")
    search.send_keys("greeting")
    wait("the search", lambda: all("greeting" in r.get_attribute("data-key")
                                   for r in driver.find_elements(By.CSS_SELECTOR, "[data-key]")))

    # A language lacking a key shows an empty cell marked missing.
    search.clear()
    search.send_keys("files.header")
    missing = wait("files.header in de", lambda: cell(driver, "files.header", "de"))
    if missing.text != "" or "missing" not in missing.get_attribute("class"):
        failures.append(f"a missing value shows {missing.text!r}")

    # Edit a value with quotes, a backslash, an emoji and a newline; Ctrl+Enter saves.
    search.clear()
    search.send_keys("greeting")
    wait("greeting", lambda: cell(driver, "greeting", "en")).click()
    editor = wait("the editor", lambda: driver.find_element(By.CSS_SELECTOR, "[data-role=editor]"))
    value = 'Say "hi" \\ \U0001F600\nnext'
    editor.send_keys(Keys.CONTROL, "a")
    driver.execute_script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'));",
                          editor, value)
    editor.send_keys(Keys.CONTROL, Keys.ENTER)
    wait("saved", lambda: "saved" in driver.find_element(By.CSS_SELECTOR, "[data-role=status]").text)
    got = subprocess.run([hotstrings, "get", "greeting", "--language", "en", "--socket", socket_path],
                         capture_output=True, text=True)
    if got.stdout != value + "\n":
        failures.append(f"hotstrings get returned {got.stdout!r}")

    # A file changed on disk shows without a navigation.
    path = os.path.join(bundle, "de.lproj", "Localizable.strings")
    with open(path, encoding="utf-8") as file:
        text = file.read()
    with open(path + ".tmp", "w", encoding="utf-8") as file:
        file.write(text.replace("Hallo!", "Hallo von der Platte"))
    os.rename(path + ".tmp", path)
    wait("the value from disk", lambda: cell(driver, "greeting", "de").text == "Hallo von der Platte")

    # The daemon's verdict (/api/check) is shown as you type: an argument left out is a warning, one read as
    # another class an error, and refused.
    search.clear()
    search.send_keys("profile.online")
    target = wait("profile.online in de", lambda: cell(driver, "profile.online", "de"))
    before = target.text
    target.click()
    editor = wait("the editor", lambda: driver.find_element(By.CSS_SELECTOR, "[data-role=editor]"))
    problem = lambda: driver.find_element(By.CSS_SELECTOR, "[data-role=problem]")
    editor.send_keys(Keys.CONTROL, "a")
    editor.send_keys("niemand online")
    wait("the warning", lambda: problem().text == "warning: 'profile.online': argument 1 (en's '%@') is left out"
         and problem().get_attribute("data-severity") == "warning")
    editor.send_keys(Keys.CONTROL, "a")
    editor.send_keys("%d ist online")
    wait("the error", lambda: problem().text == "error: 'profile.online': '%d' takes argument 1 as an integer, "
         "where en's '%@' takes an object" and problem().get_attribute("data-severity") == "error")
    driver.find_element(By.CSS_SELECTOR, "[data-action=save]").click()
    wait("the refusal", lambda: "not saved" in driver.find_element(By.CSS_SELECTOR, "[data-role=status]").text)
    editor.send_keys(Keys.ESCAPE)
    if cell(driver, "profile.online", "de").text != before:
        failures.append("a refused value was kept")

    # An edit open on a value that changes meanwhile shows a conflict and is not saved.
    search.clear()
    search.send_keys("greeting")
    wait("greeting in de", lambda: cell(driver, "greeting", "de")).click()
    editor = wait("the editor", lambda: driver.find_element(By.CSS_SELECTOR, "[data-role=editor]"))
    editor.send_keys(" mine")
    with open(path, encoding="utf-8") as file:
        text = file.read()
    with open(path + ".tmp", "w", encoding="utf-8") as file:
        file.write(text.replace("Hallo von der Platte", "Hallo von jemand anderem"))
    os.rename(path + ".tmp", path)
    wait("the conflict", lambda: "conflict" in driver.find_element(By.CSS_SELECTOR, "[data-role=status]").text)
    driver.find_element(By.CSS_SELECTOR, "[data-action=save]").click()
    status = driver.find_element(By.CSS_SELECTOR, "[data-role=status]").text
    if "Not saved" not in status or "jemand anderem" not in status:
        failures.append(f"the conflict reads {status!r}")
    with open(path, encoding="utf-8") as file:
        if "mine" in file.read():
            failures.append("a conflicting edit was saved")

    driver.save_screenshot(screenshot)

    # Every request went to the daemon's origin.
    import json
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") == "Network.requestWillBeSent":
            request_url = message["params"]["request"]["url"]
            if not request_url.startswith(origin + "/"):
                failures.append(f"a request left the origin: {request_url}")
finally:
    driver.quit()

for failure in failures:
    print("FAIL:", failure)
sys.exit(1 if failures else 0)
