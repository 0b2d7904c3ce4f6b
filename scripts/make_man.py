#!/usr/bin/python3
"""make_man.py - write the man page nesvm.1 from the program itself.

Usage: make_man.py NESVM_BINARY [OUT]   (OUT default: docs/nesvm.1; '-' = stdout)

The sections come from what the binary prints: the command list (`nesvm
--help`), each command's `--help`, and the parameter table (`nesvm params
--markdown`, the same table nesvm_params_set validates with).  The cli test
checks that docs/nesvm.1 is current; CMake installs it.
"""
import os
import re
import subprocess
import sys

BIN = sys.argv[1]
OUT = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "..", "docs", "nesvm.1")
COMMANDS = ["train", "predict", "cv", "grid", "easy", "scale", "info", "export", "import", "split", "params"]


def run(*args):
    return subprocess.run([BIN, *args], capture_output=True, text=True, check=True).stdout


def esc(text):
    """Text for roff: backslashes doubled, a leading dot or quote guarded."""
    out = []
    for line in text.rstrip("\n").split("\n"):
        line = line.replace("\\", "\\e").replace("-", "\\-")
        if line.startswith((".", "'")):
            line = "\\&" + line
        out.append(line)
    return "\n".join(out)


def main():
    version = run("--version").split()[-1]
    page = [
        f'.TH NESVM 1 "" "nesvm {version}" "User Commands"',
        ".SH NAME",
        "nesvm \\- fast support vector machine training (NESVM, SSVM/NSSVM, GS\\-SVM, Hyperpass)",
        ".SH SYNOPSIS",
        ".B nesvm",
        ".I COMMAND",
        "[options] ...",
        ".SH DESCRIPTION",
        ".nf",
        esc(run("--help")),
        ".fi",
    ]
    for c in COMMANDS:
        page += [f".SH COMMAND: {c.upper()}", ".nf", esc(run(c, "--help")), ".fi"]
    page += [".SH TRAINING PARAMETERS",
             "Every training option of train and cv is a parameter of one table; an option "
             "the chosen solver, kernel or model does not use is accepted with a warning.",
             ""]
    for line in run("params", "--markdown").splitlines():
        m = re.match(r"^\| `([^`]+)` \| (.*?) \| `([^`]*)` \| (.*?) \| (.*?) \| (.*?) \|$", line)
        if not m:
            continue
        name, opt, default, valid, applies, meaning = m.groups()
        opt = opt.strip("`")
        page += [".TP", f"\\fB{esc(opt)}\\fR ({esc(name)}, default {esc(default)})",
                 esc(f"{meaning}. Valid: {valid}. Applies to: {applies}.")]
    page += [
        ".SH EXIT STATUS",
        "0 success; 1 an error (bad data, a bad model, a failed write); 2 a usage error; "
        "128+N killed by signal N after cleaning up (130 for Ctrl\\-C, 143 for SIGTERM).",
        ".SH FILES",
        "Data files are in the LIBSVM format (gzip accepted); model, scaling and checkpoint "
        "files are text, written atomically.",
        ".SH SEE ALSO",
        "svm\\-train(1), svm\\-scale(1), liblinear\\-train(1); the documentation in "
        "docs/cli.md, docs/format.md, docs/parameters.md and docs/errors.md of the source tree.",
    ]
    text = "\n".join(page) + "\n"
    if OUT == "-":
        sys.stdout.write(text)
    else:
        with open(OUT, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
