#!/usr/bin/python3
"""cdef_check.py - the Python binding's declarations (python/nesvm_build.py's CDEF, the
cffi cdef) agree with include/nesvm.h.

Usage: cdef_check.py PROJECT_ROOT

Both are parsed with pycparser (cffi's own parser): nesvm.h without its comments and
preprocessor lines (its numeric #defines substituted, the C++ guard and NESVM_API
dropped), the cdef without cffi's "..." (a struct with "...;" is a partial one: its
fields are a subset of the header's; "[...]" is an array of any length) and its
`extern "Python"` callbacks (the binding's own). Every declaration of the cdef must be
the header's:
  - a function: the same return and parameter types (parameter names aside);
  - a typedef: the same type (a function pointer's types, an opaque struct's tag);
  - a struct: each field with the same type (all of them, in order, unless partial);
  - an enum: each enumerator with the same value (all of them unless partial).
Exit 1 with one line per disagreement, 0 when the cdef agrees.
"""
import importlib.util
import os
import re
import sys

from pycparser import c_ast, c_parser

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", ".."))
# the standard types nesvm.h takes from <stddef.h>, <stdint.h>, <stdio.h>
PRELUDE = ("typedef unsigned long size_t; typedef int int32_t; typedef long int64_t; "
           "typedef unsigned long uint64_t; typedef struct _IO_FILE FILE;\n")
ANY = "[...]"


def header_source(text):
    """nesvm.h as plain C declarations."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r"#ifdef __cplusplus.*?#endif", " ", text, flags=re.S)
    macros = dict(re.findall(r"^\s*#\s*define\s+(\w+)\s+(-?\d+)\s*$", text, flags=re.M))
    text = re.sub(r"^\s*#(?:[^\n]*\\\n)*[^\n]*", " ", text, flags=re.M)
    text = re.sub(r"\bNESVM_API\b", " ", text)
    for name, value in macros.items():
        text = re.sub(r"\b%s\b" % name, value, text)
    return text


def cdef_source(text):
    """The cdef as plain C, and the names of its partial structs and enums."""
    text = re.sub(r'extern\s+"Python"[^;]*;', " ", text)
    partial = set()
    for m in re.finditer(r"typedef\s+(?:struct|enum)\s+(\w+)\s*\{([^}]*)\}", text):
        if re.search(r"\.\.\.\s*;|,\s*\.\.\.\s*$", m.group(2)):
            partial.add(m.group(1))
    text = re.sub(r"\.\.\.\s*;", " ", text)                     # struct { ...; }
    text = re.sub(r",\s*\.\.\.\s*\}", "}", text)                # enum { A, B, ... }
    text = re.sub(r"\[\s*\.\.\.\s*\]", "[2147483647]", text)   # char message[...]
    return text, partial


def render(t):
    """A type without names, canonical."""
    if isinstance(t, c_ast.TypeDecl):
        q = " ".join(sorted(t.quals))
        return (q + " " if q else "") + render(t.type)
    if isinstance(t, c_ast.IdentifierType):
        return " ".join(t.names)
    if isinstance(t, c_ast.Struct):
        return "struct " + t.name
    if isinstance(t, c_ast.Enum):
        return "enum " + t.name
    if isinstance(t, c_ast.PtrDecl):
        q = " ".join(sorted(t.quals))
        return render(t.type) + " *" + (" " + q if q else "")
    if isinstance(t, c_ast.ArrayDecl):
        dim = t.dim.value if isinstance(t.dim, c_ast.Constant) else None
        return render(t.type) + (ANY if dim == "2147483647" else "[%s]" % dim)
    if isinstance(t, c_ast.FuncDecl):
        params = [render(p.type) for p in (t.args.params if t.args else [])]
        return render(t.type) + " (" + ", ".join(params) + ")"
    raise ValueError("unexpected type node %s" % type(t).__name__)


def enum_values(enum):
    out, nxt = [], 0
    for e in enum.values.enumerators:
        v = int(e.value.value, 0) if isinstance(e.value, c_ast.Constant) else nxt
        if e.value is not None and not isinstance(e.value, c_ast.Constant):
            v = int(e.value.expr.value, 0) * (-1 if e.value.op == "-" else 1)
        out.append((e.name, v))
        nxt = v + 1
    return out


def declarations(source):
    """{name: (kind, detail)} of a translation unit's functions, typedefs, structs, enums."""
    ast = c_parser.CParser().parse(PRELUDE + source)
    out = {}
    for node in ast.ext:
        if isinstance(node, c_ast.Typedef):
            if node.name in ("size_t", "int32_t", "int64_t", "uint64_t", "FILE"):
                continue
            inner = node.type.type
            if isinstance(inner, c_ast.Struct) and inner.decls is not None:
                out[node.name] = ("struct", [(d.name, render(d.type)) for d in inner.decls])
            elif isinstance(inner, c_ast.Enum) and inner.values is not None:
                out[node.name] = ("enum", enum_values(inner))
            else:
                out[node.name] = ("typedef", render(node.type))
        elif isinstance(node, c_ast.Decl) and isinstance(node.type, c_ast.FuncDecl):
            out[node.name] = ("function", render(node.type))
        elif isinstance(node, c_ast.Decl):
            out[node.name or render(node.type)] = ("declaration", render(node.type))
    return out


def same_type(cdef_type, header_type):
    if ANY in cdef_type:
        return re.fullmatch(re.escape(cdef_type).replace(re.escape(ANY), r"\[\d+\]"), header_type) is not None
    return cdef_type == header_type


def compare(cdef, header, partial):
    bad = []
    for name, (kind, detail) in cdef.items():
        if name not in header:
            bad.append(f"{name}: in the cdef, not in nesvm.h")
            continue
        hkind, hdetail = header[name]
        if kind != hkind:
            bad.append(f"{name}: a {kind} in the cdef, a {hkind} in nesvm.h")
        elif kind == "struct":
            hfields = dict(hdetail)
            for field, t in detail:
                if field not in hfields:
                    bad.append(f"{name}.{field}: in the cdef, not in nesvm.h")
                elif not same_type(t, hfields[field]):
                    bad.append(f"{name}.{field}: '{t}' in the cdef, '{hfields[field]}' in nesvm.h")
            if name not in partial and [f for f, _ in detail] != [f for f, _ in hdetail]:
                bad.append(f"{name}: fields {[f for f, _ in detail]} in the cdef, {[f for f, _ in hdetail]} in "
                           f"nesvm.h (a struct of the cdef without '...;' lists them all, in order)")
        elif kind == "enum":
            hvalues = dict(hdetail)
            for e, v in detail:
                if hvalues.get(e) != v:
                    bad.append(f"{name}: {e} = {v} in the cdef, {hvalues.get(e)} in nesvm.h")
            if name not in partial and set(dict(detail)) != set(hvalues):
                bad.append(f"{name}: enumerators {sorted(dict(detail))} in the cdef, {sorted(hvalues)} in nesvm.h")
        elif not same_type(detail, hdetail):
            bad.append(f"{name}: '{detail}' in the cdef, '{hdetail}' in nesvm.h")
    return bad


def main():
    spec = importlib.util.spec_from_file_location("nesvm_build", os.path.join(ROOT, "python", "nesvm_build.py"))
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    header = declarations(header_source(open(os.path.join(ROOT, "include", "nesvm.h")).read()))
    text, partial = cdef_source(build.CDEF)
    cdef = declarations(text)
    bad = compare(cdef, header, partial)
    for b in bad:
        print("not ok - " + b)
    print(f"# {len(cdef)} declarations of the cdef against {len(header)} of nesvm.h, {len(bad)} disagreements")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
