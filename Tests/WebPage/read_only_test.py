#!/usr/bin/env python3
"""A bundle managed by pull in a real headless Chromium: shown, with the reason it is read-only, and never edited.

Usage: read_only_test.py URL_WITH_TOKEN
Exit 0 when every check passes, 77 when Chromium or Selenium is missing (the reason on stdout), 1 otherwise.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser  # noqa: E402
from browser import By, cell, rows, status, wait  # noqa: E402

url = sys.argv[1]
with browser.checked() as (driver, failures):
    driver.get(url)
    wait(driver, "the rows", lambda: "greeting" in rows(driver))
    notice = driver.find_element(By.CSS_SELECTOR, "[data-role=read-only]")
    wait(driver, "the read-only notice", lambda: notice.is_displayed() and "managed by pull" in notice.text)
    if driver.find_element(By.TAG_NAME, "body").get_attribute("data-read-only") is None:
        failures.append("the page is not marked data-read-only")
    german = cell(driver, "greeting", "de")
    if german.get_attribute("data-read-only") != "true" or german.text != "Hallo!":
        failures.append(f"the de cell reads {german.text!r}, data-read-only {german.get_attribute('data-read-only')!r}")
    german.click()
    wait(driver, "the read-only status", lambda: "read-only" in status(driver))
    missing = driver.find_elements(By.CSS_SELECTOR, "td.missing")
    if missing:
        missing[0].click()
    if driver.find_elements(By.CSS_SELECTOR, "[data-role=editor]"):
        failures.append("a cell of a bundle managed by pull opened an editor")
