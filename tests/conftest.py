"""Makes tests/ importable, so test files share `support` (generic helpers) and `games`.

pytest's default import mode already puts this folder on sys.path (tests/ is not a
package); saying it here keeps `from support import ...` working under any import mode.
"""
import sys
from pathlib import Path

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)
