#!/usr/bin/env python3
"""Draws the queries `make bench-search` measures from the corpus it indexes, not from a fixed
list: per class, the words that make a search heavy or light on this knowledge base. Reads the
built index (`public/search/<language>/`) for its terms, their document frequencies and the
words written for each stem, and the content's `log_patterns` for pasted log lines (of
different shapes). Prints
`class<TAB>query` lines, the same for the same site (choices are by rank, then by name), and
real questions of spread lengths from the relevance corpus's tuning half.

usage: [LOG_LINES=n] queries.py SITE_FOLDER [LANGUAGE]   (n log lines, default 3)
"""
import glob
import json
import os
import re
import sys

PER_CLASS = 3


def read_index(folder):
    """Terms with their document frequency, and word → stem, from every term shard (or the
    entry of a one-file index)."""
    terms, forms = {}, {}
    decoder = json.JSONDecoder()
    for path in sorted(glob.glob(os.path.join(folder, "t*.js"))) + [os.path.join(folder, "index.js")]:
        text = open(path, encoding="utf-8").read()
        if path.endswith("index.js"):
            entry = decoder.raw_decode(text, text.index(",") + 1)[0]
            codes = entry["codes"]
            if "terms" not in entry:
                continue
            shard_terms, shard_forms = entry["terms"]
        else:
            start = text.index("{")
            shard_terms, end = decoder.raw_decode(text, start)
            shard_forms = decoder.raw_decode(text, end + 1)[0]
        terms.update({term: postings[0] for term, postings in shard_terms.items()})
        forms.update(shard_forms)
    return terms, forms, codes


def log_lines(content):
    lines = []
    for path in sorted(glob.glob(os.path.join(content, "articles", "**", "*.md"), recursive=True)):
        text = open(path, encoding="utf-8").read()
        block = re.search(r"^log_patterns:\n((?:\s+-.*\n)+)", text, re.M)
        if block:
            lines += [re.sub(r'^\s+-\s*"?|"?\s*$', "", line).replace('\\"', '"') for line in block.group(1).splitlines()]
    return lines


def log_line_queries(lines, count):
    """Lines of `count` shapes: the one most pages share first, then others spread over the
    rest. A line's shape is its words that other lines have too (`…, server: shop-a` and
    `…, server: shop-b` are one), so the class is not one shape pasted thrice."""
    words = lambda line: re.findall(r"[\w.:/-]+", line.lower())
    seen = {}
    for line in lines:
        for word in set(words(line)):
            seen[word] = seen.get(word, 0) + 1
    shapes = {}
    for line in lines:
        shapes.setdefault(tuple(w for w in words(line) if seen[w] > 1), []).append(line)
    common = max(shapes, key=lambda shape: (len(shapes[shape]), shape))
    rest = sorted(shape for shape in shapes if shape != common)
    picked = [common] + rest[:: max(1, len(rest) // max(1, count - 1))][: count - 1]
    return [shapes[shape][0] for shape in picked]


def questions(count):
    """Real questions (the tuning half of Tests/DetourCLITests/SearchRelevance/questions.tsv) of
    four to twelve words, at lengths spread from the shortest to the longest: what visitors type
    is often a sentence, each of its words a term file of its own."""
    path = os.path.join(os.path.dirname(__file__), "..", "..", "Tests", "DetourCLITests", "SearchRelevance", "questions.tsv")
    rows = [line.rstrip("\n").split("\t") for line in open(path, encoding="utf-8") if line.strip() and not line.startswith("#")]
    asked = sorted({row[1] for row in rows if row[0] == "tune" and 4 <= len(row[1].split()) <= 12}, key=lambda q: (len(q.split()), q))
    return asked[:: max(1, (len(asked) - 1) // max(1, count - 1))][:count]


def typo(word):
    """One edit that keeps the length (the tolerance depends on it): the middle letter replaced
    by the next in the alphabet."""
    middle = len(word) // 2
    return word[:middle] + chr((ord(word[middle]) - ord("a") + 1) % 26 + ord("a")) + word[middle + 1:]


def main():
    site, language = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else "en")
    terms, forms, codes = read_index(os.path.join(site, "public", "search", language))
    written = {}
    for word, stem in sorted(forms.items()):
        written.setdefault(stem, word)
    # Words a visitor types: letters only, the form as written where the index knows one.
    words = {written.get(term, term): count for term, count in terms.items() if re.fullmatch(r"[a-z]{4,}", written.get(term, term))}
    frequent = sorted(words, key=lambda w: (-words[w], w))[:PER_CLASS]
    rare = sorted((w for w in words if words[w] == 1 and len(w) >= 6), key=lambda w: (len(w), w))
    rare = rare[:: max(1, len(rare) // PER_CLASS)][:PER_CLASS]
    queries = [("frequent", w) for w in frequent] + [("rare", w) for w in rare]
    queries += [("prefix-3", w[:3]) for w in frequent[:2] + rare[:1]]
    queries += [("prefix-5", w[:5]) for w in frequent[:2] + rare[:1]]
    queries += [("status", s) for s in sorted(codes)[: PER_CLASS]]
    queries += [("two-words", "%s %s" % (f, r)) for f, r in zip(frequent, rare)]
    queries += [("typo", typo(w)) for w in frequent[:2] + rare[:1] if len(w) >= 5]
    lines = log_line_queries(log_lines(os.path.join(site, "content")), int(os.environ.get("LOG_LINES", PER_CLASS)))
    queries += [("log-line", line) for line in lines]
    queries += [("question", question) for question in questions(PER_CLASS)]
    for kind, query in queries:
        print("%s\t%s" % (kind, query))


if __name__ == "__main__":
    main()
