"""What the CLDR generators in scripts/ share: the command line and writing the generated Swift."""

import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main(description, output_name, generate, errors, program):
    """Runs `generate()` and writes its text to `output_name` in --output (default Sources/StringsFormat).

    Returns the exit status: 1, with the message on standard error, when `generate` raises one of `errors`.
    """
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--output", default=os.path.join(ROOT, "Sources", "StringsFormat"),
                        help="directory to write %s into" % output_name)
    arguments = parser.parse_args()
    try:
        text = generate()
    except errors as error:
        print("%s: %s" % (program, error), file=sys.stderr)
        return 1
    os.makedirs(arguments.output, exist_ok=True)
    with open(os.path.join(arguments.output, output_name), "w", encoding="utf-8") as file:
        file.write(text)
    return 0
