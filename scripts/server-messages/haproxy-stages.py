#!/usr/bin/env python3
"""Lists the places in HAProxy's source that set a termination state's second letter (where the
session was: `SF_FINST_R`, `_C`, `_H`, `_D`, `_L`, `_Q`, `_T`) and whether each one sets the first
letter (who ended it: an `SF_ERR_` flag) next to it, or in every caller of the function it is in.
When all of them do, a state whose first letter is `-` (nothing ended the session) and whose second
is not (`-R--`, `-H--`, …) is one HAProxy never writes: haproxy-verdicts.tsv says so of each.

    scripts/server-messages/haproxy-stages.py HAPROXY_GIT_DIR [--tag v2.6.0]

Prints each place (file, line, stage, and the cause set before it or "every caller sets a cause"),
then the stages set without a cause; exits 1 when there are any.
"""
import argparse, re, subprocess, sys

import catalogue

# Lines looked at around a stage's assignment for the cause set with it: HAProxy writes the pair
# as two `if (!(s->flags & …_MASK)) s->flags |= …;` statements in a row, or picks the stage into a
# variable (`finst = SF_FINST_R;`) and sets both as it leaves the function, lines later.
LOOK_BACK = 8
LOOK_AHEAD = 24
# Setting a cause: `s->flags |= SF_ERR_SRVTO;`, `ret = SF_ERR_INTERNAL;` (not testing `SF_ERR_MASK`).
CAUSE = re.compile(r"(?:\|=|=)\s*(SF_ERR_(?!MASK\b)[A-Z]+)")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("git_dir")
    parser.add_argument("--tag", default="v2.6.0")
    options = parser.parse_args()
    files = subprocess.run(
        ["git", "-C", options.git_dir, "grep", "-l", "SF_FINST_", options.tag, "--", "src"], capture_output=True, text=True, check=True
    ).stdout.split()
    without = []
    for entry in files:
        path = entry.split(":", 1)[1]
        lines = catalogue.source(options.git_dir, options.tag, path).split("\n")
        for number, line in enumerate(lines, 1):
            stage = re.search(r"(?:\|=|=)\s*(SF_FINST_[A-Z])\b", line)
            if not stage:
                continue
            around = lines[max(0, number - 1 - LOOK_BACK) : number - 1]
            if not line.lstrip().startswith("s->flags"):
                around += lines[number : number + LOOK_AHEAD]
            cause = CAUSE.findall("\n".join(around))
            function = enclosing_function(lines, number - 1)
            if not cause and function and every_caller_sets_a_cause(lines, function):
                cause = ["every caller sets a cause"]
            print(f"{path}:{number}\t{stage.group(1)}\t{', '.join(sorted(set(cause))) or 'NONE'}")
            if not cause:
                without.append(f"{path}:{number} {stage.group(1)}")
    if without:
        print("stages set without a cause:", *without, sep="\n  ", file=sys.stderr)
        sys.exit(1)
    print("every stage is set with a cause: no state `-X--` but `----` is written", file=sys.stderr)


def enclosing_function(lines, index):
    """The name of the C function whose body holds line `index`: the last line before it that
    opens a definition at the margin."""
    for line in reversed(lines[:index]):
        match = re.match(r"^(?:static\s+)?(?:inline\s+)?\w[\w\s\*]*?\b(\w+)\(", line)
        if match and not line.startswith((" ", "\t")):
            return match.group(1)
    return None


def every_caller_sets_a_cause(lines, function):
    """Whether each call of `function` in the same file comes after a line setting a cause (within
    LOOK_BACK lines)."""
    calls = [i for i, line in enumerate(lines) if re.search(rf"\b{function}\(s\);", line)]
    return bool(calls) and all(CAUSE.search("\n".join(lines[max(0, i - LOOK_BACK) : i])) for i in calls)


if __name__ == "__main__":
    main()
