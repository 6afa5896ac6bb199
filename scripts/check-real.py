#!/usr/bin/env python3
"""Runs `detour check` and `detour verify` on every real configuration of Tests/RealConfigs and
prints, per server: configurations, verified (and those verify could not run, with the reason),
agreement, and the disagreements by rule and kind:

- missed: verify saw it on the real server, check did not say it;
- false alarm: check said it, the real server does not show it;
- severity: both, at the same place, with another severity;
- place: both, for the same rule, at other lines.

The comparison is `detour verify --compare-check`'s (CheckAgreement, as the runtime oracles
use it): only the rules verify can observe compare, check's other findings are counted apart;
the rules a server's refusal is reported as compare as one (`SERVER.refused`, at the line the
server names); where the server refused the configuration and nothing was probed, only refusals
compare. Each disagreement is written in full to .build/check-real/<server>.txt.

    scripts/check-real.py [--sample N] [SERVER...]

The corpus: Tests/RealConfigs/<server>/MANIFEST.tsv, one line per configuration (case,
repository, path, commit, licence, main file, setup, arguments), its files in
Tests/RealConfigs/<server>/<case>/ as their authors wrote them. Setup `sites-enabled`: the file
is a site's server blocks, included from an http block as Debian's nginx.conf includes
sites-enabled/; `server-include`: the file is a server block's part (Flarum's .nginx.conf), its
project's documentation includes it from a server block, which listens on 80 with a root. A VCL
without a vcl_backend_error or vcl_synth of its own includes detour's snippets/varnish.vcl before
its first subroutine, as the README says. Pages: the shipped knowledge base's public/errors (`detour build` makes it).
--sample N takes every configuration whose position in the manifest is a multiple of the
manifest's length / N (a fixed sample, the same on every run). DETOUR names the binary.
"""
import collections
import json
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "Tests", "RealConfigs")
OUT = os.path.join(ROOT, ".build", "check-real")
PAGES = os.path.join(ROOT, "public", "errors")

FIELDS = ["case", "repository", "path", "commit", "licence", "main", "setup", "arguments"]


def manifest(server):
    rows = []
    with open(os.path.join(CORPUS, server, "MANIFEST.tsv"), encoding="utf-8") as lines:
        for line in lines:
            if line.startswith("#") or not line.strip():
                continue
            values = line.rstrip("\n").split("\t")
            rows.append(dict(zip(FIELDS, values + [""] * (len(FIELDS) - len(values)))))
    return rows


SNIPPETS = os.path.join(ROOT, "public", "snippets")


def nginx_snippet(text, top):
    """detour's nginx snippet added as the README tells users to: the server part in every
    server block of http, the proxy part in every location that passes to an upstream, and the
    http part in the http block. `top`: the block the file's top level stands in (`http` for a
    site's file). Blocks are followed by their braces (comments and quoted words set aside);
    each include goes on the line it belongs to, so every line keeps its number."""
    out, blocks, statement, quote = [], [top], "", None
    for line in text.splitlines(keepends=True):
        code = line.split("#", 1)[0]
        words = code.split()
        prefix = ""
        if words and words[0] in ("proxy_pass", "fastcgi_pass", "uwsgi_pass", "scgi_pass") and blocks[-1] == "location":
            prefix = "include %s/nginx-proxy.conf; " % SNIPPETS
        written = prefix
        for index, character in enumerate(line):
            written += character
            if index >= len(code):
                continue
            if quote:
                # Braces in a quoted word (`body ~ '{"a":1}'`) open nothing.
                statement += character
                if character == quote and line[index - 1:index] != "\\":
                    quote = None
                continue
            if character in "'\"":
                quote = character
                statement += character
            elif character == "{":
                opened = statement.split()
                blocks.append(opened[0] if opened else "")
                statement = ""
                if blocks[-1] == "server" and blocks[-2] == "http":
                    written += " include %s/nginx.conf;" % SNIPPETS
                elif blocks[-1] == "http":
                    written += " include %s/nginx-http.conf;" % SNIPPETS
            elif character == "}":
                if len(blocks) > 1:
                    blocks.pop()
                statement = ""
            elif character == ";":
                statement = ""
            else:
                statement += character
        out.append(written)
    return "".join(out)


def varnish_snippet(text):
    """detour's VCL snippet included as the README tells users to: after `vcl 4.x;` and the
    backends, before the VCL's own subroutines, written at the start of the first top-level
    `sub` line so that every line keeps its number. A VCL without a `vcl 4.x;` line (Varnish 3's)
    is left as it is: varnishd refuses it whatever it includes."""
    if not re.search(r"^\s*vcl\s+4\.[01]\s*;", text, re.M):
        return text
    lines = text.splitlines(keepends=True)
    for index, line in enumerate(lines):
        if re.match(r"sub\s", line):
            lines[index] = 'include "%s/varnish.vcl"; ' % SNIPPETS + line
            break
    return "".join(lines)


def has_pages(server, texts):
    """Whether the configuration answers errors with pages of its own somewhere: nginx's
    `error_page`; a VCL's own vcl_backend_error or vcl_synth."""
    if server == "nginx":
        return any("error_page" in text for text in texts.values())
    return any(re.search(r"^\s*sub\s+vcl_(backend_error|synth)\b", text, re.M) for text in texts.values())


def prepare(server, row):
    """The case copied into the work folder, set up as its manifest line says; its main file,
    and whether detour's snippet was added (a configuration without error pages)."""
    source = os.path.join(CORPUS, server, row["case"])
    work = os.path.join(OUT, "work", server, row["case"])
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(source, work)
    main = os.path.join(work, row["main"])
    texts = {}
    for folder, _, names in os.walk(work):
        for name in names:
            with open(os.path.join(folder, name), encoding="utf-8", errors="surrogateescape") as file:
                texts[os.path.join(folder, name)] = file.read()
    snippet = server in ("nginx", "varnish") and not has_pages(server, texts)
    wrapped = bool({"sites-enabled", "server-include"} & set(row["setup"].split(",")))
    if snippet and server == "varnish":
        with open(main, encoding="utf-8", errors="surrogateescape") as file:
            text = file.read()
        with open(main, "w", encoding="utf-8", errors="surrogateescape") as file:
            file.write(varnish_snippet(text))
    elif snippet:
        for path, text in texts.items():
            with open(path, "w", encoding="utf-8", errors="surrogateescape") as file:
                top = "server" if "server-include" in row["setup"] else "http" if wrapped else ""
                file.write(nginx_snippet(text, top))
    setup = row["setup"].split(",")
    if wrapped:
        wrapper = os.path.join(work, "detour-nginx.conf")
        inner = "include %s;" % main
        if "server-include" in setup:
            server_part = ("include %s/nginx.conf;\n        " % SNIPPETS) if snippet else ""
            inner = "server {\n        listen 80;\n        root /var/www/html;\n        %s%s\n    }" % (server_part, inner)
        http_part = ("include %s/nginx-http.conf;\n    " % SNIPPETS) if snippet else ""
        with open(wrapper, "w", encoding="utf-8") as out:
            out.write("events {}\nhttp {\n    %s%s\n}\n" % (http_part, inner))
        return work, wrapper, snippet
    return work, main, snippet


def run(detour, command, server, main, arguments, folder):
    result = subprocess.run([detour, command, server, main, "--pages", PAGES, "--format", "json"] + arguments,
                            cwd=folder, capture_output=True, text=True, timeout=900)
    try:
        report = json.loads(result.stdout)
    except ValueError:
        return None, (result.stderr.strip() or result.stdout.strip())[:300]
    return report, None


def main(argv):
    sample = None
    if argv[:1] == ["--sample"]:
        sample, argv = int(argv[1]), argv[2:]
    detour = os.path.abspath(os.environ.get("DETOUR") or os.path.join(ROOT, ".build", "static", "release", "detour"))
    if not os.path.isdir(PAGES):
        subprocess.run([detour, "build"], cwd=ROOT, check=True)
    servers = argv or sorted(d for d in os.listdir(CORPUS) if os.path.isfile(os.path.join(CORPUS, d, "MANIFEST.tsv")))
    os.makedirs(OUT, exist_ok=True)
    unexplained = 0
    for server in servers:
        rows = manifest(server)
        if sample and sample < len(rows):
            step = len(rows) / sample
            rows = [rows[int(i * step)] for i in range(sample)]
        cannot, agree, others = [], 0, 0
        kinds = collections.Counter()
        report_lines = []
        for row in rows:
            folder, main_file, snippet = prepare(server, row)
            arguments = (row["arguments"].split() if row["arguments"] else []) + ["--map", "/usr/share/detour=" + os.path.join(ROOT, "public")]
            checked, error = run(detour, "check", server, main_file, arguments, folder)
            verified, refusal = run(detour, "verify", server, main_file, arguments + ["--compare-check"], folder)
            if checked is None or verified is None:
                cannot.append((row["case"], refusal or error))
                report_lines.append("%s: not run: %s" % (row["case"], refusal or error))
                continue
            judged = {item["rule"] for item in verified.get("diagnostics", [])} | {item["rule"] for item in verified["check_disagreements"]}
            others += sum(1 for item in checked.get("diagnostics", []) if item.get("rule") not in judged)
            disagreements = [(item["kind"], item["rule"], "%s: %s" % (item["place"], item["detail"])) for item in verified["check_disagreements"]]
            if not disagreements:
                agree += 1
                continue
            report_lines.append("%s (%s %s%s):" % (row["case"], row["repository"], row["path"], ", detour's snippet added" if snippet else ""))
            for kind, rule, text in disagreements:
                kinds[(kind, rule)] += 1
                report_lines.append("  %s %s %s" % (kind, rule, text))
        run_count = len(rows) - len(cannot)
        unexplained += sum(kinds.values())
        with open(os.path.join(OUT, server + ".txt"), "w", encoding="utf-8") as out:
            out.write("\n".join(report_lines) + "\n")
        print("%s: %d configurations; verified %d (%d could not run); agreement %d/%d; check's findings verify does not judge: %d"
              % (server, len(rows), run_count, len(cannot), agree, run_count, others))
        for case, reason in cannot:
            print("  not run: %s: %s" % (case, reason))
        for (kind, rule), count in sorted(kinds.items()):
            print("  %s %s: %d" % (kind, rule, count))
        print("  in full: %s" % os.path.relpath(os.path.join(OUT, server + ".txt"), ROOT))
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
