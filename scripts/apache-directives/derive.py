#!/usr/bin/env python3
"""Asks the installed Apache which directives each module adds and which words `Options` and
`AllowOverride` take, and writes the table `detour check apache` reads
(Sources/DetourApache/Directives/ApacheDirectiveData.swift).

- Directives: `apache2 -L` lists every directive of the modules loaded. Each module of
  /etc/apache2/mods-available is loaded with what its `# Depends:` line names (and the event
  MPM), and the directives that appear beyond those of its dependencies alone are its own;
  each MPM is loaded alone. The compiled-in modules (`apache2 -l`) are always there. A
  directive several modules add (MaxRequestWorkers, in each MPM) names them all.
- Option words: each alphabetic word of the apache2 binary is tried as `Options WORD` and as
  `AllowOverride WORD` in a <Directory>; the ones `apache2 -t` passes are the words Apache takes.

    scripts/apache-directives/derive.py [--out FILE]

Needs apache2 (and any libapache2-mod-* whose directives the table should know: their .load
files are in mods-available once installed).
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
AVAILABLE = "/etc/apache2/mods-available"
# The MPM every probe loads but an MPM's own (they conflict: one at a time).
MPM = "mpm_event"


def load_lines(module):
    with open(os.path.join(AVAILABLE, module + ".load"), encoding="utf-8") as file:
        text = file.read()
    depends = [word for line in re.findall(r"^# Depends:(.*)$", text, re.M) for word in line.split()]
    return re.findall(r"^\s*LoadModule\s.*$", text, re.M), depends


def closure(module, seen=None):
    """The module and what it depends on, dependencies first."""
    seen = seen if seen is not None else []
    _, depends = load_lines(module)
    for dependency in depends:
        if dependency not in seen:
            closure(dependency, seen)
    if module not in seen:
        seen.append(module)
    return seen


def directives(modules, folder, mpm=MPM):
    """Each directive `apache2 -L` lists with these modules and the MPM loaded, as (name, source file)."""
    path = os.path.join(folder, "probe-%d.conf" % abs(hash((mpm,) + tuple(modules))))
    lines = ["ServerRoot /etc/apache2", "ServerName localhost", "ErrorLog /dev/null"]
    for module in [mpm] + [m for m in modules if m != mpm]:
        lines += load_lines(module)[0]
    with open(path, "w", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")
    result = subprocess.run(["apache2", "-f", path, "-L"], capture_output=True, text=True)
    if result.returncode != 0:
        return None
    return {(match.group(1), match.group(2)) for match in re.finditer(r"^(<?[A-Za-z][A-Za-z0-9_]*)\s+\((\S+\.c)\)", result.stdout, re.M)}


def accepted(directive, word, folder):
    path = os.path.join(folder, "word-%s-%s.conf" % (directive, word))
    with open(path, "w", encoding="utf-8") as out:
        out.write("ServerRoot /etc/apache2\nServerName localhost\nErrorLog /dev/null\n%s\n<Directory /srv>\n%s %s\n</Directory>\n" % ("\n".join(load_lines(MPM)[0]), directive, word))
    result = subprocess.run(["apache2", "-t", "-f", path], capture_output=True, text=True)
    return result.returncode == 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=os.path.join(ROOT, "Sources", "DetourApache", "Directives", "ApacheDirectiveData.swift"))
    args = parser.parse_args()
    compiled = re.findall(r"^\s+(\S+\.c)$", subprocess.run(["apache2", "-l"], capture_output=True, text=True).stdout, re.M)
    modules = sorted(name[:-5] for name in os.listdir(AVAILABLE) if name.endswith(".load"))
    # Each directive and the modules that add it (an MPM's own are in each MPM).
    rows = {}
    probed = []
    with tempfile.TemporaryDirectory() as folder:
        for name, source in directives([], folder):
            if source in compiled:
                rows[name] = {"-"}
        for module in modules:
            lines = load_lines(module)[0]
            if not lines:
                continue
            identifier = re.search(r"LoadModule\s+(\S+)", lines[0]).group(1)
            if module.startswith("mpm_"):
                mine = directives([], folder, mpm=module)
                theirs = {pair for pair in (mine or set()) if pair[1] in compiled}
            else:
                mine = directives(closure(module), folder)
                theirs = directives(closure(module)[:-1], folder)
            if mine is None or theirs is None:
                continue
            probed.append(identifier)
            for name, _ in mine - theirs:
                rows.setdefault(name, set()).add(identifier)
        binary = open(subprocess.run(["sh", "-c", "command -v apache2"], capture_output=True, text=True).stdout.strip(), "rb").read()
        words = sorted({word.decode() for word in re.findall(rb"[A-Za-z]{3,40}", binary)})
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            options = [w for w, ok in zip(words, pool.map(lambda w: accepted("Options", w, folder), words)) if ok]
            overrides = [w for w, ok in zip(words, pool.map(lambda w: accepted("AllowOverride", w, folder), words)) if ok]
    # Apache compares these words without case: one spelling each.
    def unique(words):
        seen = {}
        # Apache's own spelling where the binary has several: `Includes`, not `INCLUDES`.
        for word in sorted(words, key=lambda w: (w.isupper() or w.islower(), w)):
            seen.setdefault(word.lower(), word)
        return sorted(seen.values(), key=str.lower)
    lines = ["%s\t%s" % (name, ",".join(sorted(rows[name]))) for name in sorted(rows, key=str.lower)]
    lines += ["module\t" + identifier for identifier in sorted(set(probed))]
    lines += ["option\t" + word for word in unique(options)]
    lines += ["override\t" + word for word in unique(overrides)]
    version = subprocess.run(["apache2", "-v"], capture_output=True, text=True).stdout.splitlines()[0]
    with open(args.out, "w", encoding="utf-8") as out:
        out.write("// Generated by scripts/apache-directives/derive.py from %s: do not edit.\n" % version)
        out.write("// Each directive and the modules that add it (`-`: compiled in); each module probed (its\n")
        out.write("// directives are all known); the words Options and AllowOverride take.\n")
        out.write('let apacheDirectiveData = """\n%s\n    """\n' % "\n".join("    " + line for line in lines))
    print("%d directives of %d modules, %d option words, %d override words" % (len(rows), len(set(probed)), len(unique(options)), len(unique(overrides))))


if __name__ == "__main__":
    main()
