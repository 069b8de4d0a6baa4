#!/usr/bin/env python3
"""Extracts the pinned CLDR input in scripts/cldr/ from Python babel 2.19.0 (CLDR 49).

Writes, in cldr-json's shape so that the generators read them without babel installed:
plurals.json and ordinals.json (every locale's rules), likelySubtags.json, parentLocales.json and
aliases.json (the selection scripts/cldr/README.md describes), and expectations.json: the category babel's
own evaluator gives every locale for the integers 0-1000 and a set of decimals, which PluralRulesTests
checks against the generated Swift (babel's rules carry no sample numbers).

    pip download babel==2.19.0 --no-deps
    python3 -m zipfile -e babel-2.19.0-py3-none-any.whl /tmp/babel
    PYTHONPATH=/tmp/babel python3 scripts/extract-cldr-from-babel.py

Then run scripts/generate-plural-rules.py and scripts/generate-language-data.py. The output is
deterministic: the same wheel writes the same files.
"""

import decimal
import json
import os
import re
import sys

import cldrgen

BABEL_VERSION = "2.19.0"
CLDR_VERSION = "49"
CLDR = os.path.join(cldrgen.ROOT, "scripts", "cldr")
CATEGORIES = ["zero", "one", "two", "few", "many", "other"]

# Languages CLDR has plural rules for but no locale data, which babel therefore does not carry. Their rules
# are kept as the previous pin had them (cldr-json commit d4c36e16d572dfa2fb014f489287e26cc09c030d), samples
# included.
CARRIED_CARDINALS = {
    "ars": {
        "zero": "n = 0 @integer 0 @decimal 0.0, 0.00, 0.000, 0.0000",
        "one": "n = 1 @integer 1 @decimal 1.0, 1.00, 1.000, 1.0000",
        "two": "n = 2 @integer 2 @decimal 2.0, 2.00, 2.000, 2.0000",
        "few": "n % 100 = 3..10 @integer 3~10, 103~110, 1003, … @decimal 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, "
               "103.0, 1003.0, …",
        "many": "n % 100 = 11..99 @integer 11~26, 111, 1011, … @decimal 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, "
                "18.0, 111.0, 1011.0, …",
        "other": " @integer 100~102, 200~202, 300~302, 400~402, 500~502, 600, 1000, 10000, 100000, 1000000, … "
                 "@decimal 0.1~0.9, 1.1~1.7, 10.1, 100.0, 1000.0, 10000.0, 100000.0, 1000000.0, …",
    },
    "guw": {
        "one": "n = 0..1 @integer 0, 1 @decimal 0.0, 1.0, 0.00, 1.00, 0.000, 1.000, 0.0000, 1.0000",
        "other": " @integer 2~17, 100, 1000, 10000, 100000, 1000000, … @decimal 0.1~0.9, 1.1~1.7, 10.0, 100.0, "
                 "1000.0, 10000.0, 100000.0, 1000000.0, …",
    },
    "nah": {
        "one": "n = 1 @integer 1 @decimal 1.0, 1.00, 1.000, 1.0000",
        "other": " @integer 0, 2~16, 100, 1000, 10000, 100000, 1000000, … @decimal 0.0~0.9, 1.1~1.6, 10.0, 100.0, "
                 "1000.0, 10000.0, 100000.0, 1000000.0, …",
    },
    "smi": {
        "one": "n = 1 @integer 1 @decimal 1.0, 1.00, 1.000, 1.0000",
        "two": "n = 2 @integer 2 @decimal 2.0, 2.00, 2.000, 2.0000",
        "other": " @integer 0, 3~17, 100, 1000, 10000, 100000, 1000000, … @decimal 0.0~0.9, 1.1~1.6, 10.0, 100.0, "
                 "1000.0, 10000.0, 100000.0, 1000000.0, …",
    },
}

# The two-letter language aliases CLDR marks `deprecated` or `legacy` (babel keeps no reasons); the others babel
# has are macrolanguage replacements, which a bundle lookup does not make.
LEGACY_ALIASES = ["in", "iw", "ji", "jw", "mo", "sh", "tl"]
MACROLANGUAGE_ALIASES = ["bh", "tw"]

# The numbers babel's evaluator is asked about: integers 0-1000, decimals 0.0-10.0 by 0.1, and numbers whose
# visible digits (trailing zeros, more fraction digits) or size decide some rule.
NUMBERS = ([str(n) for n in range(1001)] + ["%d.%d" % divmod(n, 10) for n in range(101)]
           + ["0.00", "0.01", "0.10", "1.00", "1.01", "1.10", "1.50", "2.00", "2.50", "10.10", "0.000", "1.000",
              "11.0", "21.0", "100.0", "101.0", "1000.0", "1000.1", "10000", "100000", "1000000", "1000001",
              "2000000", "1000000.0"])


class ExtractError(Exception):
    pass


def babel_modules():
    try:
        import babel
        from babel import core, localedata
        from babel.plural import PluralRule
    except ImportError:
        raise ExtractError("babel is not importable: put the extracted babel %s wheel on PYTHONPATH" % BABEL_VERSION)
    if babel.__version__ != BABEL_VERSION or core.get_cldr_version() != CLDR_VERSION:
        raise ExtractError("babel %s carries CLDR %s; this script reads babel %s (CLDR %s)"
                           % (babel.__version__, core.get_cldr_version(), BABEL_VERSION, CLDR_VERSION))
    return core, localedata, PluralRule


def tag(identifier):
    return identifier.replace("_", "-")


def rule_text(node):
    """CLDR's syntax (`i = 0,1 and v = 0 or …`) for babel's parsed condition."""
    kind, arguments = node
    if kind == "or":
        return "%s or %s" % (rule_text(arguments[0]), rule_text(arguments[1]))
    if kind == "and":
        if any(child[0] == "or" for child in arguments):
            raise ExtractError("'or' inside 'and' in %r" % (node,))
        return "%s and %s" % (rule_text(arguments[0]), rule_text(arguments[1]))
    negated = kind == "not"
    if negated:
        kind, arguments = arguments[0]
    method, expression, (_, ranges) = arguments
    if kind != "relation" or method != "in":
        raise ExtractError("unexpected relation %r" % (node,))
    if expression[0] == "mod":
        (operand, _), (_, (modulus,)) = expression[1]
        left = "%s %% %d" % (operand, modulus)
    else:
        left = expression[0]
    values = ",".join("%d" % low if low == high else "%d..%d" % (low, high)
                      for (_, (low,)), (_, (high,)) in ranges)
    return "%s %s %s" % (left, "!=" if negated else "=", values)


def rules_of(form, PluralRule):
    rules = {category: rule_text(ast) for category, ast in form.abstract}
    if PluralRule(rules).abstract != form.abstract:
        raise ExtractError("the rule text %r does not read back as babel's rule" % rules)
    return rules


def plural_forms(localedata, PluralRule, key):
    """Each locale whose own data carries rules of `key`, except script and region locales that only repeat
    their language's rules (babel copies them there because those locales' parent is root)."""
    forms = {"und": localedata.load("root", merge_inherited=False)[key]}
    for identifier in sorted(localedata.locale_identifiers()):
        form = localedata.load(identifier, merge_inherited=False).get(key)
        if form is None:
            continue
        language = identifier.split("_")[0]
        if language != identifier:
            base = localedata.load(language, merge_inherited=False).get(key)
            if base is not None and base.abstract == form.abstract:
                continue
        forms[tag(identifier)] = form
    return forms


def cldr_json(name, key, value):
    path = os.path.join(CLDR, name)
    with open(path, "w", encoding="utf-8") as file:
        json.dump({"supplemental": {"version": {"_cldrVersion": CLDR_VERSION}, key: value}}, file,
                  ensure_ascii=False, indent=2, sort_keys=False)
        file.write("\n")


def rules_json(forms, PluralRule, carried):
    out = {}
    for locale in sorted(set(forms) | set(carried)):
        texts = carried.get(locale) or rules_of(forms[locale], PluralRule)
        entry = {"pluralRule-count-" + c: texts[c] for c in CATEGORIES if c in texts}
        entry.setdefault("pluralRule-count-other", "")
        out[locale] = entry
    return out


def number_list(numbers):
    """`0, 2~16, 0.0~0.9`: runs of numbers with the same visible fraction digits that step by one last digit."""
    items, run = [], []

    def flush():
        if run:
            items.append(run[0][2] if len(run) == 1 else "%s~%s" % (run[0][2], run[-1][2]))
            run.clear()

    for text in numbers:
        digits = len(text.split(".")[1]) if "." in text else 0
        value = int(text.replace(".", ""))
        if run and not (run[-1][1] == digits and run[-1][0] + 1 == value):
            flush()
        run.append((value, digits, text))
    flush()
    return ", ".join(items)


def expectations(forms, carried):
    """Locales grouped by the categories babel gives each number, with those numbers as CLDR sample lists."""
    groups = {}
    for locale in sorted(forms):
        if locale in carried:
            continue
        answers = tuple(forms[locale](decimal.Decimal(text)) for text in NUMBERS)
        groups.setdefault(answers, []).append(locale)
    out = []
    for answers, locales in sorted(groups.items(), key=lambda item: item[1][0]):
        row = {"locales": " ".join(locales)}
        for category in CATEGORIES:
            numbers = [text for text, answer in zip(NUMBERS, answers) if answer == category]
            if numbers:
                row[category] = number_list(numbers)
        out.append(row)
    return out


def language_data(core, localedata):
    languages = {identifier.split("_")[0] for identifier in localedata.locale_identifiers()}
    likely = {tag(key): tag(value) for key, value in sorted(core.get_global("likely_subtags").items())
              if not key.startswith("und") and key.split("_")[0] in languages}
    parents = {tag(key): tag(value) for key, value in sorted(core.get_global("parent_exceptions").items())}
    aliases = core.get_global("language_aliases")
    unknown = sorted(key for key in aliases if re.match(r"^[a-z]{2}$", key)
                     and key not in LEGACY_ALIASES + MACROLANGUAGE_ALIASES)
    missing = [key for key in LEGACY_ALIASES if key not in aliases]
    if unknown or missing:
        raise ExtractError("two-letter aliases changed: new %s, missing %s; review LEGACY_ALIASES" % (unknown, missing))
    legacy = {key: {"_replacement": tag(aliases[key])} for key in LEGACY_ALIASES}
    return likely, parents, legacy


def extract():
    core, localedata, PluralRule = babel_modules()
    cardinals = plural_forms(localedata, PluralRule, "plural_form")
    ordinals = plural_forms(localedata, PluralRule, "ordinal_form")
    cldr_json("plurals.json", "plurals-type-cardinal", rules_json(cardinals, PluralRule, CARRIED_CARDINALS))
    cldr_json("ordinals.json", "plurals-type-ordinal", rules_json(ordinals, PluralRule, {}))
    likely, parents, legacy = language_data(core, localedata)
    cldr_json("likelySubtags.json", "likelySubtags", likely)
    cldr_json("parentLocales.json", "parentLocales", {"parentLocale": parents})
    cldr_json("aliases.json", "metadata", {"alias": {"languageAlias": legacy}})
    with open(os.path.join(CLDR, "expectations.json"), "w", encoding="utf-8") as file:
        json.dump({"source": "babel %s, CLDR %s: the category babel's PluralRule gives each number"
                             % (BABEL_VERSION, CLDR_VERSION),
                   "cardinal": expectations(cardinals, CARRIED_CARDINALS),
                   "ordinal": expectations(ordinals, {})}, file, ensure_ascii=False, indent=1)
        file.write("\n")


def main():
    try:
        extract()
    except ExtractError as error:
        print("extract-cldr-from-babel: %s" % error, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
