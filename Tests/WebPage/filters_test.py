#!/usr/bin/env python3
"""The page's filters in a real headless Chromium: the keys apps reported missing or served by a fallback, and
the String Catalog states (table Review: a.new, b.review, c.stale, d.done in de).

Usage: filters_test.py URL_WITH_TOKEN
Exit 0 when every check passes, 77 when Chromium or Selenium is missing (the reason on stdout), 1 otherwise.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser  # noqa: E402
from browser import By, choose, rows, wait  # noqa: E402

url = sys.argv[1]


def check(condition, message):
    if not condition:
        failures.append(message)


with browser.checked() as (driver, failures):
    driver.get(url)
    wait(driver, "the rows", lambda: "greeting" in rows(driver))

    # Reported missing: the key no table has gets a row of missing cells, with what the apps reported.
    choose(driver, "filter", "reported-missing")
    wait(driver, "the reported missing key", lambda: rows(driver) == ["promo.banner"])
    note = driver.find_element(By.CSS_SELECTOR, '[data-key="promo.banner"] [data-role=report]')
    check("missing in de-CH" in note.text and "3" in note.text, f"the missing report reads {note.text!r}")
    cells = driver.find_elements(By.CSS_SELECTOR, '[data-key="promo.banner"] [data-language]')
    check(cells and all("missing" in c.get_attribute("class") and c.text == "" for c in cells),
          "a reported key's cells are not empty and marked missing")

    # Reported through a fallback: the key the tables have, with the language that served it.
    choose(driver, "filter", "reported-fallback")
    wait(driver, "the reported fallback key", lambda: rows(driver) == ["files.header"])
    note = driver.find_element(By.CSS_SELECTOR, '[data-key="files.header"] [data-role=report]')
    check("served by en" in note.text, f"the fallback report reads {note.text!r}")

    choose(driver, "filter", "all")
    wait(driver, "every key again", lambda: len(rows(driver)) > 2)

    # Catalog states: each filter shows the keys in that state, the cell says it.
    choose(driver, "table", "Review")
    wait(driver, "the catalog's rows", lambda: rows(driver) == ["a.new", "b.review", "c.stale", "d.done"])
    for state, key in [("new", "a.new"), ("needs_review", "b.review"), ("stale", "c.stale")]:
        choose(driver, "filter", "state-" + state)
        wait(driver, f"the {state} keys", lambda: rows(driver) == [key])
        shown = browser.cell(driver, key, "de").get_attribute("data-state")
        check(shown == state, f"{key} in de is marked {shown!r}")

    # Saving a value translates it: the key leaves the filter once the reload arrives.
    choose(driver, "filter", "state-needs_review")
    wait(driver, "b.review", lambda: rows(driver) == ["b.review"])
    browser.cell(driver, "b.review", "de").click()
    editor = wait(driver, "the editor", lambda: driver.find_element(By.CSS_SELECTOR, "[data-role=editor]"))
    editor.send_keys(" geprüft")
    driver.find_element(By.CSS_SELECTOR, "[data-action=save]").click()
    wait(driver, "saved", lambda: "saved" in browser.status(driver))
    wait(driver, "the reviewed key to leave the filter", lambda: rows(driver) == [])
