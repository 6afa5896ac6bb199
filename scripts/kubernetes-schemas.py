#!/usr/bin/env python3
"""Writes the schemas the tests validate detour's Kubernetes manifests against.

A custom resource's schema is the openAPIV3Schema of one version of its CustomResourceDefinition
as its project publishes it, read from a clone of the project's repository at a known commit and
written unchanged. A core kind's (Deployment, Service, ConfigMap) is Kubernetes' own OpenAPI
schema for one Kubernetes release as the kubernetes-validate package on PyPI ships it (its
"local-strict" JSON schemas, from the API server's OpenAPI), written self-contained: the
definitions it refers to copied in beside it. Each goes to
Tests/DetourCLITests/Kubernetes/<group>_<kind>_<version>.json (group "core" for the core API),
with SOURCES.tsv naming where each came from.

    pip download --no-deps kubernetes-validate==1.37.0 -d /tmp/kv
    scripts/kubernetes-schemas.py traefik=/path/to/traefik/clone envoy-gateway=/path/to/gateway/clone \
        kubernetes-validate=/tmp/kv/kubernetes_validate-1.37.0-py3-none-any.whl
"""
import json
import os
import re
import subprocess
import sys
import zipfile

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
    # v1.6.0: the first release whose responseOverride sets response headers.
    "envoy-gateway": (
        "envoyproxy/gateway",
        "26ebf49e9d21ddb25521b55181b20f24b4cf102a",
        [("charts/gateway-helm/crds/generated/gateway.envoyproxy.io_backendtrafficpolicies.yaml", "v1alpha1")],
    ),
}
# The core kinds, from kubernetes-validate's wheel: its schema folder for one Kubernetes release
# (the oldest whose kinds the manifests must fit; fields of these GA kinds are only ever added).
CORE = {
    "package": "kubernetes-validate 1.37.0 (PyPI)",
    "folder": "kubernetes_validate/kubernetes-json-schema/v1.33.0-local-strict",
    "kinds": [("deployment-apps-v1.json", "apps", "Deployment", "v1"), ("service-v1.json", "core", "Service", "v1"), ("configmap-v1.json", "core", "ConfigMap", "v1")],
}
REFERENCE = re.compile(r"^(?:/api/_definitions\.json)?#/\$defs/(.+)$")


def self_contained(schema, definitions):
    """The schema with each reference into _definitions.json pointing at a copy in its own definitions."""
    needed, pending = {}, [schema]
    while pending:
        node = pending.pop()
        if isinstance(node, dict):
            match = REFERENCE.match(node.get("$ref", ""))
            if match:
                name = match.group(1)
                node["$ref"] = f"#/definitions/{name}"
                if name not in needed:
                    needed[name] = json.loads(json.dumps(definitions[name]))
                    pending.append(needed[name])
            pending.extend(node.values())
        elif isinstance(node, list):
            pending.extend(node)
    schema["definitions"] = needed
    return schema


def write(name, schema):
    with open(os.path.join(TARGET, name), "w") as out:
        json.dump(schema, out, indent=1, sort_keys=True)
        out.write("\n")


def main(clones):
    rows = []
    for project, clone in clones.items():
        if project not in CRDS:
            continue
        repository, commit, files = CRDS[project]
        for path, version in files:
            text = subprocess.run(["git", "-C", clone, "show", f"{commit}:{path}"], check=True, capture_output=True, text=True).stdout
            crd = yaml.safe_load(text)
            group, kind = crd["spec"]["group"], crd["spec"]["names"]["kind"]
            schema = next(v["schema"]["openAPIV3Schema"] for v in crd["spec"]["versions"] if v["name"] == version)
            name = f"{group}_{kind}_{version}.json"
            write(name, schema)
            rows.append(f"{name}\t{repository}\t{commit}\t{path}\n")
    wheel = clones.get("kubernetes-validate")
    if wheel:
        with zipfile.ZipFile(wheel) as archive:
            definitions = json.loads(archive.read(f"{CORE['folder']}/_definitions.json"))["$defs"]
            for file, group, kind, version in CORE["kinds"]:
                name = f"{group}_{kind}_{version}.json"
                write(name, self_contained(json.loads(archive.read(f"{CORE['folder']}/{file}")), definitions))
                rows.append(f"{name}\t{CORE['package']}\t-\t{CORE['folder']}/{file}\n")
    with open(os.path.join(TARGET, "SOURCES.tsv"), "w") as out:
        out.write("# schema\trepository or package\tcommit\tfile (a CRD: its openAPIV3Schema for the version in the name)\n")
        out.writelines(sorted(rows))


if __name__ == "__main__":
    main(dict(argument.split("=", 1) for argument in sys.argv[1:]))
