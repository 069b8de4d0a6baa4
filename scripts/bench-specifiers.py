#!/usr/bin/env python3
"""What the one format-specifier grammar costs, as ratios to the build before it, in one run.

Builds `hotstrings` and `hotstrings-bench` (release) of this tree and of BASE (default 8e23729: main before the
one grammar, issue 37), BASE with this tree's `specifiers` suite added (SpecifierSuite.swift uses only API both
have), so the same measurement runs against both libraries. Then runs
`hotstrings-bench specifiers --tsv` of both builds interleaved ROUNDS times (new, old, then old, new, ...) and
prints, per figure (lookups with arguments, plural formatting, set, lint of the corpus), the medians in seconds per
operation and new / old: below 1 is faster than before, 1 the same.

Usage: scripts/bench-specifiers.py [--base REV] [--rounds N] [--corpus PATH] [--work DIR] [-- SUITE OPTIONS]

The BASE tree is exported with `git archive` into WORK (default /tmp/hotstrings-bench-specifiers-BASE; kept, so
a second run builds incrementally); the builds run one after the other. Run it on a machine nobody else loads: the
load average before and after is printed with the figures.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys

SUITE = "Sources/hotstrings-bench/SpecifierSuite.swift"
ENTRY = "Sources/hotstrings-bench/Entry.swift"


def run(command, cwd, capture=False):
    """Runs `command` in `cwd`, failing the script when it fails."""
    result = subprocess.run(command, cwd=cwd, text=True, capture_output=capture)
    if result.returncode != 0:
        sys.exit(f"bench-specifiers: {' '.join(command)} failed in {cwd} ({result.returncode})\n"
                 + (result.stderr or "" if capture else ""))
    return result.stdout if capture else ""


def export_base(repository, revision, tree):
    """BASE's files in `tree`, with this tree's suite added and listed."""
    if not os.path.exists(os.path.join(tree, "Package.swift")):
        os.makedirs(tree, exist_ok=True)
        archive = subprocess.Popen(["git", "archive", revision], cwd=repository, stdout=subprocess.PIPE)
        subprocess.run(["tar", "-x", "-C", tree], stdin=archive.stdout, check=True)
        if archive.wait() != 0:
            sys.exit(f"bench-specifiers: git archive {revision} failed")
    shutil.copyfile(os.path.join(repository, SUITE), os.path.join(tree, SUITE))
    entry = os.path.join(tree, ENTRY)
    with open(entry, encoding="utf-8") as file:
        text = file.read()
    if "SpecifierSuite.self" not in text:
        listed = "        CatalogSuite.self,\n"
        text = text.replace(listed, listed + "        SpecifierSuite.self,\n", 1)
        if "SpecifierSuite.self" not in text:
            sys.exit(f"bench-specifiers: cannot list the suite in {entry}")
        with open(entry, "w", encoding="utf-8") as file:
            file.write(text)


def build(tree):
    for product in ["hotstrings", "hotstrings-bench"]:
        print(f"building {product} in {tree}", flush=True)
        run(["swift", "build", "-c", "release", "--product", product], cwd=tree)
    return os.path.join(tree, ".build", "release", "hotstrings-bench")


def measure(bench, corpus, extra):
    """One run of the suite: seconds per operation by figure."""
    output = run([bench, "specifiers", "--tsv", "--corpus", corpus] + extra, cwd=os.path.dirname(bench),
                 capture=True)
    figures = {}
    for line in output.splitlines():
        name, _, seconds = line.partition("\t")
        if seconds:
            figures[name] = float(seconds)
    return figures


def shown(seconds):
    return f"{seconds * 1e9:.1f} ns" if seconds < 1e-5 else f"{seconds * 1e3:.3f} ms"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", default="8e23729")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--corpus")
    parser.add_argument("--work")
    parser.add_argument("suite", nargs="*", help="options for the suite (after --)")
    options = parser.parse_args()
    repository = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    corpus = options.corpus or os.environ.get("HOTSTRINGS_CORPUS") or os.path.join(
        os.path.dirname(repository), "shared", "corpus")
    work = options.work or f"/tmp/hotstrings-bench-specifiers-{options.base}"
    revision = run(["git", "rev-parse", "--short", options.base], cwd=repository, capture=True).strip()

    export_base(repository, options.base, os.path.join(work, "base"))
    benches = {"new": build(repository), "old": build(os.path.join(work, "base"))}

    load_before = os.getloadavg()
    samples = {"new": {}, "old": {}}
    for round_index in range(options.rounds):
        for build_name in (["new", "old"] if round_index % 2 == 0 else ["old", "new"]):
            for name, seconds in measure(benches[build_name], corpus, options.suite).items():
                samples[build_name].setdefault(name, []).append(seconds)
        print(f"round {round_index + 1} of {options.rounds} done", flush=True)
    load_after = os.getloadavg()

    head = run(["git", "rev-parse", "--short", "HEAD"], cwd=repository, capture=True).strip()
    print(f"\nspecifiers: new ({head}, this tree) against old ({revision}), {options.rounds} runs each, "
          "interleaved; medians, seconds per operation")
    print(f"load average before {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}, "
          f"after {load_after[0]:.2f} {load_after[1]:.2f} {load_after[2]:.2f} ({os.cpu_count()} processors)")
    print(f"  {'figure':<24}{'new':>14}{'old':>14}{'new / old':>12}")
    for name, values in samples["new"].items():
        new = statistics.median(values)
        old = statistics.median(samples["old"].get(name, [float("nan")]))
        print(f"  {name:<24}{shown(new):>14}{shown(old):>14}{new / old:>11.2f}x")


if __name__ == "__main__":
    main()
