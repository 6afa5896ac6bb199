#!/usr/bin/env python3
"""Writes the CRD schemas the tests validate detour's Kubernetes manifests against.

Each is the openAPIV3Schema of one version of a CustomResourceDefinition as its project publishes
it, read from a clone of the project's repository at a known commit, and written unchanged as
JSON to Tests/DetourCLITests/Kubernetes/<group>_<kind>_<version>.json, with SOURCES.tsv naming
where each came from.

    scripts/kubernetes-schemas.py traefik=/path/to/traefik/clone
"""
import json
import os
import subprocess
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = os.path.join(ROOT, "Tests/DetourCLITests/Kubernetes")
# project → (repository, commit, [(CRD file, version)])
CRDS = {
    "traefik": (
        "traefik/traefik",
        "fd5a576df2e8aeb0bfc8a96b6ef6e60a61f7ec0a",
        [
            ("docs/content/reference/dynamic-configuration/traefik.io_middlewares.yaml", "v1alpha1"),
            ("docs/content/reference/dynamic-configuration/traefik.io_ingressroutes.yaml", "v1alpha1"),
        ],
    ),
}


def main(clones):
    rows = []
    for project, clone in clones.items():
        repository, commit, files = CRDS[project]
        for path, version in files:
            text = subprocess.run(["git", "-C", clone, "show", f"{commit}:{path}"], check=True, capture_output=True, text=True).stdout
            crd = yaml.safe_load(text)
            group, kind = crd["spec"]["group"], crd["spec"]["names"]["kind"]
            schema = next(v["schema"]["openAPIV3Schema"] for v in crd["spec"]["versions"] if v["name"] == version)
            name = f"{group}_{kind}_{version}.json"
            with open(os.path.join(TARGET, name), "w") as out:
                json.dump(schema, out, indent=1, sort_keys=True)
                out.write("\n")
            rows.append(f"{name}\t{repository}\t{commit}\t{path}\n")
    with open(os.path.join(TARGET, "SOURCES.tsv"), "w") as out:
        out.write("# schema\trepository\tcommit\tCRD file (its openAPIV3Schema for the version in the name)\n")
        out.writelines(sorted(rows))


if __name__ == "__main__":
    main(dict(argument.split("=", 1) for argument in sys.argv[1:]))
