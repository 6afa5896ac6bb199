#!/usr/bin/env python3
"""The shared libraries the named installed Debian packages really load, and the packages that
hold them. Every executable and shared object of each package, and of the installed packages built
from the same source that it depends on (apache2's binaries are in apache2-bin), is read with ldd;
each library is traced to its package with dpkg -S.

    runtime-libraries.py PACKAGE...           LIBRARY-PACKAGE<TAB>PACKAGE,PACKAGE... a line, sorted
    runtime-libraries.py --versions PACKAGE...  the same with the installed and the archive's version
"""
import os
import re
import subprocess
import sys

STATUS = "${Package}\t${Status}\t${source:Package}\t${Version}\t${Depends}, ${Pre-Depends}\n"


def query(packages):
    """Package -> (installed?, source package, version, the names it depends on) for the packages dpkg knows."""
    result = subprocess.run(["dpkg-query", "-W", "-f", STATUS, *packages], capture_output=True, text=True)
    known = {}
    for line in result.stdout.splitlines():
        name, status, source, version, depends = line.split("\t")
        # "apache2-bin (= 2.4.71-1~deb12u1), perl:any, debconf (>= 0.5) | debconf-2.0": every alternative's name.
        names = {re.split(r"[\s(:]", alternative.strip())[0] for alternative in re.split(r"[,|]", depends)} - {""}
        known[name] = (status.endswith(" installed"), source, version, names)
    return known


def siblings(package, source, depends):
    """The installed packages of the same source that package depends on."""
    return [name for name, (installed, origin, _, _) in query(sorted(depends)).items() if installed and origin == source]


def objects(packages):
    """The package's executables and shared objects: what ldd can read."""
    listed = subprocess.run(["dpkg", "-L", *packages], capture_output=True, text=True).stdout.splitlines()
    wanted = re.compile(r"(/s?bin/[^/]+|\.so(\.[0-9.]+)?|/usr/lib/chromium/chromium)$")
    return [path for path in listed if wanted.search(path) and os.path.isfile(path) and not os.path.islink(path)]


def libraries(files):
    """The paths of the shared libraries the files load."""
    found = set()
    for start in range(0, len(files), 200):
        output = subprocess.run(["ldd", *files[start:start + 200]], capture_output=True, text=True).stdout
        found.update(m.group(1) for m in re.finditer(r"=> (/\S+) \(", output))
    return found


def owners(paths):
    """Library path -> the package that holds it, by the path dpkg knows (the one ldd found, or the file behind it)."""
    candidates = {path: [path, os.path.realpath(path)] for path in paths}
    asked = sorted({c for cs in candidates.values() for c in cs})
    output = subprocess.run(["dpkg", "-S", *asked], capture_output=True, text=True).stdout if asked else ""
    by_path = {}
    for line in output.splitlines():
        package, _, path = line.partition(": ")
        by_path[path] = package.split(":")[0]
    return {path: next((by_path[c] for c in cs if c in by_path), None) for path, cs in candidates.items()}


def archive_versions(packages):
    """Package -> the version apt would install now, from the package lists as they are."""
    output = subprocess.run(["apt-cache", "policy", *packages], capture_output=True, text=True).stdout
    versions, current = {}, None
    for line in output.splitlines():
        if line and not line.startswith(" "):
            current = line.rstrip(":")
        elif current and line.strip().startswith("Candidate:"):
            versions[current] = line.split(":", 1)[1].strip()
    return versions


def main(arguments):
    show_versions = arguments[:1] == ["--versions"]
    packages = arguments[1:] if show_versions else arguments
    known = query(packages)
    users = {}
    for package in packages:
        installed, source, _, depends = known.get(package, (False, "", "", set()))
        if not installed:
            continue
        for path in libraries(objects([package, *siblings(package, source, depends)])):
            users.setdefault(path, set()).add(package)
    by_library = {}
    for path, owner in owners(sorted(users)).items():
        if owner:
            by_library.setdefault(owner, set()).update(users[path])
    if not show_versions:
        for library in sorted(by_library):
            print(f"{library}\t{','.join(sorted(by_library[library]))}")
        return
    installed = query(sorted(by_library))
    archive = archive_versions(sorted(by_library))
    for library in sorted(by_library):
        version = installed.get(library, (False, "", "?", set()))[2]
        print(f"{library}\t{version}\t{archive.get(library, version)}\t{','.join(sorted(by_library[library]))}")


if __name__ == "__main__":
    main(sys.argv[1:])
