#!/usr/bin/env python3
"""Lists every message gunicorn's arbiter, workers and sockets can log, from gunicorn's own source
at the releases the tests run (Debian 12's 20.1.0, and 23.0.0 from PyPI), with its level: the
catalogue `detour diagnose` is held to (Tests/DetourCLITests/LogCatalogue/gunicorn-verdicts.tsv
says which article explains each one, or why none does).

    scripts/server-messages/gunicorn.py GUNICORN_GIT_DIR [--tags 20.1.0 23.0.0] [--out Tests/DetourCLITests/LogCatalogue/gunicorn.tsv]

GUNICORN_GIT_DIR is a clone of gunicorn's repository (github.com/benoitc/gunicorn). Read are the
calls log.debug/info/warning/error/critical/exception on any logger, with a string (a "…".format()
call's string, its {} written %s); debug is left out.
"""
import argparse, ast, subprocess, sys

import catalogue

LEVELS = {"info": "INFO", "warning": "WARNING", "warn": "WARNING", "error": "ERROR", "critical": "CRITICAL", "exception": "ERROR"}


def text_of(node):
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = text_of(node.left), text_of(node.right)
        return left + right if left is not None and right is not None else None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        inner = text_of(node.func.value)
        return inner.replace("{}", "%s") if inner is not None else None
    return None


def messages(source, path):
    tree = ast.parse(source)
    # A message built in a variable first (msg = "…"; msg += "…") is read from its assignments.
    assigned = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            text = text_of(node.value)
            if text is not None:
                assigned[node.targets[0].id] = text
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in LEVELS and node.args):
            continue
        receiver = ast.unparse(node.func.value)
        if "log" not in receiver:
            continue
        text = text_of(node.args[0])
        if text is None and isinstance(node.args[0], ast.Name):
            text = assigned.get(node.args[0].id)
        if text is None:
            continue
        yield f"{path.split('/')[-1]}:{node.lineno}", LEVELS[node.func.attr], text.replace("\n", " ").replace("\t", " ")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("git_dir")
    parser.add_argument("--tags", nargs="+", default=["20.1.0", "23.0.0"])
    parser.add_argument("--out", default="Tests/DetourCLITests/LogCatalogue/gunicorn.tsv")
    options = parser.parse_args()
    rows = {}
    for tag in options.tags:
        files = subprocess.run(["git", "-C", options.git_dir, "ls-tree", "-r", "--name-only", tag, "gunicorn/"], check=True, capture_output=True, text=True).stdout.split()
        for path in files:
            if not path.endswith(".py") or "/instrument/" in path:
                continue
            for where, level, text in messages(catalogue.source(options.git_dir, tag, path), path):
                key = (level, text)
                if key not in rows:
                    rows[key] = (where, [])
                rows[key][1].append(tag)
    catalogue.write(options.out, [
        f"Every message gunicorn {' and '.join(options.tags)} log from their arbiter, workers and sockets: source line, the releases",
        "that write it, level and the message as its %-format writes it. Written by scripts/server-messages/gunicorn.py; do not edit.",
    ], [(where, " ".join(sorted(set(tags))), level, text) for (level, text), (where, tags) in rows.items()])
    print(f"{len(rows)} messages", file=sys.stderr)


if __name__ == "__main__":
    main()
