#!/usr/bin/env python3
"""Finds, for every command the knowledge base's shell blocks and its articles' `confirm` name, the Debian 12 (bookworm)
package that installs it, from Debian's own Contents index (main, amd64 and all), and writes
the table the shell-block test reads. Run it after an article names a new command; the test
fails naming any command missing from the table.

    scripts/debian-commands/derive.py [--content content] [--out Tests/DetourCLITests/ShellCommands/debian-bookworm.tsv]

Commands are read as the test reads them (ShellBlockCommands.swift): the first word of each
command in a pipeline or list (and `sudo`), after `sudo` and `VAR=value`; shell builtins and keywords are
not looked up.
"""
import argparse, gzip, os, re, subprocess, sys, urllib.request

MIRROR = "http://deb.debian.org/debian/dists/bookworm/main/"
FENCE = re.compile(r"^( *)(```+|~~~+)\s*(sh|bash|shell|console)\s*$")
SUDO_ARGUMENT_OPTIONS = {"-u", "-g", "-U", "-C", "-D", "-h", "-p", "-R", "-T"}
BIN_DIRS = ("usr/bin/", "usr/sbin/", "bin/", "sbin/")


def shell_blocks(root):
    for folder, _, files in os.walk(root):
        for name in sorted(files):
            if not name.endswith(".md"):
                continue
            lines = open(os.path.join(folder, name), encoding="utf-8").read().split("\n")
            inside, fence, block = False, "", []
            for line in lines:
                if not inside:
                    m = FENCE.match(line)
                    if m:
                        inside, fence, block = True, m.group(2), []
                elif line.strip().startswith(fence[0] * 3):
                    inside = False
                    yield "\n".join(block)
                else:
                    block.append(line)


def confirm_commands(root):
    """The articles' `confirm` commands, filled as a log would fill them (127.0.0.1:8080)."""
    import yaml

    for folder, _, files in os.walk(root):
        for name in sorted(files):
            if not name.endswith(".md"):
                continue
            text = open(os.path.join(folder, name), encoding="utf-8").read()
            if not text.startswith("---\n"):
                continue
            confirm = (yaml.safe_load(text[4:text.index("\n---", 4)]) or {}).get("confirm")
            for command in confirm.values() if isinstance(confirm, dict) else [confirm] if confirm else []:
                yield command.replace("{upstream}", "127.0.0.1:8080").replace("{host}", "127.0.0.1").replace("{port}", "8080")


def commands(code):
    code = code.replace("\\\n", " ")
    for line in code.split("\n"):
        # Quoted text is an argument, and `2>&1` a redirection: neither starts a command.
        line = re.sub(r"'[^']*'", "Q", line)
        line = re.sub(r"[0-9]*[<>]&[0-9-]*", " ", line)
        line = re.sub(r"(^|\s)#.*$", "", line)
        for part in re.split(r"\|\||&&|[|;&]|\$\(|`|\)", line):
            words = part.split()
            while words and (words[0] == "sudo" or re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", words[0])):
                if words.pop(0) == "sudo":
                    yield "sudo"
                    # sudo's options, and the argument of those that take one.
                    while words and words[0].startswith("-"):
                        if words.pop(0) in SUDO_ARGUMENT_OPTIONS and words:
                            words.pop(0)
            if words and re.match(r"^[A-Za-z0-9_.+-]+$", words[0]):
                yield words[0]


def builtin(word):
    kind = subprocess.run(["bash", "-c", 'type -t -- "$1"', "bash", word], capture_output=True, text=True).stdout.strip()
    return kind in ("builtin", "keyword")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--content", default="content")
    parser.add_argument("--out", default="Tests/DetourCLITests/ShellCommands/debian-bookworm.tsv")
    args = parser.parse_args()
    blocks = list(shell_blocks(args.content)) + list(confirm_commands(args.content))
    wanted = sorted({c for block in blocks for c in commands(block) if not builtin(c)})
    found = {}
    for index in ("Contents-amd64.gz", "Contents-all.gz"):
        with urllib.request.urlopen(MIRROR + index) as response, gzip.open(response, "rt", errors="replace") as lines:
            for line in lines:
                path, _, packages = line.rstrip("\n").rpartition(" ")
                path = path.strip()
                if not path.startswith(BIN_DIRS):
                    continue
                name = path.rsplit("/", 1)[1]
                if name in wanted and name not in found:
                    found[name] = (path, packages.split(",")[0].rsplit("/", 1)[-1])
    missing = [c for c in wanted if c not in found]
    with open(args.out, "w") as out:
        out.write("# command\tpath\tDebian 12 package (from Debian's Contents index: scripts/debian-commands/derive.py)\n")
        for name in wanted:
            if name in found:
                out.write("%s\t/%s\t%s\n" % (name, found[name][0], found[name][1]))
    if missing:
        sys.exit("not in Debian 12: " + " ".join(missing))


if __name__ == "__main__":
    main()
