#!/usr/bin/env python3
"""Writes the lines uWSGI logs as it starts, loads its apps and spawns, reloads or stops its
workers (nothing failed) as `detour diagnose` patterns, for LogRoutine: uWSGI's lines have no
level to tell them by. They are the rows of its catalogue (Tests/DetourCLITests/LogCatalogue/
uwsgi-2.0.tsv, from its source) whose verdict (uwsgi-verdicts.tsv) is one of the REASONS below,
each printf field made `…` (any text). A format with fewer than MINIMUM_LETTERS letters outside
its fields would match lines it was not written for, and is left out.

    scripts/server-messages/uwsgi-routine.py [--out Sources/DetourLogs/UWSGIRoutineLines.swift]
"""
import argparse, os, re

import catalogue

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REASONS = (
    "uWSGI starting, loading its plugins and apps, spawning, reloading or stopping workers as asked",
    "uWSGI's debugging output",
)
MINIMUM_LETTERS = 12
FIELD = re.compile(r"%[-+ #0-9.*]*(ll|l|h|z)?[a-zA-Z]")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=os.path.join(ROOT, "Sources", "DetourLogs", "UWSGIRoutineLines.swift"))
    arguments = parser.parse_args()
    routine = {row[0] for row in catalogue.rows("uwsgi-verdicts.tsv") if len(row) >= 4 and row[2] == "-" and row[3].startswith(REASONS)}
    patterns = []
    for row in catalogue.rows("uwsgi-2.0.tsv"):
        text = row[2]
        if text not in routine:
            continue
        candidate = catalogue.pattern(text, FIELD)
        if "`" in candidate or sum(character.isalpha() for character in candidate.replace("\u2026", "")) < MINIMUM_LETTERS:
            continue
        if candidate not in patterns:
            patterns.append(candidate)
    catalogue.write_swift_patterns(
        arguments.out, "scripts/server-messages/uwsgi-routine.py from uWSGI 2.0's catalogue and its verdicts",
        ['What uWSGI logs as it starts, loads its apps and spawns, reloads or stops its workers: no', 'request failed with these lines, which have no level to say so.'], 'UWSGIRoutineLines', patterns)
    print(f"{len(patterns)} patterns from {len(routine)} routine verdicts -> {os.path.relpath(arguments.out, ROOT)}")


if __name__ == "__main__":
    main()
