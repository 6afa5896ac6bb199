#!/usr/bin/env python3
"""Probes the installed varnishd for what `detour check varnish` must know of VCL, and prints
it as a table (generate.sh writes it to Sources/DetourVarnish/VCL/varnish-vcl.tsv):

- method: each built-in subroutine and the return actions its compiler accepts there (the
  "Legal returns are" list varnishd -C prints for one it refuses);
- builtin: the subroutines of the built-in VCL (`varnishd -x builtin`);
- variable: each variable of the compiler's symbol table with its type, and the methods in
  which varnishd -C lets a VCL read, set and unset it (tried one by one); a seventh column,
  4.0 or 4.1, for one only that VCL syntax has (`beresp.storage_hint`, `local.socket`), tried
  under it;
- symbol: each name of the symbol table without a dot (reserved words, actions, functions,
  variables, subroutines), its kind and the VCL syntaxes that have it: a VCL may not name an
  ACL, backend, probe or subroutine so;
- function, action, object: the functions and actions of the symbol table, and each shipped
  VMOD's functions and object constructors (when imported), with the type they return.

Everything comes from varnishd's own answers: its symbol table (the comment `varnishd -C`
writes at the end of the C it makes) and its refusals.
"""
import concurrent.futures
import glob
import os
import re
import subprocess
import sys
import tempfile

STATE = tempfile.mkdtemp(prefix="detour-vcl-probe-")
# varnishd reads the file as its unprivileged user.
os.chmod(STATE, 0o755)
HEAD = 'vcl {syntax};\n{imports}backend default {{ .host = "127.0.0.1"; .port = "8000"; }}\n'


def compile_vcl(body, imports="", syntax="4.1"):
    """varnishd -C on a VCL: (accepted, standard output, standard error: the C or the refusal)."""
    with tempfile.NamedTemporaryFile("w", suffix=".vcl", dir=STATE, delete=False) as file:
        file.write(HEAD.format(syntax=syntax, imports=imports) + body + "\n")
    os.chmod(file.name, 0o644)
    # A working folder each: two compilers in one folder disturb each other's files.
    work = tempfile.mkdtemp(dir=STATE)
    os.chmod(work, 0o755)
    result = subprocess.run(["varnishd", "-C", "-f", file.name, "-n", work], capture_output=True, text=True)
    os.unlink(file.name)
    subprocess.run(["rm", "-rf", work])
    return result.returncode == 0, result.stdout, result.stderr


# A value of each type to set a variable to (others are set to themselves).
VALUES = {"STRING": '"x"', "HEADER": '"x"', "BODY": '"x"', "DURATION": "1s", "INT": "1", "BOOL": "true", "REAL": "1.0"}


def symbols(imports):
    accepted, out, err = compile_vcl("", imports)
    assert accepted, err
    table = err.split("Symbol Table MAIN", 1)[1].split("*/", 1)[0]
    found = []
    for line in table.splitlines():
        parts = line.lstrip(" *").split()  # a name may end in *: bereq.http*
        if len(parts) == 5:
            found.append(parts)  # kind, type, from, to, name
    return found


def main():
    version = subprocess.run(["varnishd", "-V"], capture_output=True, text=True).stderr.splitlines()[0]
    vmods = sorted(os.path.basename(p)[len("libvmod_"):-3] for p in glob.glob("/usr/lib/*/varnish/vmods/libvmod_*.so"))
    vmods = [v for v in vmods if v not in ("debug", "vtc")]
    imports = "".join(f"import {v};\n" for v in vmods)
    table = symbols(imports)
    methods = sorted(name for kind, _, low, _, name in table if kind == "sub" and low == "40")
    builtin = subprocess.run(["varnishd", "-x", "builtin"], capture_output=True, text=True).stdout
    builtin_subs = re.findall(r"^sub (\w+)", builtin, re.M)

    rows = []
    for method in methods:
        wrong = "deliver" if method in ("vcl_init", "vcl_fini") else "ok"
        _, _, err = compile_vcl(f"sub {method} {{ return ({wrong}); }}")
        legal = re.search(r"Legal returns are: (.*)", err).group(1)
        rows.append(["method", method, ",".join(re.findall(r'"(\w+)"', legal))])
    rows.append(["builtin", ",".join(builtin_subs)])

    # (name, syntax) → type; syntax "" where both 4.0 and 4.1 have the variable (the symbol
    # table's range: 0 to 40, 41 to 99, or 0 to 99).
    variables = {}
    for kind, vtype, low, high, name in table:
        if kind in ("var", "none") and vtype not in ("HTTP",) and not name.startswith("storage."):
            if re.search(r"\.http\.", name):
                continue  # headers the probe VCL named itself
            syntax = "4.0" if int(high) < 41 else "4.1" if int(low) >= 41 else ""
            variables[(name, syntax)] = vtype

    def access(key):
        name, syntax = key
        probe = name.replace("*", ".x-probe")
        found = {"read": [], "write": [], "unset": []}
        for method in methods:
            accepted, _, err = compile_vcl(f'sub {method} {{ std.log("" + {probe}); }}', "import std;\n", syntax or "4.1")
            # A body is never read: the compiler refuses to convert it before asking where.
            if "Not available in subroutine" not in err and variables[key] != "BODY":
                found["read"].append(method)
            value = VALUES.get(variables[key], probe)
            _, _, err = compile_vcl(f"sub {method} {{ set {probe} = {value}; }}", "import std;\n", syntax or "4.1")
            if "cannot be set" not in err.lower() and "read only" not in err and "Not available" not in err:
                found["write"].append(method)
            _, _, err = compile_vcl(f"sub {method} {{ unset {probe}; }}", "import std;\n", syntax or "4.1")
            if "cannot be unset" not in err.lower() and "Not available" not in err:
                found["unset"].append(method)
        return key, found

    short = lambda ms: ",".join(m[len("vcl_"):] for m in ms) or "-"
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count()) as pool:
        for (name, syntax), found in sorted(pool.map(access, sorted(variables))):
            row = ["variable", name, variables[(name, syntax)], short(found["read"]), short(found["write"]), short(found["unset"])]
            rows.append(row + ([syntax] if syntax else []))

    # Names without a dot: what a declaration may not be called (the VMODs' are the VCL's own
    # imports). Their syntaxes: 40 to 41 is both, 41 to 41 only 4.1.
    for kind, vtype, low, high, name in table:
        if "." not in name and kind in ("reserved", "action", "func", "var", "sub"):
            syntaxes = [s for s, v in (("4.0", 40), ("4.1", 41)) if int(low) <= v <= int(high)]
            rows.append(["symbol", name, kind, ",".join(syntaxes)])

    for kind, vtype, low, high, name in table:
        if kind in ("func", "action") and int(high) >= 41:
            rows.append(["function" if kind == "func" else "action", name, vtype])
        elif kind == "object" and int(high) >= 41:
            rows.append(["object", name, "OBJECT"])  # a VMOD's constructor: new x = vmod.object(…);
    rows.append(["vmod", ",".join(vmods)])

    print("# VCL as varnishd compiles it: methods and their legal returns, the built-in VCL's subroutines,")
    print("# variables (type; methods that may read, set, unset them, without vcl_), functions, actions and")
    print("# the shipped VMODs. Written by scripts/varnish-vcl/probe.py from the real varnishd; do not edit.")
    print(f"# {version}")
    for row in rows:
        print("\t".join(row))


if __name__ == "__main__":
    sys.exit(main())
