#!/usr/bin/env python3
"""Adds one configuration to Tests/RealConfigs from a repository mirror (a git directory, as the
fetch tool leaves them: /work/.mirror/<owner>+<name>/repo), byte for byte at the mirror's HEAD,
with its manifest line (case, repository, path, commit, licence, main file, setup, arguments).

    scripts/real-configs/add.py [--commit REV] SERVER CASE GIT_DIR PATH LICENCE [SETUP] [ARGUMENTS]

SETUP is `sites-enabled` for a file of server blocks (check-real.py includes it from an http
block), empty otherwise. More files of the same case: PATH may list several, comma-separated;
the first is the main file, and those under its folder keep their paths below it (an include
tree), the others only their names. The licence is the one the repository's licence file names;
that file is copied beside the configuration as LICENSE (most licences ask for their notice to go
with every copy). --commit takes the files at an earlier commit of the mirror's history (a file
its project has since moved or removed), the licence file too.
"""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main(argv):
    revision = "HEAD"
    if argv[:1] == ["--commit"]:
        revision, argv = argv[1], argv[2:]
    server, case, git_dir, paths, licence = argv[:5]
    setup = argv[5] if len(argv) > 5 else ""
    arguments = argv[6] if len(argv) > 6 else ""
    commit = subprocess.run(["git", "-C", git_dir, "rev-parse", revision + "^{commit}"], capture_output=True, text=True, check=True).stdout.strip()
    # The fetch tool's mirrors: /work/.mirror/<owner>+<name>/repo, or repo/.git.
    mirror = git_dir.rstrip("/")
    while os.path.basename(mirror) in (".git", "repo"):
        mirror = os.path.dirname(mirror)
    owner_name = os.path.basename(mirror).replace("+", "/", 1)
    folder = os.path.join(ROOT, "Tests", "RealConfigs", server, case)
    os.makedirs(folder, exist_ok=True)
    names = []
    for path in paths.split(","):
        data = subprocess.run(["git", "-C", git_dir, "show", "%s:%s" % (commit, path)], capture_output=True, check=True).stdout
        # Where the main file's folder holds it (an include tree: `h5bp/basic.conf` beside
        # nginx.conf), the same path under the case's folder; otherwise its name.
        top = os.path.dirname(paths.split(",")[0])
        relative = os.path.relpath(path, top) if top else path
        name = relative if not relative.startswith("..") else os.path.basename(path)
        os.makedirs(os.path.dirname(os.path.join(folder, name)), exist_ok=True)
        with open(os.path.join(folder, name), "wb") as out:
            out.write(data)
        names.append(name)
    top_files = subprocess.run(["git", "-C", git_dir, "ls-tree", "--name-only", commit], capture_output=True, text=True, check=True).stdout.split()
    notices = [name for name in top_files if name.upper().split(".")[0] in ("LICENSE", "LICENCE", "COPYING")]
    if notices:
        data = subprocess.run(["git", "-C", git_dir, "show", "%s:%s" % (commit, sorted(notices)[0])], capture_output=True, check=True).stdout
        with open(os.path.join(folder, "LICENSE"), "wb") as out:
            out.write(data)
    manifest = os.path.join(ROOT, "Tests", "RealConfigs", server, "MANIFEST.tsv")
    if not os.path.exists(manifest):
        with open(manifest, "w", encoding="utf-8") as out:
            out.write("# case\trepository\tpath\tcommit\tlicence\tmain\tsetup\targuments\n")
    with open(manifest, "a", encoding="utf-8") as out:
        out.write("\t".join([case, owner_name, paths, commit, licence, names[0], setup, arguments]) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
