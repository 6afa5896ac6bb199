#!/usr/bin/env python3
"""Writes the messages with which PHP-FPM refuses its configuration as it starts or tests it (a
pool setting out of range, a path that is not there, a user it cannot find) as `detour diagnose`
patterns. PHP-FPM writes `FPM initialization failed` after each, and exits; a log or a thread
often holds only the first line, which then goes where `FPM initialization failed` goes
(LogConsequence). They are the rows of PHP-FPM's catalogue (Tests/DetourCLITests/LogCatalogue/
php-fpm-8.2.tsv, from its binary) whose verdict (php-fpm-verdicts.tsv) gives the REASON below,
each printf field made `…` (any text, the pool's name too).

    scripts/server-messages/php-fpm-refusals.py [--out Sources/DetourLogs/PHPFPMRefusalLines.swift]
"""
import argparse, os, re

import catalogue

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REASON = "a setting PHP-FPM refuses as it starts or tests its configuration"
FIELD = re.compile(r"%[-0-9.]*(ll|l|h)?[A-Za-z]")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=os.path.join(ROOT, "Sources", "DetourLogs", "PHPFPMRefusalLines.swift"))
    arguments = parser.parse_args()
    refusals = {row[0] for row in catalogue.rows("php-fpm-verdicts.tsv") if len(row) >= 4 and row[3].startswith(REASON)}
    patterns = []
    for row in catalogue.rows("php-fpm-8.2.tsv"):
        if row[1] in refusals and catalogue.pattern(row[1], FIELD) not in patterns:
            patterns.append(catalogue.pattern(row[1], FIELD))
    catalogue.write_swift_patterns(
        arguments.out, "scripts/server-messages/php-fpm-refusals.py from PHP-FPM 8.2's catalogue and its verdicts",
        ['The messages with which PHP-FPM refuses its configuration: `FPM initialization failed`', 'follows each.'], 'PHPFPMRefusalLines', patterns)
    print(f"{len(patterns)} patterns from {len(refusals)} verdicts -> {os.path.relpath(arguments.out, ROOT)}")


if __name__ == "__main__":
    main()
