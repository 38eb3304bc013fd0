#!/usr/bin/env python3
"""Refuses a literal date within two years of today, before or after, in the tests that run on the real clock.

A test that writes `"expiryDate": "2026-12-15"` passes until that day and fails after it, and CI with it. The tests
that see the real clock are the integration tests: `tests/` and every crate's `tests/` folder (the black-box,
binary, handler and adapter tests), and the test-support crates of `crates/dev/`. A date there is either relative to the clock (computed at run time) or at
least two years away from today, so that this check names it long before it turns. Unit tests inside `src/` run
on the fixed clocks of `canvass_domain::testing` (`NOW`, `At`) and are not read.

    scripts/dated-tests.py [ROOT]   exits 1 and lists each date it refuses
"""
import datetime
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
today = datetime.date.today()
years = 2
low = (today.year - years, today.month, today.day)
high = (today.year + years, today.month, today.day)
# `2026-12-15` in a string, and `date!(2026 - 12 - 15)` as rustfmt spaces it in the `time` crate's macros.
date = re.compile(r"(?<![0-9])((?:19|20)\d\d) ?- ?(\d\d) ?- ?(\d\d)(?![0-9])")

# The test-support crates under crates/dev/ (the test kit, the sinks, the test databases) run on the real clock too.
folders = [root / "tests"] + sorted(p for p in root.glob("crates/**/tests") if "src" not in p.relative_to(root).parts)
folders += sorted(root.glob("crates/dev/*/src"))
refused = []
for folder in folders:
    for path in sorted(folder.rglob("*.rs")):
        if "target" in path.parts:
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            for found in date.finditer(line):
                key = tuple(int(part) for part in found.groups())
                if low <= key <= high:
                    refused.append(f"{path.relative_to(root)}:{number}: {found.group(0)}")
if refused:
    print(f"dates within {years} years of {today} in tests (make them relative to the clock or far away):")
    print("\n".join(refused))
    sys.exit(1)
