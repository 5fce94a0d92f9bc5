#!/usr/bin/env python3
"""Per-package and per-class PIT scores from service/target/pit-reports/mutations.xml (killed and timed out
count as detected; the score here is detected / all mutants, before equivalent ones are set aside)."""
import collections
import sys
import xml.etree.ElementTree as ET

path = sys.argv[1] if len(sys.argv) > 1 else "service/target/pit-reports/mutations.xml"
by_package = collections.defaultdict(collections.Counter)
by_class = collections.defaultdict(collections.Counter)
survivors = []
for m in ET.parse(path).getroot():
    cls = m.findtext("mutatedClass")
    outer = cls.split("$")[0]
    package = outer.rsplit(".", 1)[0]
    status = m.get("status")
    by_package[package][status] += 1
    by_class[outer][status] += 1
    if status in ("SURVIVED", "NO_COVERAGE"):
        survivors.append((outer, m.findtext("lineNumber"), m.findtext("mutatedMethod"), status,
                          m.findtext("description")))

def line(name, c):
    total = sum(c.values())
    detected = c["KILLED"] + c["TIMED_OUT"] + c["MEMORY_ERROR"] + c["RUN_ERROR"]
    print(f"{name:60} {detected:4}/{total:<4} {100.0 * detected / total:5.1f}%  "
          + " ".join(f"{k.lower()}={v}" for k, v in sorted(c.items())))

print("== packages")
for p in sorted(by_package):
    line(p, by_package[p])
print("== classes")
for c in sorted(by_class):
    line(c, by_class[c])
if "-v" in sys.argv:
    print("== survivors")
    for s in sorted(survivors, key=lambda s: (s[0], int(s[1]))):
        print(f"{s[0]}:{s[1]} {s[2]} {s[3]} {s[4]}")
