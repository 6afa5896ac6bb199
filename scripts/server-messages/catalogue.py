"""What the scripts beside this one share: a file of a server's source at a git ref, and the
catalogue table they write (a comment header, then one tab-separated row a message)."""
import subprocess


def source(git_dir, ref, path):
    """The text of path at ref in the clone git_dir."""
    return subprocess.run(["git", "-C", git_dir, "show", f"{ref}:{path}"], check=True, capture_output=True, text=True).stdout


def write(path, header, rows):
    """Writes header (lines, each written after '# ') and rows (tuples of fields) to path."""
    with open(path, "w", encoding="utf-8") as out:
        for line in header:
            out.write(f"# {line}\n")
        for row in rows:
            out.write("\t".join(row) + "\n")
