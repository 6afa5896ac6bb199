#!/usr/bin/env python3
"""Asks the installed HAProxy which keywords each kind of section takes, which `option` names a
proxy takes, and what it says of the keywords it no longer supports; writes the table
`detour check haproxy` reads (Sources/DetourHAProxy/Keywords/HAProxyKeywordData.swift).

Every word of the haproxy binary is a candidate (the keywords are among its strings, some only as
the tail of a longer one). Each is
tried as a line of each section kind with `haproxy -c`, a line HAProxy certainly does not know
after it: the section's own words for an unknown keyword come from that line, and a candidate
HAProxy answers with them is not a keyword of the section; one it answers otherwise (or not at
all) is. The answers that refuse a keyword whatever its arguments (`… is not supported anymore
…`) are kept with the keyword, in HAProxy's words. `option WORD` is tried the same way in each
proxy section.

    scripts/haproxy-keywords/derive.py [--out FILE]
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SENTINEL = "zzdetourunknownzz"
# The name each probed proxy has, written `%p` where HAProxy's words name the proxy.
NAME = "zzdetourproxyzz"
# Each section kind with the line that opens one.
SECTIONS = [
    ("global", "global"), ("defaults", "defaults"), ("frontend", "frontend " + NAME), ("backend", "backend " + NAME), ("listen", "listen " + NAME),
    ("userlist", "userlist u"), ("peers", "peers p"), ("resolvers", "resolvers r"), ("mailers", "mailers m"), ("program", "program p"),
    ("http-errors", "http-errors e"), ("ring", "ring r"), ("cache", "cache c"), ("fcgi-app", "fcgi-app a"), ("log-forward", "log-forward lf"),
]
PROXIES = ["defaults", "frontend", "backend", "listen"]
# HAProxy stops after 50 fatal errors: a chunk stays well below.
CHUNK = 12
# What HAProxy says of a keyword it refuses whatever its arguments.
REFUSED = re.compile(r"not supported any ?more|no longer supported|has been removed|is not supported since|not allowed because", re.I)


def run(header, lines, folder):
    """haproxy -c on a file of the section `header` with `lines`; per line number, HAProxy's messages."""
    path = os.path.join(folder, "probe-%d.cfg" % os.getpid())
    with open(path, "w", encoding="utf-8") as out:
        out.write(header + "\n" + "".join("    %s\n" % line for line in lines))
    result = subprocess.run(["haproxy", "-c", "-f", path], capture_output=True, text=True)
    messages = {}
    for number, message in re.findall(r"\[%s:(\d+)\]\s*: (.*)" % re.escape(path), result.stdout + result.stderr):
        # `[file:5] : parsing [file:5] : …`: the words after the place.
        message = re.sub(r"^parsing \[[^]]*\]\s*:\s*", "", message.strip())
        messages.setdefault(int(number), []).append(message.replace(NAME, "%p"))
    return messages


def classify(header, prefix, words, folder):
    """Per word: None (HAProxy does not know it there), or the message that refuses it, or ''."""
    unknown_form = None
    probe = run(header, [prefix + SENTINEL], folder)
    unknown_form = probe[2][0].replace(SENTINEL, "%s").split(";")[0]
    found = {}
    pending = list(words)
    while pending:
        chunk, pending = pending[:CHUNK], pending[CHUNK:]
        lines = [line for word in chunk for line in (prefix + word, prefix + SENTINEL)]
        messages = run(header, lines, folder)
        for index, word in enumerate(chunk):
            number = 2 + 2 * index
            said = messages.get(number, [])
            if any(message.split(";")[0].rstrip(".") == (unknown_form % word).rstrip(".") for message in said):
                found[word] = None
            else:
                found[word] = next((message for message in said if REFUSED.search(message)), "")
            if not any(message.split(";")[0].rstrip(".") == (unknown_form % SENTINEL).rstrip(".") for message in messages.get(number + 1, [])):
                # HAProxy stopped reading after this line (a keyword tried without what it
                # needs, or a section that stops at its first unknown keyword), or the line
                # opened another section: the rest again, in a section of this kind.
                pending = chunk[index + 1:] + pending
                break
    return unknown_form, found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=os.path.join(ROOT, "Sources", "DetourHAProxy", "Keywords", "HAProxyKeywordData.swift"))
    arguments = parser.parse_args()
    strings = subprocess.run(["strings", "-n", "2", "/usr/sbin/haproxy"], capture_output=True, text=True, check=True).stdout.split("\n")
    # The linker keeps a string that ends another one only as that one's tail ("bind" in
    # "unix-bind"): every tail of every string is a candidate.
    candidates = sorted({string[start:] for string in strings for start in range(len(string)) if re.fullmatch(r"[a-z][a-z0-9._-]*[a-z0-9]", string[start:])})
    version = subprocess.run(["haproxy", "-v"], capture_output=True, text=True).stdout.split("\n")[0].strip()
    jobs = [(kind, header, "") for kind, header in SECTIONS] + [(kind, header, "option ") for kind, header in SECTIONS if kind in PROXIES]
    results = {}
    with tempfile.TemporaryDirectory() as folder, concurrent.futures.ProcessPoolExecutor() as pool:
        futures = {pool.submit(classify, header, prefix, candidates, folder): (kind, prefix) for kind, header, prefix in jobs}
        for future, key in futures.items():
            results[key] = future.result()
    lines = []
    for kind, _ in SECTIONS:
        form, found = results[(kind, "")]
        lines.append("section\t%s\t%s" % (kind, form))
        lines += ["%s\t%s%s" % (kind, word, "\t" + refusal if refusal else "") for word, refusal in sorted(found.items()) if refusal is not None]
        if kind in PROXIES:
            form, found = results[(kind, "option ")]
            lines.append("options\t%s\t%s" % (kind, form))
            lines += ["%s\toption %s%s" % (kind, word, "\t" + refusal if refusal else "") for word, refusal in sorted(found.items()) if refusal is not None]
    os.makedirs(os.path.dirname(arguments.out), exist_ok=True)
    with open(arguments.out, "w", encoding="utf-8") as out:
        out.write("// Generated by scripts/haproxy-keywords/derive.py from %s: do not edit.\n" % version)
        out.write("// `section KIND FORM`: what HAProxy says of a keyword it does not know there (%s: the keyword);\n")
        out.write("// `options KIND FORM` likewise of an option; then each keyword (or `option NAME`) the kind takes,\n")
        out.write("// with what HAProxy says where it refuses it whatever its arguments.\n")
        out.write('let haproxyKeywordData = """\n%s\n    """\n' % "\n".join("    " + line.replace("\\", "\\\\") for line in lines))


if __name__ == "__main__":
    main()
