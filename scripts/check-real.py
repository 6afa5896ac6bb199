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

    scripts/check-real.py [--sample N] [--case CASE]... [SERVER...]

The corpus: Tests/RealConfigs/<server>/MANIFEST.tsv, one line per configuration (case,
repository, path, commit, licence, main file, setup, arguments), its files in
Tests/RealConfigs/<server>/<case>/ as their authors wrote them. Setup `sites-enabled`: the file
is a site's server blocks, included from an http block as Debian's nginx.conf includes
sites-enabled/; `server-include`: the file is a server block's part (Flarum's .nginx.conf), its
project's documentation includes it from a server block, which listens on 80 with a root. A VCL
without a vcl_backend_error or vcl_synth of its own includes detour's snippets/varnish.vcl before
its first subroutine, as the README says. Apache: setup `apache-site` (a virtual host's file, put in
sites-available/ and enabled, 000-default disabled) or `apache-conf` (a server-level file, put in
conf-available/ and enabled) in a copy of Debian's /etc/apache2 as installed, with `mods=A+B` the
modules its project's documentation tells users to `a2enmod` (and what they depend on), or
`mods=auto`, the modules its directives outside `<IfModule>` need (a package's scripts enable
those); a
configuration without an ErrorDocument gets detour's snippets/apache.conf enabled beside it with
the modules the README names. The arguments column adds detour's own options: a package's
configuration that names files of its package (Debian's haproxy.cfg and /etc/haproxy/errors) maps
them where the package installed them. Pages: the shipped knowledge base's public/errors (`detour build` makes it).
--sample N takes every configuration whose position in the manifest is a multiple of the
manifest's length / N (a fixed sample, the same on every run); --case takes only the cases named
(a newly added configuration, a fixed class). DETOUR names the binary; CHECK_REAL_JOBS how many
configurations are judged at once (default 3).

Tests/RealConfigs/<server>/KNOWN.tsv lists the disagreements whose class is understood and not
yet fixed (case, kind, rule, class): they are counted apart as known. The run fails (exit 1) on
any other disagreement, and on a configuration that could not run unless it is listed with kind
`not-run`; a listed one that no longer shows is printed, to be taken off the list.

Each case falls in one of two halves by its name (the first bit of its SHA-1): agreement is
printed for each, and the report file lists the tuned half's disagreements first. Fixes are
found on the tuned half; the held-out half says how check does on configurations nobody looked
at while fixing it.
"""
import concurrent.futures
import functools
import hashlib
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

# Configurations judged at once (CHECK_REAL_JOBS, else 3).
JOBS = int(os.environ.get("CHECK_REAL_JOBS") or 3)

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
    `error_page`; Apache's `ErrorDocument`; a VCL's own vcl_backend_error or vcl_synth."""
    if server == "nginx":
        return any("error_page" in text for text in texts.values())
    if server == "apache":
        return any(re.search(r"^\s*ErrorDocument\s", text, re.M | re.I) for text in texts.values())
    return any(re.search(r"^\s*sub\s+vcl_(backend_error|synth)\b", text, re.M) for text in texts.values())


DEBIAN_APACHE = "/etc/apache2"
SNIPPET_MODULES = ["alias", "headers", "mime", "setenvif", "proxy", "proxy_http", "include", "unique_id"]


def apache_enable(tree, kind, name):
    """a2enmod, a2enconf, a2ensite: a link in X-enabled/ to X-available/; a module's `# Depends:`
    modules first, as a2enmod enables them."""
    if kind == "mods":
        with open(os.path.join(tree, "mods-available", name + ".load"), encoding="utf-8") as file:
            for dependency in re.findall(r"^# Depends:(.*)$", file.read(), re.M):
                for module in dependency.split():
                    apache_enable(tree, "mods", module)
        suffixes = [".load", ".conf"]
    else:
        suffixes = [".conf"]
    for suffix in suffixes:
        link = os.path.join(tree, kind + "-enabled", name + suffix)
        if os.path.exists(os.path.join(tree, kind + "-available", name + suffix)) and not os.path.lexists(link):
            os.symlink(os.path.join("..", kind + "-available", name + suffix), link)


SCHEME_MODULES = [("http://", "proxy_http"), ("https://", "proxy_http"), ("ws://", "proxy_wstunnel"), ("wss://", "proxy_wstunnel"),
                  ("fcgi://", "proxy_fcgi"), ("uwsgi://", "proxy_uwsgi"), ("scgi://", "proxy_scgi"), ("ajp://", "proxy_ajp"),
                  ("balancer://", "proxy_balancer")]


@functools.lru_cache(maxsize=None)
def apache_directive_modules():
    """The derived table's directive → module (one module only), and each module's name in
    LoadModule → its .load file's, as a2enmod takes it; read once for every file of every case."""
    table = {}
    with open(os.path.join(ROOT, "Sources", "DetourApache", "Directives", "ApacheDirectiveData.swift"), encoding="utf-8") as data:
        for line in data:
            fields = line.strip().split("\t")
            if len(fields) == 2 and fields[0] not in ("module", "option", "override") and fields[1] != "-" and "," not in fields[1]:
                table[fields[0].lower()] = fields[1]
    load_names = {}
    for load in os.listdir(os.path.join(DEBIAN_APACHE, "mods-available")):
        if load.endswith(".load"):
            with open(os.path.join(DEBIAN_APACHE, "mods-available", load), encoding="utf-8") as file:
                found = re.search(r"^\s*LoadModule\s+(\S+)", file.read(), re.M)
            if found:
                load_names[found.group(1)] = load[: -len(".load")]
    return table, load_names


def apache_needed_modules(path):
    """`mods=auto`: the modules the file's directives need outside `<IfModule>`, standing in
    for what its package's scripts enable, by the table derived from apache2 -L
    (Sources/DetourApache/Directives/ApacheDirectiveData.swift), and the proxy module each
    proxied URL's scheme needs; a directive several modules add needs none of them (MPMs)."""
    table, load_names = apache_directive_modules()
    needed, guarded = [], 0
    with open(path, encoding="utf-8", errors="replace") as file:
        for line in file:
            words = line.split()
            if not words or words[0].startswith("#"):
                continue
            name = words[0].rstrip(">").lower()
            if name in ("<ifmodule", "<ifdefine", "<ifdirective", "<iffile", "<ifversion"):
                guarded += 1
            elif name.startswith("</if"):
                guarded = max(0, guarded - 1)
            elif not guarded and name in table and table[name] in load_names and load_names[table[name]] not in needed:
                needed.append(load_names[table[name]])
            # The scheme of a proxied URL names the proxy module that speaks it.
            if not guarded and name in ("proxypass", "proxypassmatch", "sethandler", "rewriterule", "balancermember"):
                for scheme, module in SCHEME_MODULES:
                    if scheme in line and module not in needed:
                        needed.append(module)
    return needed


def apache_tree(work, row, main, snippet):
    """Debian's /etc/apache2 copied into the case, the case's file enabled in it as its manifest
    line says; the tree's apache2.conf."""
    tree = os.path.join(work, "apache2")
    shutil.copytree(DEBIAN_APACHE, tree, symlinks=True)
    # As the apache2 package leaves it: a module package installed here (mod_wsgi) enables its
    # module when installed; the tree gets it only where the case's documentation says so.
    shipped = set(subprocess.run(["dpkg", "-L", "apache2"], capture_output=True, text=True, check=True).stdout.split())
    for name in os.listdir(os.path.join(tree, "mods-enabled")):
        if os.path.join(DEBIAN_APACHE, "mods-available", name) not in shipped:
            os.unlink(os.path.join(tree, "mods-enabled", name))
    options = dict(item.split("=", 1) for item in row["setup"].split(",") if "=" in item)
    kind = "sites" if "apache-site" in row["setup"].split(",") else "conf"
    name = re.sub(r"\.conf$", "", os.path.basename(main))
    shutil.move(main, os.path.join(tree, kind + "-available", name + ".conf"))
    # A packaged file's companions (includes/sso.conf beside conf-available/x.conf) keep their
    # places in the tree, where an Include relative to ServerRoot finds them.
    if os.path.isdir(os.path.join(work, "etc", "apache2")):
        shutil.copytree(os.path.join(work, "etc", "apache2"), tree, dirs_exist_ok=True)
    if kind == "sites":
        os.unlink(os.path.join(tree, "sites-enabled", "000-default.conf"))
    apache_enable(tree, kind, name)
    modules = [module for module in options.get("mods", "").split("+") if module and module != "auto"]
    if options.get("mods") == "auto":
        # The file's own needs, and those of the files it brought (its includes).
        files = [os.path.join(tree, kind + "-available", name + ".conf")]
        for folder, _, names in os.walk(os.path.join(work, "etc", "apache2")):
            files += [os.path.join(folder, file) for file in names]
        for path in files:
            modules += [module for module in apache_needed_modules(path) if module not in modules]
    if snippet:
        shutil.copy(os.path.join(SNIPPETS, "apache.conf"), os.path.join(tree, "conf-available", "detour.conf"))
        apache_enable(tree, "conf", "detour")
        modules += SNIPPET_MODULES
    for module in modules:
        apache_enable(tree, "mods", module)
    return os.path.join(tree, "apache2.conf")


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
    snippet = server in ("nginx", "varnish", "apache") and not has_pages(server, texts)
    if server == "apache":
        return work, apache_tree(work, row, main, snippet), snippet
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


def known_disagreements(server):
    """(case, kind, rule) → class, from the server's KNOWN.tsv."""
    known = {}
    path = os.path.join(CORPUS, server, "KNOWN.tsv")
    if not os.path.isfile(path):
        return known
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            if line.startswith("#") or not line.strip():
                continue
            case, kind, rule, reason = (line.rstrip("\n").split("\t") + [""] * 4)[:4]
            known[(case, kind, rule)] = reason
    return known


def run(detour, command, server, main, arguments, folder):
    result = subprocess.run([detour, command, server, main, "--pages", PAGES, "--format", "json"] + arguments,
                            cwd=folder, capture_output=True, text=True, timeout=900)
    try:
        report = json.loads(result.stdout)
    except ValueError:
        return None, (result.stderr.strip() or result.stdout.strip())[:300]
    return report, None


def judge(detour, server, row):
    """`detour check` and `detour verify --compare-check` on one configuration."""
    folder, main_file, snippet = prepare(server, row)
    arguments = (row["arguments"].split() if row["arguments"] else []) + ["--map", "/usr/share/detour=" + os.path.join(ROOT, "public")]
    checked = run(detour, "check", server, main_file, arguments, folder)
    verified = run(detour, "verify", server, main_file, arguments + ["--compare-check"], folder)
    return row, snippet, checked, verified


def half(case):
    """`tuned` or `held-out`, fixed by the case's name."""
    return "held-out" if hashlib.sha1(case.encode("utf-8")).digest()[0] & 0x80 else "tuned"


def main(argv):
    sample, only = None, set()
    while argv[:1] in (["--sample"], ["--case"]):
        if argv[0] == "--sample":
            sample = int(argv[1])
        else:
            only.add(argv[1])
        argv = argv[2:]
    detour = os.path.abspath(os.environ.get("DETOUR") or os.path.join(ROOT, ".build", "static", "release", "detour"))
    if not os.path.isdir(PAGES):
        subprocess.run([detour, "build"], cwd=ROOT, check=True)
    servers = argv or sorted(d for d in os.listdir(CORPUS) if os.path.isfile(os.path.join(CORPUS, d, "MANIFEST.tsv")))
    os.makedirs(OUT, exist_ok=True)
    unexplained = 0
    for server in servers:
        rows = [row for row in manifest(server) if not only or row["case"] in only]
        if sample and sample < len(rows):
            step = len(rows) / sample
            rows = [rows[int(i * step)] for i in range(sample)]
        known = known_disagreements(server)
        seen_known = set()
        cannot, agree, others = [], collections.Counter(), 0
        kinds, known_kinds = collections.Counter(), collections.Counter()
        ran = collections.Counter()
        report_lines = []
        # Most of a verify is the real server and its timeouts: several run at once, each on
        # ports of its own (verify retries on a port another took first).
        with concurrent.futures.ThreadPoolExecutor(JOBS) as pool:
            judged_rows = list(pool.map(functools.partial(judge, detour, server), rows))
        for row, snippet, (checked, error), (verified, refusal) in judged_rows:
            if checked is None or verified is None:
                if (row["case"], "not-run", "-") in known:
                    seen_known.add((row["case"], "not-run", "-"))
                cannot.append((row["case"], refusal or error))
                report_lines.append((True, ["%s: not run: %s" % (row["case"], refusal or error)]))
                continue
            judged = {item["rule"] for item in verified.get("diagnostics", [])} | {item["rule"] for item in verified["check_disagreements"]}
            others += sum(1 for item in checked.get("diagnostics", []) if item.get("rule") not in judged)
            disagreements = [(item["kind"], item["rule"], "%s: %s" % (item["place"], item["detail"])) for item in verified["check_disagreements"]]
            ran[half(row["case"])] += 1
            if not disagreements:
                agree[half(row["case"])] += 1
                continue
            entry = ["%s (%s half; %s %s%s):" % (row["case"], half(row["case"]), row["repository"], row["path"], ", detour's snippet added" if snippet else "")]
            for kind, rule, text in disagreements:
                key = (row["case"], kind, rule)
                if key in known:
                    seen_known.add(key)
                    known_kinds[(kind, rule)] += 1
                else:
                    kinds[(kind, rule)] += 1
                entry.append("  %s %s %s%s" % (kind, rule, text, " (known: %s)" % known[key] if key in known else ""))
            report_lines.append((half(row["case"]) != "tuned", entry))
        run_count = len(rows) - len(cannot)
        unexplained += sum(kinds.values()) + sum(1 for case, _ in cannot if (case, "not-run", "-") not in known)
        with open(os.path.join(OUT, server + ".txt"), "w", encoding="utf-8") as out:
            for _, entry in sorted(report_lines, key=lambda item: item[0]):
                out.write("\n".join(entry) + "\n")
        print("%s: %d configurations; verified %d (%d could not run); agreement %d/%d (tuned half %d/%d, held-out half %d/%d); check's findings verify does not judge: %d"
              % (server, len(rows), run_count, len(cannot), sum(agree.values()), run_count, agree["tuned"], ran["tuned"], agree["held-out"], ran["held-out"], others))
        for case, reason in cannot:
            print("  not run%s: %s: %s" % (" (known)" if (case, "not-run", "-") in known else "", case, reason))
        for (kind, rule), count in sorted(kinds.items()):
            print("  %s %s: %d" % (kind, rule, count))
        for (kind, rule), count in sorted(known_kinds.items()):
            print("  known: %s %s: %d" % (kind, rule, count))
        sampled = {row["case"] for row in rows}
        for key in sorted(set(known) - seen_known):
            if key[0] in sampled:
                print("  listed in KNOWN.tsv, not seen now: %s" % " ".join(key))
        print("  in full: %s" % os.path.relpath(os.path.join(OUT, server + ".txt"), ROOT))
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
