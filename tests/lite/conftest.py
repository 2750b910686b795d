"""The live edition's tests: the build's pieces (lite/, imported from the checkout) and the browser renderer."""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))      # `lite` is the build's package, not installed
