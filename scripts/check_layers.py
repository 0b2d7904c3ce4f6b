#!/usr/bin/python3
"""check_layers.py - the include graph of src/ and cli/ has no cycle and no upward edge.

Layers, lowest first (a file may include its own folder and the folders below):
    core -> comm -> data -> linalg -> kernel -> params -> solvers -> model -> select
    -> tool -> cli
A module is a .c file with its .h of the same name (foo.c + foo.h); a cycle
among modules (a.c includes b.h, b.c includes a.h) is refused as well, even
inside one folder. The command-line tool (cli/) includes nesvm.h, its own
headers and, of src/, only the tool header src/tool/tool.h (what it may use
beyond nesvm.h). Exit 1 with the edges at fault, 0 when the graph is clean.
With a build folder, the same rules hold for what the object files call
(nm: a module that calls a function another module defines depends on it),
which catches two modules calling each other through a shared header.
Usage: check_layers.py [PROJECT_ROOT [BUILD_DIR]]
       check_layers.py --self-test [PROJECT_ROOT]: the check run on copies of the
       tree, clean (must pass) and with each kind of fault put in (each must fail
       with its message)
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

SELF_TEST = "--self-test" in sys.argv[1:]
ARGS = [a for a in sys.argv[1:] if a != "--self-test"]
ROOT = os.path.abspath(ARGS[0] if ARGS else os.path.join(os.path.dirname(__file__), ".."))
BUILD = os.path.abspath(ARGS[1]) if len(ARGS) > 1 else None
LAYERS = ["core", "comm", "data", "linalg", "kernel", "params", "solvers", "model", "select", "tool", "cli"]
# the one header of src/ the command-line tool may include (besides nesvm.h)
TOOL_HEADER = os.path.join("src", "tool", "tool.h")
INC = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def files():
    out = []
    for top in ("src", "cli"):
        for dp, _, fs in os.walk(os.path.join(ROOT, top)):
            out += [os.path.join(dp, f) for f in fs if f.endswith((".c", ".h"))]
    return sorted(out)


def folder(path):
    rel = os.path.relpath(path, ROOT).split(os.sep)
    if rel[0] == "cli":
        return "cli"
    return rel[1] if len(rel) > 2 else "src"


def module(path):
    return os.path.splitext(os.path.relpath(path, ROOT))[0]


def resolve(src, inc):
    """The project file an include names, or None (a system or public header)."""
    for base in (os.path.dirname(src), os.path.join(ROOT, "src"), os.path.join(ROOT, "include")):
        p = os.path.normpath(os.path.join(base, inc))
        if os.path.exists(p):
            return p if p.startswith(os.path.join(ROOT, "src")) or p.startswith(os.path.join(ROOT, "cli")) else None
    return None


def main():
    bad = []
    edges = {}
    for f in files():
        for inc in INC.findall(open(f).read()):
            t = resolve(f, inc)
            if t is None:
                continue
            a, b = folder(f), folder(t)
            if a not in LAYERS or b not in LAYERS:
                bad.append(f"{os.path.relpath(f, ROOT)}: folder '{a if a not in LAYERS else b}' is not a layer")
                continue
            if LAYERS.index(b) > LAYERS.index(a):
                bad.append(f"upward: {os.path.relpath(f, ROOT)} ({a}) includes {os.path.relpath(t, ROOT)} ({b})")
            elif a == "cli" and b != "cli" and os.path.relpath(t, ROOT) != TOOL_HEADER:
                bad.append(f"cli: {os.path.relpath(f, ROOT)} includes {os.path.relpath(t, ROOT)}: the command-line "
                           f"tool includes nesvm.h and, of src/, only {TOOL_HEADER}")
            ma, mb = module(f), module(t)
            if ma != mb:
                edges.setdefault(ma, set()).add(mb)
    bad += cycles_of(edges, "include cycle")
    if BUILD:
        sym_edges, sym_bad = symbol_graph()
        bad += sym_bad
        bad += cycles_of(sym_edges, "call cycle")
    for b in bad:
        print(b)
    if bad:
        print(f"check_layers: {len(bad)} problem(s)")
        return 1
    print(f"check_layers: {sum(len(v) for v in edges.values())} include edges between modules"
          + (", and the calls between object files," if BUILD else "") + " with no cycle and no upward edge")
    return 0


def symbol_graph():
    """Module -> modules whose functions it calls, from nm of the library's objects."""
    objs = []
    for dp, _, fs in os.walk(BUILD):
        objs += [os.path.join(dp, f) for f in fs if f.endswith(".c.o") and "nesvm_objects.dir" in dp]
    defined, used = {}, {}
    for o in objs:
        rel = o.split("nesvm_objects.dir" + os.sep, 1)[1][:-len(".c.o")]
        out = subprocess.run(["nm", o], capture_output=True, text=True).stdout
        for line in out.splitlines():
            p = line.split()
            if len(p) == 3 and p[1] in "TDBRC":
                defined[p[2]] = rel
            elif len(p) == 2 and p[0] == "U":
                used.setdefault(rel, set()).add(p[1])
    edges, bad = {}, []
    for m, syms in used.items():
        for sym in syms:
            t = defined.get(sym)
            if not t or t == m:
                continue
            edges.setdefault(m, set()).add(t)
            a, b = m.split("/")[1], t.split("/")[1]
            if a in LAYERS and b in LAYERS and LAYERS.index(b) > LAYERS.index(a):
                bad.append(f"upward call: {m} ({a}) calls {sym} of {t} ({b})")
    if not objs:
        bad.append(f"no object files of nesvm_objects under {BUILD}")
    bad += cli_calls(defined)
    return edges, sorted(set(bad))


def tool_names():
    """The function names the tool header declares, with the headers of src/ it includes."""
    names, todo, seen = set(), [os.path.join(ROOT, TOOL_HEADER)], set()
    while todo:
        h = todo.pop()
        if h in seen or not os.path.exists(h):
            continue
        seen.add(h)
        text = open(h).read()
        names |= set(re.findall(r"\b(nv_\w+)\s*\(", text))
        todo += [t for t in (resolve(h, i) for i in INC.findall(text)) if t]
    return names


def cli_calls(defined):
    """The CLI's objects call, of the library's internal functions (nv_*), only those
    the tool header declares (a prototype written into a cli/ file would pass the
    include rule)."""
    allowed, bad, objs = tool_names(), [], []
    for dp, _, fs in os.walk(BUILD):
        objs += [os.path.join(dp, f) for f in fs if f.endswith(".c.o") and "nesvm_cli.dir" in dp]
    for o in objs:
        out = subprocess.run(["nm", o], capture_output=True, text=True).stdout
        for line in out.splitlines():
            p = line.split()
            if len(p) == 2 and p[0] == "U" and p[1].startswith("nv_") and p[1] in defined and p[1] not in allowed:
                bad.append(f"cli call: {os.path.basename(o)[:-2]} calls {p[1]} of {defined[p[1]]}, which "
                           f"{TOOL_HEADER} does not declare")
    if not objs:
        bad.append(f"no object files of nesvm_cli under {BUILD}")
    return bad


def cycles_of(edges, what):
    """One line per cycle found by a depth-first search."""
    state, stack, cycles = {}, [], []

    def visit(m):
        state[m] = 1
        stack.append(m)
        for n in sorted(edges.get(m, ())):
            if state.get(n) == 1:
                cycles.append(stack[stack.index(n):] + [n])
            elif n not in state:
                visit(n)
        stack.pop()
        state[m] = 2

    for m in sorted(edges):
        if m not in state:
            visit(m)
    return [f"{what}: " + " -> ".join(c) for c in cycles]


def self_test():
    """The check on copies of ROOT's src/, cli/ and include/: clean it passes; with
    each fault put in it fails, naming the fault. 0 when every case came out so."""
    cases = [
        ("clean", None, None, None),
        ("cli includes an internal header", "cli/info.c", '#include "cli.h"\n',
         '#include "cli.h"\n#include "core/internal.h"\n'),
        ("cli includes a header by a relative path", "cli/cli.h", '#include "tool/tool.h"\n',
         '#include "tool/tool.h"\n#include "../src/params/params_internal.h"\n'),
        ("upward include", "src/core/util.c", '#include "internal.h"\n',
         '#include "internal.h"\n#include "../model/model_internal.h"\n'),
        ("tool header includes the CLI", "src/tool/tool.h", '#include "nesvm.h"\n',
         '#include "nesvm.h"\n#include "../../cli/cli.h"\n'),
    ]
    expect = {"cli includes an internal header": "cli: cli/info.c includes src/core/internal.h",
              "cli includes a header by a relative path": "cli: cli/cli.h includes src/params/params_internal.h",
              "upward include": "upward: src/core/util.c (core) includes src/model/model_internal.h (model)",
              "tool header includes the CLI": "upward: src/tool/tool.h (tool) includes cli/cli.h (cli)"}
    failures = 0
    for name, path, old, new in cases:
        work = tempfile.mkdtemp(prefix="nesvm-layers-")
        try:
            for top in ("src", "cli", "include"):
                shutil.copytree(os.path.join(ROOT, top), os.path.join(work, top))
            if path:
                p = os.path.join(work, path)
                text = open(p).read()
                if old not in text:
                    print(f"not ok - {name}: '{old.strip()}' is not in {path}")
                    failures += 1
                    continue
                open(p, "w").write(text.replace(old, new, 1))
            r = subprocess.run([sys.executable, os.path.abspath(__file__), work], capture_output=True, text=True)
            want = expect.get(name)
            if want is None and r.returncode != 0:
                print(f"not ok - {name}: the check failed on the clean copy:\n{r.stdout}")
                failures += 1
            elif want is not None and (r.returncode != 1 or want not in r.stdout):
                print(f"not ok - {name}: expected exit 1 and '{want}', got exit {r.returncode}:\n{r.stdout}")
                failures += 1
            else:
                print(f"ok - {name}" + (f": {want}" if want else ""))
        finally:
            shutil.rmtree(work, ignore_errors=True)
    print(f"# {len(cases)} cases, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(self_test() if SELF_TEST else main())
