"""What the scripts beside this one share: a file of a server's source at a git ref, the
catalogue table they write (a comment header, then one tab-separated row a message), and what
the scripts that derive Swift from a catalogue and its verdicts need: the tables' rows, a printf
format as a `detour diagnose` pattern, and a Swift string."""
import os, re, subprocess

CATALOGUE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "Tests", "DetourCLITests", "LogCatalogue")


def source(git_dir, ref, path):
    """The text of path at ref in the clone git_dir."""
    return subprocess.run(["git", "-C", git_dir, "show", f"{ref}:{path}"], check=True, capture_output=True, text=True).stdout


def write(path, header, rows):
    """Writes header (lines, each written after '# ') and rows (tuples of fields) to path."""
    with open(path, "w", encoding="utf-8") as out:
        for line in header:
            out.write(f"# {line}\n")
        for row in rows:
            out.write("\t".join(row) + "\n")


def rows(name):
    """The rows of LogCatalogue/name, each a list of its tab-separated fields."""
    with open(os.path.join(CATALOGUE, name), encoding="utf-8") as table:
        for line in table:
            if line.startswith("#") or not line.strip():
                continue
            yield line.rstrip("\n").split("\t")


def pattern(text, field):
    """The printf format text as a pattern: each field (the regular expression field) any text
    (`…`, several in a row one), `%%` a percent sign."""
    text = field.sub("\u2026", text.replace("%%", "\x00")).replace("\x00", "%")
    text = re.sub("\u2026(\\s*\u2026)+", "\u2026", text)
    return text.strip().strip("\u2026").strip()


def swift_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_swift_patterns(path, written_by, doc, name, patterns):
    """Writes the Swift file at path: enum name, documented by doc (lines), whose `patterns` are
    patterns, under a line saying written_by wrote it."""
    with open(path, "w", encoding="utf-8") as out:
        out.write(f"// Written by {written_by}; do not edit.\n\n")
        for line in doc:
            out.write(f"/// {line}\n")
        out.write(f"enum {name} {{\n    static let patterns: [String] = [\n")
        for candidate in patterns:
            out.write("        " + swift_string(candidate) + ",\n")
        out.write("    ]\n}\n")
