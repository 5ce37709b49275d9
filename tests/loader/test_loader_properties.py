"""Property tests: whatever JSON arrives, load_snapshot ends in success or a clean error.

A clean error names the file (and the field, where one is to blame), never a traceback,
and leaves the database exactly as it was.
"""

import copy
import json
import random

import pytest
from django.core.management.base import CommandError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import SEEDS, load
from tests.dump import catalogue_state

# Each load commits or rolls back on its own, as in production. Inside one test transaction
# the examples' loads would pile up: PostgreSQL keeps the locks of every temporary staging
# and merge table until the outer transaction ends (about 960 a load), and 60 loads overflow
# its shared lock table ("out of shared memory").
pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

PROPERTY_SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=40)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=12), inner, max_size=6),
    max_leaves=25,
)


def _load_and_judge(path):
    before = catalogue_state()
    try:
        load(path)
    except CommandError as error:
        message = str(error)
        assert message.startswith(path.name + ": "), message
        assert "Traceback" not in message
        assert catalogue_state() == before
        return "rejected"
    return "loaded"


@PROPERTY_SETTINGS
@given(value=json_values)
def test_arbitrary_json_is_loaded_or_cleanly_rejected(loaded_seeds, tmp_path_factory, value):
    path = tmp_path_factory.mktemp("any") / "doc.json"
    path.write_text(json.dumps(value))
    _load_and_judge(path)


def _mutations(doc, rng: random.Random, replacement):
    """Change one field somewhere inside ``doc``: drop it, or give it another value."""
    target = doc
    while True:
        if isinstance(target, dict) and target:
            key = rng.choice(sorted(target))
        elif isinstance(target, list) and target:
            key = rng.randrange(len(target))
        else:
            return
        if isinstance(target[key], (dict, list)) and target[key] and rng.random() < 0.7:
            target = target[key]
            continue
        if isinstance(target, dict) and rng.random() < 0.3:
            del target[key]
        else:
            target[key] = replacement
        return


@PROPERTY_SETTINGS
@given(
    seed_index=st.integers(0, len(SEEDS) - 1),
    choice_seed=st.integers(0, 2**32),
    replacement=json_values,
    n_changes=st.integers(1, 3),
)
def test_near_valid_documents_are_loaded_or_cleanly_rejected(
    loaded_seeds, tmp_path_factory, seed_index, choice_seed, replacement, n_changes
):
    doc = json.loads(SEEDS[seed_index].read_text())
    rng = random.Random(choice_seed)
    for _ in range(n_changes):
        _mutations(doc, rng, copy.deepcopy(replacement))
    path = tmp_path_factory.mktemp("near") / SEEDS[seed_index].name
    path.write_text(json.dumps(doc))
    _load_and_judge(path)


# --- archive dumps (issue 34): generated records, and raw oddities in their text --------------

PAPER_RECORD = {
    "paper_url": "https://paperswithcode.com/paper/a-paper",
    "arxiv_id": "2001.00001",
    "title": "A paper",
    "abstract": "An abstract.",
    "authors": ["Ada"],
    "tasks": ["Image Classification"],
    "methods": [{"name": "ResNet", "full_name": "Residual Network"}],
    "date": "2020-01-02",
}
# Raw JSON text put where a generated value says "@raw@": what json.dumps cannot write.
RAW_TOKENS = [
    b"NaN",
    b"-Infinity",
    b"1e400",
    b"123456789012345678901234567890",
    b"[" * 600 + b"]" * 600,
    b"[" * 100_000 + b"]" * 100_000,
    b'{"a": 1, "a": 2}',
    b'"\\u0000"',
    b'"\\ud800"',
    b'"\xed\xa0\x80"',  # a surrogate, encoded: not UTF-8
    b'"  "',
]
dump_records = st.lists(
    st.builds(
        lambda key, value: {**PAPER_RECORD, key: value},
        st.sampled_from([*sorted(PAPER_RECORD), "extra"]),
        json_values | st.just("@raw@"),
    )
    | st.dictionaries(st.text(max_size=12), json_values, max_size=6),
    max_size=4,
)


@PROPERTY_SETTINGS
@given(records=dump_records, raw=st.sampled_from(RAW_TOKENS), bom=st.booleans())
def test_generated_dump_records_are_loaded_or_cleanly_rejected(
    loaded_seeds, tmp_path_factory, records, raw, bom
):
    text = json.dumps(records).encode().replace(b'"@raw@"', raw)
    path = tmp_path_factory.mktemp("dump") / "papers-with-abstracts.json"
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + text)
    _load_and_judge(path)


@PROPERTY_SETTINGS
@given(records=dump_records)
def test_generated_parquet_dump_records_are_loaded_or_cleanly_rejected(
    loaded_seeds, tmp_path_factory, records
):
    import pyarrow as pa
    import pyarrow.parquet as pq
    from hypothesis import assume

    try:
        table = pa.Table.from_pylist([r for r in records if r])
    except (pa.ArrowException, TypeError, ValueError, OverflowError):
        assume(False)  # not a table Parquet can hold: nothing to load
    path = tmp_path_factory.mktemp("dump") / "papers-with-abstracts.parquet"
    try:
        pq.write_table(table, path)
    except pa.ArrowException:
        assume(False)
    _load_and_judge(path)
