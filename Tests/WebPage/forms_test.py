#!/usr/bin/env python3
"""Plural forms in a real headless Chromium: a .stringsdict entry, a catalog's plural variations, a catalog's device
variations and a .stringsdict's device entries are edited as their forms, one labelled textarea each; a form whose
specifiers the daemon's verdict (/api/check) finds wrong is flagged and not saved.

Usage: forms_test.py URL_WITH_TOKEN
Exit 0 when every check passes, 77 when Chromium or Selenium is missing (the reason on stdout), 1 otherwise.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser  # noqa: E402
from browser import By, cell, choose, rows, status, wait  # noqa: E402

url = sys.argv[1]


def editors():
    """The open editors by name: variable.form, device, or device.variable.form."""
    found = {}
    for e in driver.find_elements(By.CSS_SELECTOR, "[data-role=editor]"):
        parts = [e.get_attribute(name) for name in ("data-device", "data-variable", "data-form")]
        found[".".join(part for part in parts if part)] = e
    return found


def set_form(name, value):
    editor = editors()[name]
    driver.execute_script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'));",
                          editor, value)


def open_editors(table, key, names):
    """Opens German's `key` of `table` (searched alone) and waits for its editors to be `names`."""
    search = driver.find_element(By.CSS_SELECTOR, "[data-role=search]")
    search.clear()
    choose(driver, "table", table)
    search.send_keys(key)
    wait(driver, f"{key} alone", lambda: rows(driver) == [key])
    cell(driver, key, "de").click()
    wait(driver, f"the editors of {key}", lambda: sorted(editors()) == names)


def flagged_then_saved(name, bad, problem, good, key):
    """Types `bad` into the editor `name` and waits for `problem` to be flagged, then saves `good` for `key`."""
    set_form(name, bad)
    wait(driver, f"the problem of {name}",
         lambda: problem in driver.find_element(By.CSS_SELECTOR, "[data-role=problem]").text)
    set_form(name, good)
    wait(driver, f"no problem with {name}",
         lambda: not driver.find_element(By.CSS_SELECTOR, "[data-role=problem]").text)
    driver.find_element(By.CSS_SELECTOR, "[data-action=save]").click()
    wait(driver, f"saved {key}", lambda: f"saved {key}" in status(driver))


with browser.checked() as (driver, failures):
    driver.get(url)
    wait(driver, "the rows", lambda: "items.count" in rows(driver))
    search = driver.find_element(By.CSS_SELECTOR, "[data-role=search]")
    search.send_keys("items.count")
    wait(driver, "items.count alone", lambda: rows(driver) == ["items.count"])

    # A .stringsdict entry opens as its forms.
    cell(driver, "items.count", "de").click()
    wait(driver, "the forms", lambda: sorted(editors()) == ["items.one", "items.other"])
    if editors()["items.one"].get_attribute("value") != "%d Eintrag":
        failures.append(f"the one form reads {editors()['items.one'].get_attribute('value')!r}")

    # A form with another specifier is flagged by the daemon's verdict and refused.
    set_form("items.other", "%@ Einträge")
    wait(driver, "the problem", lambda: driver.find_element(By.CSS_SELECTOR, "[data-role=problem]").text
         == "error: 'items.count', form 'other' of 'items': '%@' takes argument 1 as an object, where en's "
            "'%#@items@' takes an integer")
    driver.find_element(By.CSS_SELECTOR, "[data-action=save]").click()
    wait(driver, "the refusal", lambda: "not saved" in status(driver))

    # A good form is saved (one set naming the form and variable).
    set_form("items.other", "%d Einträge")
    set_form("items.one", "%d Posten")
    wait(driver, "no problem", lambda: not driver.find_element(By.CSS_SELECTOR, "[data-role=problem]").text)
    driver.find_element(By.CSS_SELECTOR, "[data-action=save]").click()
    wait(driver, "saved", lambda: "saved items.count" in status(driver))

    # A catalog's plural variations open as their forms too, and save into the catalog.
    search.clear()
    choose(driver, "table", "Settings")
    search.send_keys("files selected")
    wait(driver, "the catalog key", lambda: rows(driver) == ["%lld files selected"])
    cell(driver, "%lld files selected", "de").click()
    wait(driver, "the catalog's forms", lambda: {k.split(".")[-1] for k in editors()} == {"one", "other"})
    other = next(name for name in editors() if name.endswith(".other"))
    set_form(other, "%lld Dateien gewählt")
    driver.find_element(By.CSS_SELECTOR, "[data-action=save]").click()
    wait(driver, "saved the catalog form", lambda: "saved %lld files selected" in status(driver))
    wait(driver, "the new plain text", lambda: cell(driver, "%lld files selected", "de").text == "%lld Dateien gewählt")

    # A catalog's device variations open as each device's text; a device's text that takes an argument English's
    # (`Tap to continue`, no format) does not is flagged as a warning; a changed device's text is saved (one set
    # naming the device).
    search.clear()
    search.send_keys("Tap to continue")
    wait(driver, "the device key", lambda: rows(driver) == ["Tap to continue"])
    cell(driver, "Tap to continue", "de").click()
    wait(driver, "the devices", lambda: sorted(editors()) == ["mac", "other"])
    if editors()["mac"].get_attribute("value") != "Klicken, um fortzufahren":
        failures.append(f"the mac text reads {editors()['mac'].get_attribute('value')!r}")
    set_form("other", "%@ tippen")
    wait(driver, "the device's warning",
         lambda: "warning: 'Tap to continue', device 'other': '%@' takes argument 1"
         in driver.find_element(By.CSS_SELECTOR, "[data-role=problem]").text)
    set_form("other", "Tippen, um fortzufahren")
    set_form("mac", "Klick, um fortzufahren")
    wait(driver, "no device problem", lambda: not driver.find_element(By.CSS_SELECTOR, "[data-role=problem]").text)
    driver.find_element(By.CSS_SELECTOR, "[data-action=save]").click()
    wait(driver, "saved the device's text", lambda: "saved Tap to continue" in status(driver))

    # A device that varies by plural inside opens as that device's forms beside the other devices' texts.
    open_editors("Devices", "photos %lld", ["iphone.plural.one", "iphone.plural.other", "other"])
    flagged_then_saved("iphone.plural.one", "%@ Foto", "error: 'photos %lld', device 'iphone', form 'one' of 'plural'",
                       "ein Foto (%lld)", "photos %lld")

    # A .stringsdict entry's NSStringDeviceSpecificRuleType opens as each device's text or forms too; a device's
    # text with another specifier is flagged, and a good one is saved into the .stringsdict (a set naming the device).
    open_editors("Gestures", "hint", ["iphone.n.one", "iphone.n.other", "mac", "other"])
    if editors()["mac"].get_attribute("value") != "Klicken, %@":
        failures.append(f"the .stringsdict's mac text reads {editors()['mac'].get_attribute('value')!r}")
    flagged_then_saved("mac", "Klicken, %d", "error: 'hint', device 'mac': '%d' takes argument 1 as an integer",
                       "Klick, %@", "hint")
