#!/usr/bin/env python3
"""Lists every reason varnishd gives in `varnishlog` for a failed backend fetch (its FetchError
records), from Varnish's own source at the releases still met in logs: the catalogue `detour
diagnose` is held to (Tests/DetourCLITests/LogCatalogue/varnish-verdicts.tsv says which article
explains each one, or why none does).

    scripts/server-messages/varnish.py VARNISH_GIT_DIR [--tags varnish-4.0.5 …] [--out Tests/DetourCLITests/LogCatalogue/varnish-fetcherror.tsv]

VARNISH_GIT_DIR is a clone of Varnish Cache's repository (github.com/varnishcache/varnish-cache).
Read are the calls that write a FetchError record under bin/varnishd: VSLb/VSLbv/WSP with
SLT_FetchError and a format, and VFP_Error, which writes its format as one; adjacent string
literals are joined, and `%s` a conditional word fills (`"http %sread error"`) is each word; a
format of fields only (`"%s"`) is left out: its words are another call's.
"""
import argparse, re, subprocess, sys

import catalogue

# A call's start: the record tag or VFP_Error, then the first string literal after it.
CALL = re.compile(r'(?:SLT_FetchError\s*,|\bVFP_Error\s*\(\s*[\w>.\-]+\s*,)\s*((?:"(?:[^"\\]|\\.)*"\s*)+)(,?)([^;]*)')
LITERAL = re.compile(r'"((?:[^"\\]|\\.)*)"')
# `first ? "first " : ""`: the words a leading %s can be.
CHOICE = re.compile(r'^\s*\w+\s*\?\s*"([^"]*)"\s*:\s*"([^"]*)"')


def messages(source, path):
    for match in CALL.finditer(source):
        text = "".join(LITERAL.findall(match.group(1)))
        # A format of fields only writes the words of another call, listed where they are written.
        if not re.sub(r"%[-0-9.]*[a-z]", "", text).strip():
            continue
        line = source.count("\n", 0, match.start()) + 1
        choice = CHOICE.match(match.group(3)) if match.group(2) else None
        # The first field is the %s the choice fills.
        if choice and text.find("%") == text.find("%s") >= 0:
            for word in choice.groups():
                yield f"{path.split('/')[-1]}:{line}", text.replace("%s", word, 1)
        else:
            yield f"{path.split('/')[-1]}:{line}", text


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("git_dir")
    parser.add_argument("--tags", nargs="+", default=["varnish-4.0.5", "varnish-4.1.11", "varnish-6.0.16", "varnish-7.1.1"])
    parser.add_argument("--out", default="Tests/DetourCLITests/LogCatalogue/varnish-fetcherror.tsv")
    options = parser.parse_args()
    rows = {}
    for tag in options.tags:
        files = subprocess.run(["git", "--git-dir", options.git_dir, "ls-tree", "-r", "--name-only", tag, "bin/varnishd/"],
                               check=True, capture_output=True, text=True).stdout.split()
        for path in files:
            if not path.endswith(".c"):
                continue
            text = subprocess.run(["git", "--git-dir", options.git_dir, "show", f"{tag}:{path}"], check=True, capture_output=True, text=True).stdout
            if "SLT_FetchError" not in text and "VFP_Error" not in text:
                continue
            for where, message in messages(text, path):
                if message not in rows:
                    rows[message] = (where, [])
                rows[message][1].append(tag.removeprefix("varnish-"))
    catalogue.write(options.out, [
        f"Every reason varnishd {', '.join(t.removeprefix('varnish-') for t in options.tags)} write in a FetchError record: source line",
        "(of the first release that writes it), the releases, and the message as its printf format writes it.",
        "Written by scripts/server-messages/varnish.py; do not edit.",
    ], [(where, " ".join(sorted(set(tags), key=lambda v: [int(p) for p in v.split('.')])), "FetchError", text)
        for text, (where, tags) in rows.items()])
    print(f"{len(rows)} messages", file=sys.stderr)


if __name__ == "__main__":
    main()
