#!/usr/bin/env python3
"""Refuses a migration folder that breaks the naming scheme of migrations/README.md.

From 000029 on, a folder is `YYYY-MM-DD-NNNNNN_what_it_does`: the date it was written and its number in one
sequence, one more than the migration before it, so that the versions (the name before `_`, dashes removed) sort
in the order the migrations were written. Five older folders carry a time-like number from before the rule and
are left as they were applied.
"""
import pathlib
import re
import sys

LEGACY = {"2026-11-27-144100", "2026-11-27-144200", "2026-11-27-144300", "2026-11-28-370800", "2026-11-28-370801"}
FIRST = 29
name = re.compile(r"^(\d{4}-\d{2}-\d{2})-(\d{6})_[a-z0-9_]+$")

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "migrations")
folders = sorted(p.name for p in root.iterdir() if p.is_dir())
problems = []
expected = None
for folder in folders:
    match = name.match(folder)
    if not match:
        problems.append(f"{folder}: not YYYY-MM-DD-NNNNNN_what_it_does (lower case, digits, underscores)")
        continue
    stem, number = f"{match.group(1)}-{match.group(2)}", int(match.group(2))
    if stem in LEGACY:
        continue
    if expected is not None and number != expected:
        problems.append(f"{folder}: number {number:06d}, expected {expected:06d} (one more than the one before)")
    if number >= FIRST - 1:
        expected = number + 1
if problems:
    print("migration folders that break the naming scheme (migrations/README.md, \"Naming\"):")
    print("\n".join(problems))
    sys.exit(1)
