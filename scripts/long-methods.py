#!/usr/bin/env python3
"""Lists methods and constructors in main code longer than a limit (default 60 lines), longest first.

    python3 scripts/long-methods.py [limit] [root...]   (default: every module's main code)

A method is counted from its signature line to its closing brace, comments and blank lines included.
Brace matching skips strings, text blocks, char literals and comments, which is enough for this
codebase's formatting (palantir-java-format).
"""
import os
import re
import sys

limit = int(sys.argv[1]) if len(sys.argv) > 1 else 60
roots = sys.argv[2:] or [p for p in ("service/src/main/java", "evaluator/src/main/java") if os.path.isdir(p)]
SIGNATURE = re.compile(
    r"^\s+(?:(?:public|protected|private|static|final|synchronized|default|abstract)\s+)*"
    r"(?:<[^>]+>\s+)?[\w.<>\[\], ?]+\s+(\w+)\s*\([^;]*$|^\s+(?:public|protected|private)\s+(\w+)\s*\(")


def strip(line, state):
    """The line with strings, chars and comments blanked; state carries block comments/text blocks."""
    out, i = [], 0
    while i < len(line):
        if state["block"]:
            end = line.find("*/", i)
            if end < 0:
                return "".join(out), state
            state["block"], i = False, end + 2
        elif state["text"]:
            end = line.find('"""', i)
            if end < 0:
                return "".join(out), state
            state["text"], i = False, end + 3
        elif line.startswith("/*", i):
            state["block"], i = True, i + 2
        elif line.startswith("//", i):
            break
        elif line.startswith('"""', i):
            state["text"], i = True, i + 3
        elif line[i] in "\"'":
            quote, i = line[i], i + 1
            while i < len(line) and line[i] != quote:
                i += 2 if line[i] == "\\" else 1
            i += 1
        else:
            out.append(line[i])
            i += 1
    return "".join(out), state


found = []
for folder, _, files in (walked for root in roots for walked in os.walk(root)):
    for name in files:
        if not name.endswith(".java"):
            continue
        path = os.path.join(folder, name)
        lines = open(path, encoding="utf-8").read().split("\n")
        state = {"block": False, "text": False}
        code = []
        for line in lines:
            stripped, state = strip(line, state)
            code.append(stripped)
        i = 0
        while i < len(code):
            m = SIGNATURE.match(code[i])
            if m and not re.match(r"^\s+(if|for|while|switch|catch|return|new|else)\b", code[i]):
                depth, started, j = 0, False, i
                while j < len(code):
                    depth += code[j].count("{") - code[j].count("}")
                    started |= "{" in code[j]
                    if ";" in code[j] and not started:
                        break
                    if started and depth <= 0:
                        break
                    j += 1
                if started:
                    length = j - i + 1
                    if length > limit:
                        found.append((length, path, i + 1, m.group(1) or m.group(2)))
                    i = j + 1 if length > 2 and depth <= 0 and code[i].startswith("    ") and not code[i].startswith("     ") else i + 1
                    continue
            i += 1
for length, path, line, method in sorted(found, reverse=True):
    print(f"{length:4d}  {path}:{line}  {method}")
print(f"{len(found)} methods over {limit} lines", file=sys.stderr)
