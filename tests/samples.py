"""The real Papers-with-Code samples the tests read, wherever a test module sits.

tests/data/pwc-archive-samples/ holds real Papers-with-Code material (data CC BY-SA 4.0, the
sota-extractor's code Apache-2.0, paperswithcode-go MIT; see the LICENSE files and README there),
copied from the project's shared samples so that a clone alone runs these tests (PWC_ARCHIVE_SAMPLES
points elsewhere, at a newer copy).
"""

import os
from pathlib import Path

SAMPLES = Path(
    os.environ.get("PWC_ARCHIVE_SAMPLES") or Path(__file__).resolve().parent / "data" / "pwc-archive-samples"
)
# The real methods dump: every description Papers with Code rendered.
METHODS_DUMP = SAMPLES / "methods" / "methods.json.gz"
