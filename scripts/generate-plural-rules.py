#!/usr/bin/env python3
"""Generates Sources/StringsFormat/PluralRules+CLDR.swift from the pinned CLDR plural rules.

Reads scripts/cldr/plurals.json and scripts/cldr/ordinals.json (cldr-json's supplemental data, see
scripts/cldr/README.md) and writes Swift that evaluates every locale's cardinal and ordinal rules. The legacy
codes of scripts/cldr/aliases.json (`tl`, `mo`, `sh`, ...) that have no rules of their own take their
replacement's, as CLDR's own plurals.xml lists them. Rules are never written by hand: change the pinned JSON
and run this script again.

    python3 scripts/generate-plural-rules.py [--output DIR]

Python 3 standard library only. The output is deterministic, so a test can regenerate it into a
temporary directory and compare it with the committed file.
"""

import json
import os
import re
import sys

import cldrgen

CLDR = os.path.join(cldrgen.ROOT, "scripts", "cldr")
OUTPUT_NAME = "PluralRules+CLDR.swift"
CATEGORIES = ["zero", "one", "two", "few", "many", "other"]
# Moduli must divide 10^18, the remainder the operands keep of numbers too large for UInt64 arithmetic.
LOW_MODULUS = 10**18
TOKEN = re.compile(r"\s*(!=|=|%|\.\.|,|and\b|or\b|[nivwftce]\b|\d+)")


class RuleError(Exception):
    pass


def tokenize(condition):
    tokens, position = [], 0
    condition = condition.strip()
    while position < len(condition):
        match = TOKEN.match(condition, position)
        if not match:
            raise RuleError("unexpected text %r in rule %r" % (condition[position:], condition))
        tokens.append(match.group(1))
        position = match.end()
    return tokens


def parse_condition(condition):
    """Parses `a and b or c` into [[relation, ...], ...]: a disjunction of conjunctions."""
    tokens = tokenize(condition)
    if not tokens:
        return None
    index = 0

    def take(expected=None):
        nonlocal index
        if index >= len(tokens):
            raise RuleError("rule %r ends early" % condition)
        token = tokens[index]
        if expected is not None and token != expected:
            raise RuleError("expected %r, found %r in rule %r" % (expected, token, condition))
        index += 1
        return token

    def number():
        token = take()
        if not token.isdigit():
            raise RuleError("expected a number, found %r in rule %r" % (token, condition))
        return int(token)

    def relation():
        operand = take()
        if operand not in "nivwftce":
            raise RuleError("unknown operand %r in rule %r" % (operand, condition))
        modulus = None
        if index < len(tokens) and tokens[index] == "%":
            take("%")
            modulus = number()
            if modulus == 0 or LOW_MODULUS % modulus != 0:
                raise RuleError("modulus %d does not divide 10^18 in rule %r" % (modulus, condition))
        operator = take()
        if operator not in ("=", "!="):
            raise RuleError("unknown operator %r in rule %r" % (operator, condition))
        ranges = []
        while True:
            low = number()
            high = low
            if index < len(tokens) and tokens[index] == "..":
                take("..")
                high = number()
            ranges.append((low, high))
            if index < len(tokens) and tokens[index] == ",":
                take(",")
                continue
            break
        return ("c" if operand == "e" else operand, modulus, operator == "!=", ranges)

    disjunction = [[relation()]]
    while index < len(tokens):
        joiner = take()
        if joiner == "and":
            disjunction[-1].append(relation())
        elif joiner == "or":
            disjunction.append([relation()])
        else:
            raise RuleError("expected 'and' or 'or', found %r in rule %r" % (joiner, condition))
    return disjunction


def swift_relation(relation):
    operand, modulus, negated, ranges = relation
    if operand in "nift":
        name = "i" if operand == "n" else operand
        value = "o.%sLow %% %d" % (name, modulus) if modulus else "o.%s" % name
    else:
        value = "o.%s %% %d" % (operand, modulus) if modulus else "o.%s" % operand
    tests = []
    for low, high in ranges:
        if low == high:
            tests.append("%s == %d" % (value, low))
        elif low == 0:
            tests.append("%s <= %d" % (value, high))
        else:
            tests.append("(%s >= %d && %s <= %d)" % (value, low, value, high))
    test = " || ".join(tests)
    if operand == "n":
        # `n` is the absolute value: it equals an integer (or lies in an integer range) only when it has no
        # fraction, whatever the visible digits.
        test = "o.isInteger && (%s)" % test if len(tests) > 1 else "o.isInteger && %s" % test
    if negated:
        return "!(%s)" % test
    return "(%s)" % test if len(tests) > 1 or operand == "n" else test


def swift_condition(disjunction):
    conjunctions = [" && ".join(swift_relation(r) for r in conjunction) for conjunction in disjunction]
    if len(conjunctions) == 1:
        return conjunctions[0]
    return " || ".join("(%s)" % c if len(disjunction[i]) > 1 else c for i, c in enumerate(conjunctions))


def load(filename, key):
    with open(os.path.join(CLDR, filename), encoding="utf-8") as file:
        data = json.load(file)["supplemental"][key]
    locales = {}
    for locale, rules in data.items():
        parsed = []
        for category in CATEGORIES:
            text = rules.get("pluralRule-count-" + category)
            if text is None:
                continue
            condition = text.split("@", 1)[0]
            disjunction = parse_condition(condition)
            if disjunction is None and category != "other":
                raise RuleError("%s: category %s has no condition" % (locale, category))
            if disjunction is not None:
                parsed.append((category, disjunction))
        if "pluralRule-count-other" not in rules:
            raise RuleError("%s has no 'other' rule" % locale)
        locales[locale] = tuple((category, repr(d)) for category, d in parsed), parsed
    return locales


def add_legacy_codes(locales):
    """Gives each legacy language code without rules of its own the rules of its replacement's language."""
    with open(os.path.join(CLDR, "aliases.json"), encoding="utf-8") as file:
        aliases = json.load(file)["supplemental"]["metadata"]["alias"]["languageAlias"]
    for code, entry in sorted(aliases.items()):
        replacement = entry["_replacement"].split("-")[0]
        if code not in locales and replacement in locales:
            locales[code] = locales[replacement]
    return locales


def wrap(line, indent, width=120):
    """Breaks a long Swift boolean expression before `||`/`&&` so no line exceeds `width` columns."""
    if len(line) <= width:
        return [line]
    lines, current = [], line
    continuation = " " * (indent + 4)
    while len(current) > width:
        cut = max(current.rfind(" || ", 0, width - 3), current.rfind(" && ", 0, width - 3))
        if cut <= len(continuation):
            break
        lines.append(current[:cut])
        current = continuation + current[cut + 1:]
    lines.append(current)
    return lines


def emit_rule_sets(kind, locales, out):
    unique, index_of = [], {}
    for locale in sorted(locales):
        key, parsed = locales[locale]
        if key not in index_of:
            index_of[key] = len(unique)
            unique.append(parsed)
    out.append("    /// Each CLDR locale's %s rule set, by CLDR locale identifier." % kind)
    out.append("    static let %sRuleSets: [String: Int] = [" % kind)
    for locale in sorted(locales):
        out.append('        "%s": %d,' % (locale, index_of[locales[locale][0]]))
    out.append("    ]")
    out.append("")
    out.append("    /// The categories each %s rule set uses, in CLDR order, `other` last." % kind)
    out.append("    static let %sCategories: [[PluralCategory]] = [" % kind)
    for parsed in unique:
        names = [category for category, _ in parsed] + ["other"]
        names = [name for name in CATEGORIES if name in names]
        out.append("        [%s]," % ", ".join("." + name for name in names))
    out.append("    ]")
    out.append("")
    out.append("    /// The %s category of `o` under rule set `ruleSet`." % kind)
    out.append("    static func %sCategory(ruleSet: Int, _ o: PluralOperands) -> PluralCategory {" % kind)
    out.append("        switch ruleSet {")
    for number, parsed in enumerate(unique):
        out.append("        case %d:" % number)
        for category, disjunction in parsed:
            condition = swift_condition(disjunction)
            lines = wrap("            if %s {" % condition, 12)
            out.extend(lines[:-1])
            out.append(lines[-1])
            out.append("                return .%s" % category)
            out.append("            }")
        out.append("            return .other")
    out.append("        default:")
    out.append("            return .other")
    out.append("        }")
    out.append("    }")


def cldr_version():
    versions = set()
    for filename in ("plurals.json", "ordinals.json"):
        with open(os.path.join(CLDR, filename), encoding="utf-8") as file:
            versions.add(json.load(file)["supplemental"]["version"].get("_cldrVersion"))
    if len(versions) != 1 or None in versions:
        raise RuleError("plurals.json and ordinals.json must name one CLDR version, found %r"
                        % sorted(versions, key=str))
    return versions.pop()


def generate():
    cardinal = add_legacy_codes(load("plurals.json", "plurals-type-cardinal"))
    ordinal = add_legacy_codes(load("ordinals.json", "plurals-type-ordinal"))
    out = [
        "// Generated by scripts/generate-plural-rules.py from the pinned CLDR data in scripts/cldr.",
        "// Do not edit: change the data and run the script again. A test checks this file is up to date.",
        "",
        "// swiftformat:disable all",
        "extension PluralRules {",
        "    /// The CLDR release the rules come from.",
        '    public static let cldrVersion = "%s"' % cldr_version(),
        "",
    ]
    emit_rule_sets("cardinal", cardinal, out)
    out.append("")
    emit_rule_sets("ordinal", ordinal, out)
    out.append("}")
    return "\n".join(out) + "\n"


def main():
    return cldrgen.main(__doc__.splitlines()[0], OUTPUT_NAME, generate, (RuleError, KeyError), "generate-plural-rules")


if __name__ == "__main__":
    sys.exit(main())
