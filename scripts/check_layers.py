#!/usr/bin/python3
"""check_layers.py - the include graph of src/ and cli/ has no cycle and no upward edge.

Layers, lowest first (a file may include its own folder and the folders below):
    core -> data -> linalg -> kernel -> params -> solvers -> model -> select -> cli
A module is a .c file with its .h of the same name (foo.c + foo.h); a cycle
among modules (a.c includes b.h, b.c includes a.h) is refused as well, even
inside one folder. Exit 1 with the edges at fault, 0 when the graph is clean.
With a build folder, the same two rules hold for what the object files
call (nm: a module that calls a function another module defines depends on
it), which catches two modules calling each other through a shared header.
Usage: check_layers.py [PROJECT_ROOT [BUILD_DIR]]
"""
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
BUILD = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else None
LAYERS = ["core", "comm", "data", "linalg", "kernel", "params", "solvers", "model", "select", "cli"]
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
    return edges, sorted(set(bad))


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


if __name__ == "__main__":
    sys.exit(main())
