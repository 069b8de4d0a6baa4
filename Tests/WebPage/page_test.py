#!/usr/bin/env python3
"""The translator's page in a real headless Chromium (Selenium), against a running daemon.

Usage: page_test.py URL_WITH_TOKEN BUNDLE SOCKET HOTSTRINGS SCREENSHOT
Exit 0 when every check passes, 77 when Chromium or Selenium is missing (the reason on stdout), 1 otherwise.
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser  # noqa: E402
from browser import By, status, wait  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

url, bundle, socket_path, hotstrings, screenshot = sys.argv[1:6]
origin = url.split("/?")[0]


def cell(driver, key, language):
    return browser.cell(driver, key, language, table="Localizable")


with browser.checked(logs_requests=True) as (driver, failures):
    driver.get(url)
    wait(driver, "the redirect to the bare URL", lambda: "token=" not in driver.current_url)
    wait(driver, "the rows", lambda: driver.find_elements(By.CSS_SELECTOR, "[data-key][data-table]"))

    # Search narrows the rows.
    search = driver.find_element(By.CSS_SELECTOR, "[data-role=search]")
    search.send_keys("greeting")
    wait(driver, "the search", lambda: all("greeting" in r.get_attribute("data-key")
                                   for r in driver.find_elements(By.CSS_SELECTOR, "[data-key]")))

    # A language lacking a key shows an empty cell marked missing.
    search.clear()
    search.send_keys("files.header")
    missing = wait(driver, "files.header in de", lambda: cell(driver, "files.header", "de"))
    if missing.text != "" or "missing" not in missing.get_attribute("class"):
        failures.append(f"a missing value shows {missing.text!r}")

    # Edit a value with quotes, a backslash, an emoji and a newline; Ctrl+Enter saves.
    search.clear()
    search.send_keys("greeting")
    wait(driver, "greeting", lambda: cell(driver, "greeting", "en")).click()
    editor = wait(driver, "the editor", lambda: driver.find_element(By.CSS_SELECTOR, "[data-role=editor]"))
    value = 'Say "hi" \\ \U0001F600\nnext'
    editor.send_keys(Keys.CONTROL, "a")
    driver.execute_script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'));",
                          editor, value)
    editor.send_keys(Keys.CONTROL, Keys.ENTER)
    wait(driver, "saved", lambda: "saved" in status(driver))
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
    wait(driver, "the value from disk", lambda: cell(driver, "greeting", "de").text == "Hallo von der Platte")

    # The daemon's verdict (/api/check) is shown as you type: an argument left out is a warning, one read as
    # another class an error, and refused.
    search.clear()
    search.send_keys("profile.online")
    target = wait(driver, "profile.online in de", lambda: cell(driver, "profile.online", "de"))
    before = target.text
    target.click()
    editor = wait(driver, "the editor", lambda: driver.find_element(By.CSS_SELECTOR, "[data-role=editor]"))
    problem = lambda: driver.find_element(By.CSS_SELECTOR, "[data-role=problem]")
    editor.send_keys(Keys.CONTROL, "a")
    editor.send_keys("niemand online")
    wait(driver, "the warning",
         lambda: problem().text == "warning: 'profile.online': argument 1 (en's '%@') is left out"
         and problem().get_attribute("data-severity") == "warning")
    editor.send_keys(Keys.CONTROL, "a")
    editor.send_keys("%d ist online")
    wait(driver, "the error",
         lambda: problem().text == "error: 'profile.online': '%d' takes argument 1 as an integer, "
         "where en's '%@' takes an object" and problem().get_attribute("data-severity") == "error")
    driver.find_element(By.CSS_SELECTOR, "[data-action=save]").click()
    wait(driver, "the refusal", lambda: "not saved" in status(driver))
    editor.send_keys(Keys.ESCAPE)
    if cell(driver, "profile.online", "de").text != before:
        failures.append("a refused value was kept")

    # An edit open on a value that changes meanwhile shows a conflict and is not saved.
    search.clear()
    search.send_keys("greeting")
    wait(driver, "greeting in de", lambda: cell(driver, "greeting", "de")).click()
    editor = wait(driver, "the editor", lambda: driver.find_element(By.CSS_SELECTOR, "[data-role=editor]"))
    editor.send_keys(" mine")
    with open(path, encoding="utf-8") as file:
        text = file.read()
    with open(path + ".tmp", "w", encoding="utf-8") as file:
        file.write(text.replace("Hallo von der Platte", "Hallo von jemand anderem"))
    os.rename(path + ".tmp", path)
    wait(driver, "the conflict", lambda: "conflict" in status(driver))
    driver.find_element(By.CSS_SELECTOR, "[data-action=save]").click()
    shown = status(driver)
    if "Not saved" not in shown or "jemand anderem" not in shown:
        failures.append(f"the conflict reads {shown!r}")
    with open(path, encoding="utf-8") as file:
        if "mine" in file.read():
            failures.append("a conflicting edit was saved")

    driver.save_screenshot(screenshot)

    # Every request went to the daemon's origin.
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") == "Network.requestWillBeSent":
            request_url = message["params"]["request"]["url"]
            if not request_url.startswith(origin + "/"):
                failures.append(f"a request left the origin: {request_url}")
