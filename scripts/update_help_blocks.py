#!/usr/bin/env python3
"""Replace the `--help` block after each "## `nesvm CMD`" heading of docs/cli.md
with the program's own output: scripts/update_help_blocks.py build/nesvm"""
import re
import subprocess
import sys

nesvm = sys.argv[1]
path = sys.argv[2] if len(sys.argv) > 2 else "docs/cli.md"
text = open(path).read()
out = []
pos = 0
for m in re.finditer(r"^## `nesvm (\w+)`\n", text, re.M):
    cmd = m.group(1)
    start = text.index("```\n", m.end())
    end = text.index("```\n", start + 4)
    helptext = subprocess.run([nesvm, cmd, "--help"], capture_output=True, text=True).stdout
    out.append(text[pos:start + 4])
    out.append(helptext)
    pos = end
out.append(text[pos:])
open(path, "w").write("".join(out))
