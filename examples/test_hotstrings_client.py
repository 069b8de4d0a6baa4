#!/usr/bin/env python3
"""Unit tests of hotstrings_client.py that need no daemon: socket path resolution, the
event-stream rules of docs/PROTOCOL.md played by a fake daemon on a socket pair, and plural
formatting (every CLDR sample number of every locale, .stringsdict semantics).
Run: python3 examples/test_hotstrings_client.py"""

import json
import os
import socket
import sys
import threading
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hotstrings_client  # noqa: E402
import hotstrings_plurals  # noqa: E402

CLDR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts", "cldr")


def event(name, epoch, seq, **fields):
    return json.dumps(dict(event=name, epoch=epoch, seq=seq, **fields)).encode() + b"\n"


class SocketPathTests(unittest.TestCase):
    def test_resolution_order(self):
        resolve = hotstrings_client.resolve_socket_path
        environ = {"HOTSTRINGS_SOCKET": "/e.sock", "XDG_RUNTIME_DIR": "/run/u"}
        self.assertEqual(resolve("/o.sock", environ, 5), "/o.sock")
        self.assertEqual(resolve(None, environ, 5), "/e.sock")
        self.assertEqual(resolve(None, {"HOTSTRINGS_SOCKET": "", "XDG_RUNTIME_DIR": "/run/u/"}, 5),
                         "/run/u/hotstrings.sock")
        self.assertEqual(resolve(None, {"XDG_RUNTIME_DIR": "relative"}, 5), "/tmp/hotstrings-5.sock")
        self.assertEqual(resolve("", {}, 7), "/tmp/hotstrings-7.sock")


class EventStreamTests(unittest.TestCase):
    def setUp(self):
        self.client_end, self.daemon_end = socket.socketpair()
        self.client = hotstrings_client.Client(self.client_end)

    def tearDown(self):
        self.client.close()
        self.daemon_end.close()

    def run_daemon(self, script):
        """Runs `script(reader)` as the daemon on a thread, then closes its side."""
        def daemon():
            script(self.daemon_end.makefile("rb"))
            self.daemon_end.shutdown(socket.SHUT_WR)
        thread = threading.Thread(target=daemon)
        thread.start()
        return thread

    def test_resync_duplicates_and_gaps(self):
        received = []

        def script(reader):
            self.daemon_end.sendall(json.dumps({"id": 1, "ok": True, "epoch": 7, "seq": 1}).encode() + b"\n")
            reader.readline()
            self.daemon_end.sendall(
                event("reload", 7, 2) + event("reload", 7, 2)  # a duplicate is skipped
                + event("resync", 7, 2, reason="slow-client") + event("reload", 7, 3)  # skipped until the snapshot
                + event("snapshot", 7, 3, tables=[]) + event("reload", 7, 3) + event("reload", 7, 4)
                + event("reload", 7, 6)  # a gap: resubscribe
            )
            received.append(json.loads(reader.readline()))
            self.daemon_end.sendall(
                event("reload", 7, 7) + json.dumps({"id": 2, "ok": True, "epoch": 7, "seq": 7}).encode() + b"\n"
                + event("snapshot", 7, 7, tables=[]) + event("reload", 7, 8)
            )

        thread = self.run_daemon(script)
        self.client.request("subscribe", tables=["Localizable"])
        seen = [(item["event"], item["seq"]) for item in self.client.events()]
        thread.join()
        self.assertEqual(seen, [("reload", 2), ("resync", 2), ("snapshot", 3), ("reload", 4),
                                ("snapshot", 7), ("reload", 8)])
        self.assertEqual(received[0]["op"], "subscribe")
        self.assertEqual(received[0]["since"], {"epoch": 7, "seq": 4})
        self.assertEqual(received[0]["tables"], ["Localizable"], "the filters are kept")

    def test_events_before_a_response_are_kept(self):
        def script(reader):
            reader.readline()
            self.daemon_end.sendall(event("language", 3, 5, language="fr", previous=None)
                                    + b'{"id":1,"ok":true,"selected":"fr"}\n')

        thread = self.run_daemon(script)
        self.assertEqual(self.client.request("select-language", language="fr")["selected"], "fr")
        self.assertEqual([item["event"] for item in self.client.events()], ["language"])
        thread.join()

    def test_error_responses_raise(self):
        def script(reader):
            reader.readline()
            self.daemon_end.sendall(b'{"id":1,"ok":false,"error":{"code":"unsupported_language",'
                                    b'"message":"unsupported language \'xx\'","available":["de"]}}\n')

        thread = self.run_daemon(script)
        with self.assertRaises(hotstrings_client.ProtocolError) as raised:
            self.client.request("select-language", language="xx")
        thread.join()
        self.assertEqual(raised.exception.code, "unsupported_language")
        self.assertEqual(raised.exception.available, ["de"])

    def test_format_uses_the_rule_and_the_language_that_answered(self):
        rule = {"NSStringLocalizedFormatKey": "%#@n@",
                "n": {"NSStringFormatSpecTypeKey": "NSStringPluralRuleType", "NSStringFormatValueTypeKey": "d",
                      "one": "%d file", "other": "%d files"}}
        requests = []

        def script(reader):
            answers = ({"id": 1, "ok": True, "value": "%d files", "language": "en", "found": True, "rule": rule},
                       {"id": 2, "ok": True, "value": "%d Dateien", "language": "de", "found": True})
            for answer in answers:
                requests.append(json.loads(reader.readline()))
                self.daemon_end.sendall(json.dumps(answer).encode() + b"\n")

        thread = self.run_daemon(script)
        rules = hotstrings_plurals.PluralRules.load(CLDR)
        # A `de` lookup answered by `en`: English rules, so 1 is "one".
        self.assertEqual(self.client.format("files", 1, language="de", plural_rules=rules), "1 file")
        self.assertEqual(self.client.format("files", 1, language="de", plural_rules=rules), "1 Dateien")
        thread.join()
        self.assertEqual([(item["op"], item["key"], item["language"]) for item in requests],
                         [("get", "files", "de")] * 2)


def expand(item):
    """`2~5` is 2, 3, 4, 5 and `0.0~0.3` is 0.0, 0.1, 0.2, 0.3 (CLDR's sample ranges); other items as they are."""
    if "~" not in item:
        return [item]
    low, high = item.split("~")
    digits = len(low.split(".")[1]) if "." in low else 0
    values = range(int(low.replace(".", "")), int(high.replace(".", "")) + 1)
    if not digits:
        return [str(value) for value in values]
    return ["%d.%0*d" % (value // 10**digits, digits, value % 10**digits) for value in values]


class PluralRulesTests(unittest.TestCase):
    """The rules are read from the pinned CLDR data; every sample number CLDR lists has its category."""

    @classmethod
    def setUpClass(cls):
        cls.rules = hotstrings_plurals.PluralRules.load(CLDR)

    def test_every_cldr_sample_has_its_category(self):
        checked = 0
        for name, key, ordinal in (("plurals.json", "plurals-type-cardinal", False),
                                   ("ordinals.json", "plurals-type-ordinal", True)):
            with open(os.path.join(CLDR, name), encoding="utf-8") as file:
                locales = json.load(file)["supplemental"][key]
            for locale, rules in locales.items():
                for rule_name, rule in rules.items():
                    category = rule_name.rsplit("-", 1)[-1]
                    for samples in rule.split("@")[1:]:
                        for sample in samples.split(" ", 1)[1].split(","):
                            for number in sample.strip().split("~"):
                                if number in ("", "…"):
                                    continue
                                checked += 1
                                self.assertEqual(self.rules.category(number, locale, ordinal), category,
                                                 "%s %s (%s)" % (locale, number, name))
        self.assertGreater(checked, 100)

    def test_every_number_babel_evaluated_has_its_category(self):
        """scripts/cldr/expectations.json: what babel 2.19 (CLDR 49) answers, for the locales that list no samples."""
        with open(os.path.join(CLDR, "expectations.json"), encoding="utf-8") as file:
            expectations = json.load(file)
        checked = 0
        for kind, ordinal in (("cardinal", False), ("ordinal", True)):
            for row in expectations[kind]:
                locales = row["locales"].split()
                for category, numbers in row.items():
                    if category == "locales":
                        continue
                    for item in numbers.split(", "):
                        for number in expand(item):
                            for locale in locales:
                                checked += 1
                                self.assertEqual(self.rules.category(number, locale, ordinal), category,
                                                 "%s %s %s" % (kind, locale, number))
        self.assertGreater(checked, 300000)

    def test_operands_come_from_the_number_as_written(self):
        operands = hotstrings_plurals.Operands("1.50")
        self.assertEqual((operands.i, operands.v, operands.w, operands.f, operands.t), (1, 2, 1, 50, 5))
        self.assertEqual(self.rules.category("1", "en"), "one")
        self.assertEqual(self.rules.category("1.0", "en"), "other")
        self.assertEqual((self.rules.category("4", "tl"), self.rules.category("2", "mo")), ("other", "few"))
        self.assertEqual(self.rules.category(1.0, "en"), "one", "a float is read as ICU reads a double")
        self.assertEqual(self.rules.category("1.5c3", "fr"), "other")
        self.assertEqual(self.rules.category(1000000, "fr"), "many")
        self.assertEqual(self.rules.category(3, "pt-PT"), "other")
        self.assertEqual(self.rules.locale("iw"), "he")
        self.assertEqual(self.rules.category(1, "xx"), "other")
        self.assertEqual(self.rules.categories("ru"), ["one", "few", "many", "other"])
        with self.assertRaises(hotstrings_plurals.FormatError):
            self.rules.category("one", "en")


class FormatTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.rules = hotstrings_plurals.PluralRules.load(CLDR)

    def plural(self, **forms):
        return dict(NSStringFormatSpecTypeKey="NSStringPluralRuleType", NSStringFormatValueTypeKey="d", **forms)

    def test_plural_zero_other_and_russian(self):
        files = {"NSStringLocalizedFormatKey": "%#@n@ in %@",
                 "n": self.plural(zero="no files", one="%d file", other="%d files")}
        formatted = [hotstrings_plurals.format_rule(files, "en", [count, "Docs"], self.rules)
                     for count in (0, 1, 7)]
        self.assertEqual(formatted, ["no files in Docs", "1 file in Docs", "7 files in Docs"])
        russian = {"NSStringLocalizedFormatKey": "%#@n@",
                   "n": self.plural(one="%d файл", few="%d файла", many="%d файлов", other="%d файла")}
        self.assertEqual([hotstrings_plurals.format_rule(russian, "ru", [count], self.rules)
                          for count in (1, 3, 5, 21, "1.5")], ["1 файл", "3 файла", "5 файлов", "21 файл", "1 файла"])

    def test_positions_nesting_width_and_device(self):
        entry = {"NSStringLocalizedFormatKey": "%2$#@people@ shared %1$#@items@",
                 "people": self.plural(one="%d person", other="%d people"),
                 "items": self.plural(one="one item", other="%d items (%#@size@)"),
                 "size": {"NSStringFormatSpecTypeKey": "NSStringVariableWidthRuleType",
                          "10": "big", "40": "very big"}}
        self.assertEqual(hotstrings_plurals.format_rule(entry, "en", [3, 1, 0], self.rules, width=20),
                         "1 person shared 3 items (big)")
        device = {"NSStringLocalizedFormatKey": "%#@d@", "d": {
            "NSStringFormatSpecTypeKey": "NSStringDeviceSpecificRuleType", "ipad": "Tap", "other": "Click"}}
        self.assertEqual(hotstrings_plurals.format_rule(device, "en", [0], self.rules, device="ipad"), "Tap")
        self.assertEqual(hotstrings_plurals.format_rule(device, "en", [0], self.rules), "Click")

    def test_errors_name_what_is_wrong(self):
        missing = {"NSStringLocalizedFormatKey": "%#@n@", "n": self.plural(one="x")}
        with self.assertRaisesRegex(hotstrings_plurals.FormatError, "neither a 'other' nor an 'other' form"):
            hotstrings_plurals.format_rule(missing, "en", [5], self.rules)
        with self.assertRaisesRegex(hotstrings_plurals.FormatError, "not defined"):
            hotstrings_plurals.format_rule({"NSStringLocalizedFormatKey": "%#@v@"}, "en", [1], self.rules)
        with self.assertRaisesRegex(hotstrings_plurals.FormatError, "needs argument 2"):
            hotstrings_plurals.format_string("%d and %d", [1])
        self.assertEqual(hotstrings_plurals.format_string("%2$@ %1$@: %3$05.1f%%", ["a", "b", 2.25]), "b a: 002.2%")


if __name__ == "__main__":
    unittest.main()
