#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Every citation of the project's specification resolves (CTest docs/spec-citations).

Scans the repository's text files (git ls-files, tracked and untracked but
not ignored; without git a walk that skips .git/, build*/ and out/) and
checks:

  * each citation in the scheme of docs/spec/README.md names a numbered
    heading of its document:
        spec §4.3            docs/spec/mmu.md            "### 4.3 ..."
        vector format §3     docs/spec/vector-format.md  "## 3. ..."
        scenarios §S1.2      docs/spec/scenarios.md      "### S1.2 ..."
    A list continues a citation: "spec §3 and §4.5", "spec §1–§8";
  * no section sign with a number is left without its document ("§5");
  * no citation of the old, external scheme is left: "contract §N",
    "decision N", docs/contract-decisions.md;
  * no path points outside the repository into the folder beside it
    (shared/: spec, papers, liberty, style; SHARED below);
  * every docs/ path with a file extension mentioned exists (a path after
    "COMMIT:" names an old version and is not checked);
  * every relative link of a Markdown file ([text](path), ![image](path))
    resolves from that file's folder;
  * the old -> new table in docs/spec/README.md covers contract §1-§8 and
    decisions 1-18.

Files still PENDING (the lead's rewrite; see PENDING below) only warn about
old-style citations and shared paths. A dangling new-style citation is an
error everywhere. Exit status: 0 ok, 1 a problem, 2 bad usage.

  check_spec_citations.py [ROOT]     check the repository at ROOT (default: ../..)
  check_spec_citations.py --self-test   the checker fails on broken input

Only the Python 3 standard library is used.
"""

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

# Files still being moved to the new scheme: their findings of the old one
# are warnings, not errors (docs/spec/README.md has the old -> new table).
# Empty; a path ending in "/" would cover a folder.
PENDING = []

# Files that name the old scheme on purpose (the table and this
# checker); the new-style citations in them are still checked.
OLD_SCHEME_ALLOWED = [
    "docs/spec/README.md",
    "tb/docs/check_spec_citations.py",
]

# Not scanned: this checker (its self-test holds broken citations on purpose).
SKIP = ["tb/docs/check_spec_citations.py"]

DOCS = {
    "spec": "docs/spec/mmu.md",
    "vector format": "docs/spec/vector-format.md",
    "scenarios": "docs/spec/scenarios.md",
}

NUM = r"S?\d+(?:\.\d+)*"
SEP = r"\s*(?:,|and|or|to|/|-|–|—)\s*"
CITATION = re.compile(
    r"\b(?P<doc>spec|vector[ -]format|scenarios)\s+§(?P<first>" + NUM + r")"
    r"(?P<rest>(?:" + SEP + r"§" + NUM + r")*)", re.I)
REST_ITEM = re.compile(r"§(" + NUM + r")")
BARE = re.compile(r"§\s*(" + NUM + r")")
HEADING = re.compile(r"^#{1,6}\s+(" + NUM + r")\.?\s+\S")

OLD_STYLE = [
    (re.compile(r"\bcontract\s*§", re.I), "old citation 'contract §N'"),
    (re.compile(r"\b(?:contract\s+)?decisions?\s+#?\d+(?!\d)(?!\s*(?:MMU|cycles?|ns|µs|us)\b)", re.I),
     "old citation 'decision N'"),
    (re.compile(r"contract-decisions(?:\.md)?"), "old file docs/contract-decisions.md"),
    (re.compile(r"mmu-contract\.md"), "old external contract mmu-contract.md"),
]
# the folder beside the repository by a relative or an absolute path, or by
# its sub-folders (papers, liberty, style).
SHARED = re.compile(r"(?:\.\./)+shared\b|/work/shared\b|(?<![\w.-])shared[/](?:spec|papers|liberty|style)\b")
DOC_PATH = re.compile(r"(?<![\w./:-])(docs/[\w./-]+\.[a-z]{2,4})\b")
# A Markdown link or image whose target is a path (no scheme, no bare anchor).
MD_LINK = re.compile(r"!?\[[^\]]*\]\((?![a-z]+:|#)([^)\s#]+)(?:#[^)\s]*)?\)")
# A spec file named without its folder: the old external files had these names.
SPEC_FILE = re.compile(r"(?<![\w-])([\w./-]*(?:scenarios|vector-format|mmu-contract)\.md)\b")

TEXT_SKIP_SUFFIXES = (".gz", ".png", ".jpg", ".fst", ".vcd", ".pdf")


def list_files(root):
    try:
        out = subprocess.run(["git", "-C", str(root), "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
                             capture_output=True, check=True).stdout
        names = sorted({n for n in out.decode().split("\0") if n})
    except (OSError, subprocess.CalledProcessError):
        names = []
        for d, subdirs, files in os.walk(root):
            rel = Path(d).relative_to(root)
            top = rel == Path(".")
            subdirs[:] = [s for s in subdirs
                          if s != ".git" and not (top and (s == "out" or s.startswith("build")))]
            names += [(rel / f).as_posix() for f in files]
        names.sort()
    return [n for n in names if (root / n).is_file() and not n.endswith(TEXT_SKIP_SUFFIXES)]


def read_text(path):
    data = path.read_bytes()
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def headings(root):
    """Section numbers of each spec document: {'spec': {'1', '1.2', ...}, ...}."""
    found, problems = {}, []
    for key, rel in DOCS.items():
        p = root / rel
        nums = set()
        if not p.is_file():
            problems.append(f"{rel}: missing (the document of '{key} §N' citations)")
        else:
            fence = False
            for ln in p.read_text(encoding="utf-8").splitlines():
                if ln.startswith("```"):
                    fence = not fence
                m = None if fence else HEADING.match(ln)
                if m:
                    nums.add(m.group(1))
        found[key] = nums
    return found, problems


def doc_key(word):
    w = word.lower().replace("-", " ")
    return "vector format" if w.startswith("vector") else w


def pending(rel):
    return any(rel == p or (p.endswith("/") and rel.startswith(p)) for p in PENDING)


def check_line(rel, lineno, line, secs, root, errors, warnings):
    where = f"{rel}:{lineno}"
    covered = []  # spans of recognised citations
    for m in CITATION.finditer(line):
        key = doc_key(m.group("doc"))
        nums = [m.group("first")] + REST_ITEM.findall(m.group("rest"))
        for n in nums:
            if n not in secs[key]:
                errors.append(f"{where}: '{m.group(0)}': {DOCS[key]} has no section {n}")
        covered.append(m.span())
    soft = pending(rel)
    old_ok = rel in OLD_SCHEME_ALLOWED

    def report(msg):
        (warnings if soft else errors).append(f"{where}: {msg}")

    for m in BARE.finditer(line):
        if not any(a <= m.start() < b for a, b in covered) and not old_ok:
            ctx = line[max(0, m.start() - 20):m.end()].strip()
            if not re.search(r"contract\s*$", line[:m.start()], re.I):  # reported as old style below
                report(f"'{ctx}': § without its document (write spec §N, vector format §N or scenarios §SN)")
    if not old_ok:
        for rx, what in OLD_STYLE:
            for m in rx.finditer(line):
                report(f"'{m.group(0)}': {what} (docs/spec/README.md maps it to the new section)")
    for m in SHARED.finditer(line):
        if not old_ok:
            report(f"'{m.group(0)}': path outside the repository")
    for m in SPEC_FILE.finditer(line):
        here = ((root / rel).parent / m.group(1)).resolve()  # a relative path to the file is fine
        if here.is_file() and here.parent == (root / "docs/spec").resolve():
            continue
        if not old_ok and not m.group(1).startswith("docs/spec/"):
            report(f"'{m.group(1)}': name the file docs/spec/... or cite its section (scenarios §S1)")
    for m in DOC_PATH.finditer(line):
        if not (root / m.group(1)).exists() and not old_ok:
            report(f"'{m.group(1)}': no such file")
    if rel.endswith(".md"):
        for m in MD_LINK.finditer(line):
            target = (root / rel).parent / m.group(1)
            if not target.exists():
                report(f"link '{m.group(1)}': no such file from {Path(rel).parent.as_posix()}/")


def check_table(root, errors):
    """docs/spec/README.md maps contract §1-§8 and decisions 1-18."""
    p = root / "docs/spec/README.md"
    if not p.is_file():
        errors.append("docs/spec/README.md: missing (the citation scheme and the old -> new table)")
        return
    text = p.read_text(encoding="utf-8")
    rows = [ln for ln in text.splitlines() if ln.startswith("|")]
    for n in range(1, 9):
        if not any(re.match(r"\|\s*contract §" + str(n) + r"\b", r) for r in rows):
            errors.append(f"docs/spec/README.md: the old -> new table has no row for 'contract §{n}'")
    for n in range(1, 19):
        if not any(re.match(r"\|\s*decision " + str(n) + r"\s*\|", r) for r in rows):
            errors.append(f"docs/spec/README.md: the old -> new table has no row for 'decision {n}'")


def check(root, out=sys.stdout):
    root = Path(root).resolve()
    secs, errors = headings(root)
    warnings = []
    check_table(root, errors)
    files = list_files(root)
    cites = 0
    for rel in files:
        if rel in SKIP:
            continue
        text = read_text(root / rel)
        if text is None:
            continue
        for i, line in enumerate(text.splitlines(), 1):
            cites += len(CITATION.findall(line))
            check_line(rel, i, line, secs, root, errors, warnings)
    for w in warnings:
        print(f"warning (pending, see PENDING in {Path(__file__).name}): {w}", file=out)
    for e in errors:
        print(f"error: {e}", file=out)
    print(f"{len(files)} files, {cites} citations, {len(warnings)} warnings in pending files, "
          f"{len(errors)} errors", file=out)
    return 1 if errors else 0


def self_test():
    """The checker passes a good tree and fails each kind of broken one."""
    spec = "# x\n## 1. A\n### 1.2 B\n"
    good = {
        "docs/spec/mmu.md": spec,
        "docs/spec/vector-format.md": "## 1. Files\n## 4. Response\n",
        "docs/spec/scenarios.md": "## S1. PFC\n### S1.4 Expected\n",
        "docs/spec/README.md": "".join(f"| contract §{n} | spec §1 |\n" for n in range(1, 9))
                               + "".join(f"| decision {n} | spec §1.2 |\n" for n in range(1, 19)),
        "golden/a.h": "// spec §1.2 and §1; vector format §4, scenarios §S1.4; DSH paper §IV-C, eq. (7)\n"
                      "// every decision 4 MMU cycles late\n",
        "pending/b.sv": "// contract §3 (pending: a warning)\n",
        "docs/guide/ok.md": "[spec](../spec/mmu.md#x), ![a](../spec/), [web](https://x.org), [here](#a)\n",
    }
    bad = {
        "dangling": ("golden/c.h", "// spec §4.7\n"),
        "dangling in a list": ("golden/c.h", "// spec §1 and §9\n"),
        "dangling scenario": ("golden/c.h", "// scenarios §S9\n"),
        "dangling in a pending file": ("pending/c.sv", "// spec §7\n"),
        "old contract": ("golden/c.h", "// contract §4\n"),
        "old decision": ("golden/c.h", "// see decision 14\n"),
        "bare section": ("golden/c.h", "// as §5 says\n"),
        "shared path": ("golden/c.h", "// ../" + "shared" + "/spec/x.md\n"),
        "missing doc": ("golden/c.h", "// docs/nowhere.md\n"),
        "missing doc file": ("golden/c.h", "# docs/guide/nowhere.toml\n"),
        "broken relative link": ("docs/guide/a.md", "See [x](../nowhere.md#part).\n"),
        "broken image": ("docs/results/a.md", "![fig](img/none.png)\n"),
        "old file name": ("golden/c.h", "// S1 of scenarios.md\n"),
        "incomplete table": ("docs/spec/README.md", "| contract §1 | spec §1 |\n"),
    }
    failed = []

    def run(files):
        PENDING[:] = ["pending/"]  # the self-test's own pending folder
        with tempfile.TemporaryDirectory() as d:
            for rel, text in files.items():
                p = Path(d) / rel
                p.parent.mkdir(parents=True, exist_ok=True)
                p.write_text(text, encoding="utf-8")
            sink = open(os.devnull, "w")
            try:
                return check(d, out=sink)
            finally:
                sink.close()

    if run(good) != 0:
        failed.append("a good tree fails")
    for name, (rel, text) in bad.items():
        tree = dict(good)
        tree[rel] = text
        if run(tree) != 1:
            failed.append(f"not caught: {name} ({rel}: {text.strip()})")
    for f in failed:
        print(f"self-test: {f}")
    print(f"self-test: {1 + len(bad) - len(failed)} of {1 + len(bad)} cases as expected")
    return 1 if failed else 0


def main(argv):
    if len(argv) > 1 and argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0
    if len(argv) > 1 and argv[1] == "--self-test":
        return self_test()
    if len(argv) > 2:
        print("usage: check_spec_citations.py [ROOT] | --self-test", file=sys.stderr)
        return 2
    root = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parent.parent.parent
    if not (root / "docs").is_dir():
        print(f"{root}: not the repository (no docs/)", file=sys.stderr)
        return 2
    return check(root)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
