#!/usr/bin/env python3
"""Plural forms for HotStrings clients in Python, standard library only.

Formats a `.stringsdict` rule as the daemon sends it (`rules` in snapshots and reloads, `rule` in a
`get` answer: the entry's own dictionary) the way Apple's `String.localizedStringWithFormat` does,
with the CLDR plural rules of the language the value came from.

The plural rules are not written here: they are read from the pinned CLDR data the Swift rules are
generated from (`scripts/cldr/plurals.json` and `ordinals.json`), found next to this file's
repository, or in the folder `$HOTSTRINGS_CLDR` names.

    rules = PluralRules.load()
    rules.category("1.0", "en")                       # 'other' (as written: one visible fraction digit)
    format_rule(rule, "ru", [3], rules)                # '3 файла'
"""

import json
import os
import re
from decimal import Decimal

CATEGORIES = ("zero", "one", "two", "few", "many", "other")
# The legacy codes of scripts/cldr/aliases.json: CLDR gives them their replacement's rules.
_LEGACY = {"iw": "he", "in": "id", "ji": "yi", "jw": "jv", "mo": "ro", "sh": "sr", "tl": "fil"}
_NUMBER = re.compile(r"^[+-]?(\d+)(?:\.(\d*))?(?:[ce](\d+))?$")
_TOKEN = re.compile(r"\s*(!=|=|%|\.\.|,|and\b|or\b|[nivwftce]\b|\d+)")
_SPEC = re.compile(r"%(?:(\d+)\$)?([-+ 0#']*)(\*|\d+)?(?:\.(\*|\d*))?(hh|h|ll|l|q|L|z|t|j)?([@sScdiuoxXfFeEgGaA%])")
_VARIABLE = re.compile(r"%(?:(\d+)\$)?#@([^@]*)@")


class FormatError(ValueError):
    """A rule or format that cannot be formatted with the arguments given."""


class Operands:
    """CLDR's plural operands of a number as written: n i v w f t c (e is c)."""

    def __init__(self, value):
        text = value if isinstance(value, str) else repr(value)
        if isinstance(value, bool):
            raise FormatError("%r is not a number" % value)
        if isinstance(value, int):
            text = str(abs(value))
        elif isinstance(value, float):
            text = str(abs(int(value))) if value == int(value) and abs(value) < 1e18 else repr(abs(value))
            if "e" in text:  # 1.5e-05: a negative exponent, as the Swift side, counts as 0
                text = "0"
        match = _NUMBER.match(text.strip())
        if not match:
            raise FormatError("%r is not a decimal number" % (value,))
        integer, fraction, exponent = match.group(1), match.group(2) or "", int(match.group(3) or 0)
        digits = integer + fraction
        point = len(integer) + exponent
        if point >= len(digits):
            integer_digits, fraction = digits + "0" * (point - len(digits)), ""
        else:
            integer_digits, fraction = digits[:point], digits[point:]
        self.i = int(integer_digits or "0")
        self.v = len(fraction)
        self.f = int(fraction or "0")
        trimmed = fraction.rstrip("0")
        self.w = len(trimmed)
        self.t = int(trimmed or "0")
        self.c = exponent
        self.n = Decimal(self.i) + (Decimal(self.f) / (Decimal(10) ** self.v) if self.v else 0)

    def value(self, operand):
        return self.c if operand == "e" else getattr(self, operand)


def _parse_condition(condition):
    """`a = 1 and b != 2..4 or ...` into [[(operand, modulus, negated, [(low, high)]), ...], ...]."""
    tokens = [match.group(1) for match in _TOKEN.finditer(condition)]
    disjunction, conjunction, index = [], [], 0
    while index < len(tokens):
        operand, modulus = tokens[index], None
        index += 1
        if tokens[index] == "%":
            modulus, index = int(tokens[index + 1]), index + 2
        negated, index = tokens[index] == "!=", index + 1
        ranges = []
        while True:
            low = int(tokens[index])
            high = low
            index += 1
            if index < len(tokens) and tokens[index] == "..":
                high, index = int(tokens[index + 1]), index + 2
            ranges.append((low, high))
            if index < len(tokens) and tokens[index] == ",":
                index += 1
                continue
            break
        conjunction.append((operand, modulus, negated, ranges))
        if index < len(tokens):
            if tokens[index] == "or":
                disjunction.append(conjunction)
                conjunction = []
            index += 1
    disjunction.append(conjunction)
    return disjunction


def _holds(relation, operands):
    operand, modulus, negated, ranges = relation
    value = operands.value(operand)
    if modulus is not None:
        value = value % modulus
    # A range holds integers only: n = 2..4 is false for 2.5.
    inside = any(value == int(value) and low <= value <= high for low, high in ranges)
    return inside != negated


class PluralRules:
    """Every CLDR locale's cardinal and ordinal rules, read from the pinned cldr-json data."""

    def __init__(self, cardinal, ordinal):
        self._rules = {"cardinal": cardinal, "ordinal": ordinal}
        self._parsed = {}

    @classmethod
    def load(cls, directory=None):
        directory = directory or os.environ.get("HOTSTRINGS_CLDR") or os.path.join(
            os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts", "cldr")
        with open(os.path.join(directory, "plurals.json"), encoding="utf-8") as file:
            cardinal = json.load(file)["supplemental"]["plurals-type-cardinal"]
        with open(os.path.join(directory, "ordinals.json"), encoding="utf-8") as file:
            ordinal = json.load(file)["supplemental"]["plurals-type-ordinal"]
        return cls(cardinal, ordinal)

    def locale(self, language, ordinal=False):
        """The CLDR locale whose rules `language` uses: pt-PT, then pt; unknown ones use `und`."""
        rules = self._rules["ordinal" if ordinal else "cardinal"]
        subtags = [tag.lower() for tag in re.split(r"[-_]", language or "") if tag]
        if subtags and subtags[0] in _LEGACY:
            subtags[0] = _LEGACY[subtags[0]]
        while subtags:
            candidate = "-".join(
                [subtags[0]] + [tag.upper() if len(tag) == 2 else tag.title() if len(tag) == 4 else tag
                                for tag in subtags[1:]])
            if candidate in rules:
                return candidate
            subtags.pop()
        return "und"

    def categories(self, language, ordinal=False):
        """The categories `language` uses, in CLDR order."""
        rules = self._rules["ordinal" if ordinal else "cardinal"].get(self.locale(language, ordinal), {})
        present = {key.rsplit("-", 1)[-1] for key in rules}
        return [category for category in CATEGORIES if category in present or category == "other"]

    def category(self, number, language, ordinal=False):
        """The category of `number` (int, float, or a decimal number as written) in `language`."""
        operands = number if isinstance(number, Operands) else Operands(number)
        kind = "ordinal" if ordinal else "cardinal"
        locale = self.locale(language, ordinal)
        key = (kind, locale)
        if key not in self._parsed:
            rules = self._rules[kind].get(locale, {})
            parsed = []
            for category in CATEGORIES[:-1]:
                rule = rules.get("pluralRule-count-" + category)
                condition = rule.split("@")[0].strip() if rule else ""
                if condition:
                    parsed.append((category, _parse_condition(condition)))
            self._parsed[key] = parsed
        for category, disjunction in self._parsed[key]:
            if any(all(_holds(relation, operands) for relation in conjunction) for conjunction in disjunction):
                return category
        return "other"


def _convert(spec, argument):
    """One ordinary specifier (`%5.2f`, `%@`) applied to one argument, as printf would."""
    flags, width, precision, conversion = spec
    if conversion in "@sS":
        text = str(argument)
        if precision is not None:
            text = text[:precision]
        pattern = "%" + flags.replace("0", "") + (str(width) if width is not None else "") + "s"
        return pattern % text
    if conversion == "c":
        return chr(int(argument))
    pattern = "%" + flags.replace("'", "") + (str(width) if width is not None else "")
    pattern += ("." + str(precision)) if precision is not None else ""
    if conversion in "diu":
        return (pattern + "d") % int(Decimal(str(argument)))
    if conversion in "oxX":
        return (pattern + conversion) % int(Decimal(str(argument)))
    return (pattern + conversion.replace("F", "f")) % float(argument)


class _Formatter:
    def __init__(self, arguments, rule, language, rules, width, device):
        self.arguments, self.rule, self.language = list(arguments), rule, language
        self.rules, self.width, self.device = rules, width, device
        self.cursor, self.depth = 0, 0

    def take(self, position, own, text):
        if position:
            index = int(position) - 1
        elif own is not None:
            index = own
        else:
            index, self.cursor = self.cursor, self.cursor + 1
        if index >= len(self.arguments):
            raise FormatError("%r needs argument %d, but only %d were given" % (text, index + 1, len(self.arguments)))
        return index

    def format(self, text, own=None):
        output, position = [], 0
        while True:
            start = text.find("%", position)
            if start < 0:
                output.append(text[position:])
                return "".join(output)
            output.append(text[position:start])
            variable = _VARIABLE.match(text, start)
            if variable:
                output.append(self.expand(variable.group(2), variable.group(1), variable.group(0)))
                position = variable.end()
                continue
            spec = _SPEC.match(text, start)
            if not spec:
                raise FormatError("unsupported format specifier %r" % text[start:start + 4])
            position = spec.end()
            if spec.group(6) == "%":
                output.append("%")
                continue
            width = spec.group(3)
            if width == "*":
                width = int(self.arguments[self.take(None, None, "*")])
            precision = spec.group(4)
            if precision == "*":
                precision = int(self.arguments[self.take(None, None, "*")])
            index = self.take(spec.group(1), own, spec.group(0))
            output.append(_convert((spec.group(2), int(width) if width is not None else None,
                                    int(precision) if precision not in (None, "") else
                                    (0 if precision == "" else None), spec.group(6)), self.arguments[index]))

    def expand(self, name, position, text):
        if self.rule is None:
            raise FormatError("variable %r outside a stringsdict entry" % text)
        variable = self.rule.get(name)
        if not isinstance(variable, dict):
            raise FormatError("variable '%%#@%s@' is not defined in the entry" % name)
        if self.depth >= 16:
            raise FormatError("variable %r nests more than 16 deep" % name)
        index = self.take(position, None, text)
        chosen = self.choose(name, variable, self.arguments[index])
        self.depth += 1
        try:
            return self.format(chosen, own=index)
        finally:
            self.depth -= 1

    def choose(self, name, variable, argument):
        kind = variable.get("NSStringFormatSpecTypeKey")
        texts = {key: value for key, value in variable.items() if not key.startswith("NSString")}
        if kind == "NSStringPluralRuleType":
            operands = Operands(argument)
            if "zero" in texts and operands.i == 0 and operands.t == 0:
                return texts["zero"]
            category = self.rules.category(operands, self.language)
            if category in texts:
                return texts[category]
            if "other" in texts:
                return texts["other"]
            raise FormatError("variable %r has neither a %r nor an 'other' form" % (name, category))
        if kind == "NSStringVariableWidthRuleType":
            widths = sorted(int(key) for key in texts)
            if not widths:
                raise FormatError("variable %r has no widths" % name)
            if self.width is None:
                return texts[str(widths[-1])]
            fitting = [width for width in widths if width <= self.width]
            return texts[str(fitting[-1] if fitting else widths[0])]
        if kind == "NSStringDeviceSpecificRuleType":
            if self.device in texts:
                return texts[self.device]
            if "other" in texts:
                return texts["other"]
            if not texts:
                raise FormatError("variable %r has no devices" % name)
            return texts[min(texts)]
        raise FormatError("variable %r: unknown NSStringFormatSpecTypeKey %r" % (name, kind))


def format_string(text, arguments):
    """A plain value formatted as String(format:) formats it (the specifiers Apple strings use)."""
    return _Formatter(arguments, None, "", None, None, "other").format(text)


def format_rule(rule, language, arguments, rules, width=None, device="other"):
    """A `.stringsdict` entry (as the daemon sends it) formatted with `language`'s plural rules."""
    formatter = _Formatter(arguments, rule, language, rules, width, device)
    return formatter.format(rule["NSStringLocalizedFormatKey"])
