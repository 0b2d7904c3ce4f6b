#!/usr/bin/python3
"""test_errors.py - walk docs/errors.md, provoke every message, check text and exit status.

Usage: test_errors.py NESVM_BINARY PROJECT_ROOT [CATALOGUE] [--sanitized]

--sanitized (an ASan build): blocks that limit memory with `ulimit -v` are
skipped, since AddressSanitizer cannot start under such a limit.

Each catalogue entry has a console block:

    ```console
    $ printf 'abc 1:1\\n' > bad.txt
    $ nesvm train bad.txt out.model
    nesvm train: error: bad.txt:1:1: non-numeric label 'abc'
    [exit 1]
    ```

The `$ ` lines run, in order, with bash in a fresh folder holding the fixtures
(`heart_scale`, the built-in default dataset; `heart.model`, a linear model
trained on it; `rbf.model`, an RBF kernel model; `three.txt`, a 3-class set),
`nesvm` being the binary under test.  Every command before the last must exit
0; the last one's exit status must be the `[exit N]` line and its standard
error must be the lines in between, exactly, except that `...` in an expected
line matches any text.

Completeness: every error format string in the sources (the format of each
nv_error, cli_error, cli_usage, perr, FAIL, bad and fprintf(stderr, ...) call
that holds more than placeholders) must match an expected line of some entry,
or be listed, verbatim, in the catalogue's section "Messages the tests do not
provoke" (each such line must still be in the sources).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

ARGS = [a for a in sys.argv[1:] if a not in ("--sanitized", "")]
SANITIZED = "--sanitized" in sys.argv[1:]
BIN, ROOT = os.path.abspath(ARGS[0]), os.path.abspath(ARGS[1])
CATALOGUE = ARGS[2] if len(ARGS) > 2 else os.path.join(ROOT, "docs", "errors.md")
HEART = "/usr/share/doc/liblinear-tools/examples/heart_scale"

failures = []
passed = 0


def fail(what, why):
    failures.append(what)
    print(f"not ok - {what}: {why}")


def parse_catalogue(text):
    """Entries (title, line number, commands, expected stderr lines, exit) and the unprovoked list."""
    entries, title = [], None
    lines = text.split("\n")
    i = 0
    unprovoked, in_unprovoked = [], False
    while i < len(lines):
        ln = lines[i]
        if ln.startswith("## "):
            in_unprovoked = ln.strip() == "## Messages the tests do not provoke"
        if ln.startswith("### "):
            title = ln[4:].strip()
        if in_unprovoked and ln.startswith("- `"):
            m = re.match(r"- `(.*?)`(?:\s|$|:|,|\.)", ln + " ")
            if m:
                unprovoked.append((m.group(1), i + 1))
        if ln.strip() == "```console":
            start = i + 1
            block = []
            i += 1
            while i < len(lines) and lines[i].strip() != "```":
                block.append(lines[i])
                i += 1
            cmds = [b[2:] for b in block if b.startswith("$ ")]
            rest = [b for b in block if not b.startswith("$ ")]
            ex = None
            if rest and re.fullmatch(r"\[exit \d+\]", rest[-1].strip()):
                ex = int(rest[-1].strip()[6:-1])
                rest = rest[:-1]
            entries.append({"title": title or "?", "line": start, "cmds": cmds, "expect": rest, "exit": ex})
        i += 1
    return entries, unprovoked


def line_matches(pattern, actual):
    rx = "".join(".*" if part == "..." else re.escape(part) for part in re.split(r"(\.\.\.)", pattern))
    return re.fullmatch(rx, actual, re.S) is not None


def make_fixtures(folder):
    shutil.copy(HEART, os.path.join(folder, "heart_scale"))
    env = dict(os.environ, PATH=os.path.dirname(BIN) + ":" + os.environ.get("PATH", ""))
    run = lambda cmd: subprocess.run(cmd, cwd=folder, env=env, check=True, capture_output=True)
    run([BIN, "train", "-q", "heart_scale", "heart.model"])
    run([BIN, "train", "-q", "-t", "rbf", "heart_scale", "rbf.model"])
    with open(HEART) as f, open(os.path.join(folder, "three.txt"), "w") as g:
        for k, row in enumerate(f):
            g.write(str(k % 3 + 1) + row[row.index(" "):])


def run_entry(e, fixtures):
    global passed
    what = f"errors.md:{e['line']}: {e['title']}"
    if e["exit"] is None or not e["cmds"] or not e["expect"]:
        fail(what, "the block needs commands, expected output and an [exit N] line")
        return
    if SANITIZED and any("ulimit -v" in c for c in e["cmds"]):
        passed += 1
        print(f"ok - {what} # skip: ulimit -v under AddressSanitizer")
        return
    work = tempfile.mkdtemp(prefix="nesvm-errors-")
    try:
        for f in os.listdir(fixtures):
            shutil.copy(os.path.join(fixtures, f), work)
        bindir = os.path.join(work, ".bin")
        os.mkdir(bindir)
        os.symlink(BIN, os.path.join(bindir, "nesvm"))
        env = dict(os.environ, PATH=bindir + ":/usr/sbin:/usr/bin:/sbin:/bin", LC_ALL="C", HOME=work)
        env.pop("COLUMNS", None)
        for c in e["cmds"][:-1]:
            r = subprocess.run(["bash", "-c", c], cwd=work, env=env, capture_output=True, text=True,
                               timeout=300)
            if r.returncode != 0:
                fail(what, f"setup command '{c}' exited {r.returncode}: {r.stderr.strip()[:200]}")
                return
        r = subprocess.run(["bash", "-c", e["cmds"][-1]], cwd=work, env=env, capture_output=True,
                           text=True, timeout=300, errors="replace")
        got = r.stderr.rstrip("\n").split("\n") if r.stderr else []
        ok = r.returncode == e["exit"] and len(got) == len(e["expect"]) and all(
            line_matches(p, a) for p, a in zip(e["expect"], got))
        if not ok:
            fail(what, f"exit {r.returncode} (expected {e['exit']}), stderr:\n    " + "\n    ".join(got) +
                 "\n  expected:\n    " + "\n    ".join(e["expect"]))
            return
        passed += 1
        print(f"ok - {what}")
    finally:
        subprocess.run(["chmod", "-R", "u+rwx", work], capture_output=True)
        shutil.rmtree(work, ignore_errors=True)


# ------------------------------------------------------------ source formats
CALLS = {"nv_error": 2, "cli_error": 1, "cli_usage": 1, "perr": 2, "FAIL": 0, "bad": 1}


def c_literals(s, j):
    """The adjacent string literals starting at s[j] (after white space); (text, end)."""
    out, found = [], False
    while True:
        while j < len(s) and s[j] in " \t\n":
            j += 1
        if j >= len(s) or s[j] != '"':
            return ("".join(out) if found else None), j
        k = j + 1
        while s[k] != '"':
            k += 2 if s[k] == "\\" else 1
        out.append(bytes(s[j + 1:k], "utf-8").decode("unicode_escape"))
        found = True
        j = k + 1


def split_args(s, j):
    """Start offsets of the top-level arguments of the call whose '(' is at s[j-1]."""
    starts, depth, k = [j], 1, j
    while k < len(s) and depth > 0:
        c = s[k]
        if c == '"':
            k += 1
            while s[k] != '"':
                k += 2 if s[k] == "\\" else 1
        elif c == "'":
            k += 1
            while s[k] != "'":
                k += 2 if s[k] == "\\" else 1
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth == 1:
            starts.append(k + 1)
        k += 1
    return starts


def source_formats():
    fmts = []
    files = []
    for sub in ("src", "cli"):
        for dp, _, fs in os.walk(os.path.join(ROOT, sub)):
            files += [os.path.join(dp, f) for f in fs if f.endswith(".c")]
    for path in sorted(files):
        s = open(path).read()
        rel = os.path.relpath(path, ROOT)
        for m in re.finditer(r"\b(nv_error|cli_error|cli_usage|perr|FAIL|bad|fprintf)\s*\(", s):
            name = m.group(1)
            if s[max(0, m.start() - 30):m.start()].rstrip().endswith(("static nesvm_status", "static int", "int")):
                continue  # a definition
            args = split_args(s, m.end())
            if name == "fprintf":
                if not s[args[0]:].lstrip().startswith("stderr"):
                    continue
                pos = 1
            else:
                pos = CALLS[name]
            if pos >= len(args):
                continue
            text, _ = c_literals(s, args[pos])
            if text is None:
                continue
            line = s.count("\n", 0, m.start()) + 1
            fmts.append((text, f"{rel}:{line}"))
    return fmts


CONV = re.compile(r"%[-+ #0]*(\*|\d+)?(\.\d+)?(hh|h|ll|l|z|j|t)?([diouxXeEfgGcsp%])")


def format_regex(fmt):
    out, pos = [], 0
    for m in CONV.finditer(fmt):
        out.append(re.escape(fmt[pos:m.start()]))
        conv = m.group(4)
        if conv == "%":
            out.append("%")
        elif conv == "s" or conv == "c":
            out.append(".*")
        elif conv in "diouxX":
            out.append(r"(?:-?[0-9a-fA-F]+|\.\.\.)")  # '...': a number the entry leaves open
        else:
            out.append(r"(?:[-+0-9.eEinfa]+|\.\.\.)")
        pos = m.end()
    out.append(re.escape(fmt[pos:]))
    return "".join(out)


def informative(fmt):
    """A format with text of its own (not only placeholders and punctuation)."""
    return re.search(r"[A-Za-z]{3,}", CONV.sub("", fmt)) is not None


def main():
    if not os.path.exists(CATALOGUE):
        print(f"not ok - the catalogue {CATALOGUE} is missing")
        return 1
    entries, unprovoked = parse_catalogue(open(CATALOGUE).read())
    fixtures = tempfile.mkdtemp(prefix="nesvm-errors-fixtures-")
    try:
        make_fixtures(fixtures)
        for e in entries:
            run_entry(e, fixtures)
    finally:
        shutil.rmtree(fixtures, ignore_errors=True)

    expected = [x.replace("...", "\x00") for e in entries for x in e["expect"]]
    fmts = source_formats()
    # compared without surrounding white space and control characters (a
    # progress line starts with a carriage return)
    listed = {u.strip() for u, _ in unprovoked}
    known = {f.strip() for f, _ in fmts}
    for u, ln in unprovoked:
        if u.strip() not in known:
            fail(f"errors.md:{ln}: unprovoked message '{u}'", "no such format in src/ or cli/ (stale entry?)")
    missing = 0
    for f, where in fmts:
        if not informative(f) or f.strip() in listed:
            continue
        # a format of several lines: each line with text of its own must be shown
        pieces = [p for p in f.split("\n") if informative(p)]
        if not all(any(re.search(format_regex(p), x.replace("\x00", "...")) for x in expected)
                   for p in pieces):
            fail(f"{where}: '{f}'", "not in docs/errors.md (no entry provokes it, and it is not listed "
                 "under 'Messages the tests do not provoke')")
            missing += 1
    if missing == 0:
        print(f"ok - every error format of the sources ({len(fmts)} calls) is catalogued")
    print(f"# {passed} entries passed, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
