#!/usr/bin/env python3
"""Lists every message PHP-FPM's pools, children and process manager can log, and its master's
messages about listening sockets, configuration files and start-up, from the php-fpm binary Debian
ships (its zlog formats are in the binary: every one with "[pool %s]", and the master's named
below): the catalogue `detour diagnose` is held to (Tests/DetourCLITests/LogCatalogue/
php-fpm-verdicts.tsv says which article explains each one, or why none does). The binary holds no
levels; PHP-FPM writes them as WARNING:, NOTICE: or ERROR: before the message.

    scripts/server-messages/php-fpm.py [--binary /usr/sbin/php-fpm8.2] [--out Tests/DetourCLITests/LogCatalogue/php-fpm-8.2.tsv]
"""
import argparse, re, subprocess, sys

import catalogue

MASTER = re.compile(r"listening socket|FPM instance|FPM initialization|configuration file '%s'|fpm is running|ready to handle connections|exiting, bye-bye|^Terminating")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default="/usr/sbin/php-fpm8.2")
    parser.add_argument("--out", default="Tests/DetourCLITests/LogCatalogue/php-fpm-8.2.tsv")
    options = parser.parse_args()
    version = subprocess.run([options.binary, "-v"], capture_output=True, text=True).stdout.split("\n")[0]
    strings = subprocess.run(["strings", "-n", "6", options.binary], check=True, capture_output=True, text=True).stdout.split("\n")
    rows = []
    for text in strings:
        if ("[pool %s]" in text or MASTER.search(text)) and text not in rows and "\t" not in text:
            rows.append(text)
    catalogue.write(options.out, [
        "Every message of PHP-FPM's pools, children and process manager, and its master's about sockets, configuration",
        f"and start-up, as printf formats read from the binary of {version}.",
        "Written by scripts/server-messages/php-fpm.py; do not edit.",
    ], [(f"php-fpm:{index + 1}", text) for index, text in enumerate(rows)])
    print(f"{len(rows)} messages", file=sys.stderr)


if __name__ == "__main__":
    main()
