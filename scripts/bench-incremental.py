#!/usr/bin/env python3
"""Times `detour build` after each of a random sequence of edits on a synthetic knowledge base,
in the order users work: a first build into an empty output, then edit and build at once, over
and over, sometimes after a pause. Prints each build, then per kind of edit the median and the
worst rebuild, and whether each rebuild wrote the whole site or only what the edit touched.

usage: bench-incremental.py [ARTICLES] [EDITS]   (SEED in the environment picks the sequence;
DETOUR and SYNTH the binaries, the static release build by default)
"""
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DETOUR = os.environ.get("DETOUR", os.path.join(ROOT, ".build/static/release/detour"))
SYNTH = os.environ.get("SYNTH", os.path.join(ROOT, ".build/static/release/detour-synth"))
KINDS = [
    "text in a paragraph", "new paragraph", "removed paragraph", "new heading", "title", "tags",
    "new article", "deleted article", "renamed article", "translation", "code", "template",
]


def articles(content):
    found = []
    for folder, _, files in os.walk(os.path.join(content, "articles")):
        found += [os.path.join(folder, name) for name in files if name.endswith(".md") and name.count(".") == 1]
    return sorted(found)


def change(path, transform):
    with open(path, encoding="utf-8") as file:
        text = file.read()
    with open(path, "w", encoding="utf-8") as file:
        file.write(transform(text))


def body_line(text, rng):
    """The index of a random paragraph line of an article's body."""
    lines = text.split("\n")
    fence = lines.index("---", 1)
    paragraphs = [i for i in range(fence + 1, len(lines)) if lines[i][:1].isalpha()]
    return lines, paragraphs[rng.randrange(len(paragraphs))] if paragraphs else None


def at_a_paragraph(path, rng, action):
    """Changes a random paragraph of the article at `path`: `action` gets its lines and the index."""
    def transform(text):
        lines, line = body_line(text, rng)
        if line is not None:
            action(lines, line)
        return "\n".join(lines)
    change(path, transform)


def edit(kind, content, templates, rng, mark):
    pool = articles(content)
    article = pool[rng.randrange(len(pool))]
    if kind == "text in a paragraph":
        at_a_paragraph(article, rng, lambda lines, i: lines.__setitem__(i, lines[i] + f" Operators saw {mark} here."))
    elif kind == "new paragraph":
        at_a_paragraph(article, rng, lambda lines, i: lines.insert(i + 1, f"\nA paragraph about {mark}."))
    elif kind == "removed paragraph":
        at_a_paragraph(article, rng, lambda lines, i: lines.pop(i))
    elif kind == "new heading":
        change(article, lambda text: text + f"\n## Heading {mark}\n\nText of {mark}.\n")
    elif kind == "title":
        change(article, lambda text: re.sub(r"^title: .*$", f'title: "Title {mark}"', text, count=1, flags=re.M))
    elif kind == "tags":
        change(article, lambda text: re.sub(r"^tags: .*$", f"tags: [{mark}]", text, count=1, flags=re.M))
    elif kind == "new article":
        with open(os.path.join(content, "articles", f"new-{mark}.md"), "w", encoding="utf-8") as file:
            file.write(f"---\ntitle: New {mark}\nsummary: About {mark}.\ncodes: [502]\ntags: [nginx]\n---\n\nText of {mark}.\n")
    elif kind in ("deleted article", "renamed article"):
        # One this sequence added, which no other article links to (`main` adds one first).
        path = rng.choice(added_articles(content))
        if kind == "deleted article":
            os.remove(path)
        else:
            os.rename(path, os.path.join(os.path.dirname(path), f"renamed-{mark}.md"))
    elif kind == "translation":
        translated = sorted(os.path.join(folder, name) for folder, _, files in os.walk(os.path.join(content, "articles"))
                            for name in files if name.count(".") == 2)
        change(translated[rng.randrange(len(translated))], lambda text: text.rstrip("\n") + f" {mark}.\n")
    elif kind == "code":
        codes = sorted(os.listdir(os.path.join(content, "codes")))
        path = os.path.join(content, "codes", codes[rng.randrange(len(codes))])
        change(path, lambda text: re.sub(r"^summary: .*$", f"summary: Changed, {mark}.", text, count=1, flags=re.M))
    elif kind == "template":
        change(os.path.join(templates, "partials", "footer.mustache"), lambda text: text.rstrip("\n") + f"<!-- {mark} -->\n")


def added_articles(content):
    return [path for path in articles(content) if os.path.basename(path).startswith(("new-", "renamed-"))]


def build(work):
    start = time.monotonic()
    done = subprocess.run([DETOUR, "build", "--quiet"], cwd=work, capture_output=True, text=True)
    seconds = time.monotonic() - start
    if done.returncode != 0:
        sys.exit(f"detour build failed:\n{done.stdout}{done.stderr}")
    return seconds


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
    edits = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    seed = int(os.environ.get("SEED", "20261202"))
    rng = random.Random(seed)
    work = tempfile.mkdtemp(prefix="detour-bench-incremental.")
    try:
        content, templates = os.path.join(work, "content"), os.path.join(work, "templates")
        subprocess.run([SYNTH, "--articles", str(count), "--from", os.path.join(ROOT, "content"), "--shape", "vocabulary", content], check=True, capture_output=True)
        shutil.copytree(os.path.join(ROOT, "templates"), templates)
        print(f"knowledge base: {count} articles, {edits} edits, seed {seed}, {os.cpu_count()} cores")
        print(f"first build (empty output)      {build(work):6.2f} s")
        times = {kind: [] for kind in KINDS}
        number = 0
        while number < edits:
            kind = rng.choice(KINDS)
            # An article to delete or rename is one this sequence added first, as an edit of its own.
            if kind in ("deleted article", "renamed article") and not added_articles(content):
                kind = "new article"
            pause = rng.random() < 0.3
            edit(kind, content, templates, rng, f"edit{number}")
            if pause:
                time.sleep(0.5)
            output = os.path.join(work, "public")
            before = os.stat(output).st_ino
            seconds = build(work)
            scope = "whole site" if os.stat(output).st_ino != before else "in place"
            times[kind].append(seconds)
            number += 1
            print(f"{number:2d}. {kind:<22}{' (after a pause)' if pause else '':<16} {seconds:6.2f} s  {scope}")
        print(f"\n{'kind of edit':<22} {'builds':>6} {'median':>8} {'worst':>8}")
        for kind in KINDS:
            if times[kind]:
                print(f"{kind:<22} {len(times[kind]):>6} {statistics.median(times[kind]):>7.2f}s {max(times[kind]):>7.2f}s")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
