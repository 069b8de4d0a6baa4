#!/usr/bin/env python3
"""Pseudo-languages in a real headless Chromium: marked as such, last, and read-only.

Usage: pseudo_test.py URL_WITH_TOKEN
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
    headers = [th.text for th in driver.find_elements(By.CSS_SELECTOR, "[data-role=head] th")]
    marked = [th.text for th in driver.find_elements(By.CSS_SELECTOR, "[data-role=head] th[data-pseudo]")]
    if headers[-2:] != ["ar-XB", "en-XA"] or marked != ["ar-XB", "en-XA"]:
        failures.append(f"the headers read {headers!r}, marked {marked!r}")
    if driver.find_element(By.CSS_SELECTOR, "[data-role=read-only]").is_displayed():
        failures.append("a bundle that takes edits is shown read-only")
    pseudo = cell(driver, "greeting", "en-XA")
    if pseudo.get_attribute("data-pseudo") != "true" or not pseudo.text:
        failures.append(f"the en-XA cell reads {pseudo.text!r}, data-pseudo {pseudo.get_attribute('data-pseudo')!r}")
    pseudo.click()
    wait(driver, "the read-only notice", lambda: "pseudo-language" in status(driver))
    if driver.find_elements(By.CSS_SELECTOR, "[data-role=editor]"):
        failures.append("a pseudo-language's cell opened an editor")
