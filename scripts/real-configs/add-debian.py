#!/usr/bin/env python3
"""Adds one configuration a Debian 12 package ships to Tests/RealConfigs, byte for byte as the
package installs it, with its manifest line: repository `debian:PACKAGE`, its installed path, the
package's version for the commit, the licence its copyright file gives for `Files: *`, that file
copied as LICENSE. Files keep their installed paths under the case's folder (etc/apache2/…), so
an Include relative to ServerRoot (`includes/sso.conf`) finds its file in the tree check-real
builds.

    scripts/real-configs/add-debian.py SERVER CASE PACKAGE PATH[,PATH...] [SETUP] [ARGUMENTS]

The first PATH is the main file. Needs apt-get and dpkg-deb (Debian's package lists).
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def licence(copyright_text):
    """The licence of `Files: *` in a machine-readable copyright file, else the first named."""
    for stanza in re.split(r"\n\s*\n", copyright_text):
        if re.search(r"^Files:\s*\*\s*$", stanza, re.M):
            found = re.search(r"^License:\s*(\S.*)$", stanza, re.M)
            if found:
                return found.group(1).strip()
    found = re.search(r"^License:\s*(\S.*)$", copyright_text, re.M)
    return found.group(1).strip() if found else "see LICENSE"


def main(argv):
    server, case, package, paths = argv[:4]
    setup = argv[4] if len(argv) > 4 else ""
    arguments = argv[5] if len(argv) > 5 else ""
    with tempfile.TemporaryDirectory() as work:
        subprocess.run(["apt-get", "download", package], cwd=work, check=True, capture_output=True)
        deb = [name for name in os.listdir(work) if name.endswith(".deb")][0]
        version = subprocess.run(["dpkg-deb", "-f", os.path.join(work, deb), "Version"], capture_output=True, text=True, check=True).stdout.strip()
        tree = os.path.join(work, "tree")
        subprocess.run(["dpkg-deb", "-x", os.path.join(work, deb), tree], check=True)
        folder = os.path.join(ROOT, "Tests", "RealConfigs", server, case)
        for path in paths.split(","):
            target = os.path.join(folder, path.lstrip("/"))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(os.path.join(tree, path.lstrip("/")), "rb") as source, open(target, "wb") as out:
                out.write(source.read())
        with open(os.path.join(tree, "usr", "share", "doc", package, "copyright"), "rb") as source:
            notice = source.read()
        with open(os.path.join(folder, "LICENSE"), "wb") as out:
            out.write(notice)
    manifest = os.path.join(ROOT, "Tests", "RealConfigs", server, "MANIFEST.tsv")
    main_file = paths.split(",")[0].lstrip("/")
    with open(manifest, "a", encoding="utf-8") as out:
        out.write("\t".join([case, "debian:" + package, paths, version, licence(notice.decode("utf-8", "replace")), main_file, setup, arguments]) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
