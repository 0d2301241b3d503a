"""Makes tests/ importable, so test files share `support` (generic helpers) and `games`;
and makes the property tests reproducible.

pytest's default import mode already puts this folder on sys.path (tests/ is not a
package); saying it here keeps `from support import ...` working under any import mode.

Hypothesis draws the same examples on every run by default (`derandomize`), so a run of
the suite on a clean checkout is the same run everywhere and a failure reproduces as it is.
`LUMOS_HYPOTHESIS=explore pytest ...` draws fresh examples each run (and keeps failures in
Hypothesis's example database) to look for new counterexamples.
"""
import os
import sys
from pathlib import Path

from hypothesis import settings

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)

settings.register_profile("reproducible", derandomize=True, database=None)
settings.register_profile("explore")
settings.load_profile("explore" if os.environ.get("LUMOS_HYPOTHESIS") == "explore" else "reproducible")
