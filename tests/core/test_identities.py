import pytest

from catalogue import identities


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("1902.10197v1", "1902.10197"),
        ("1902.10197", "1902.10197"),
        ("2510.16415v12", "2510.16415"),
        ("0704.0001", "0704.0001"),
        ("cs/9301114", "cs/9301114"),
        ("math.GT/0309136v2", "math.GT/0309136"),
        (" 1811.06965 ", "1811.06965"),
        ("not-an-id", None),
        ("1811.069", None),
    ],
)
def test_arxiv_ids_drop_their_version(raw, expected):
    assert identities.normalize_arxiv_id(raw) == expected


@pytest.mark.parametrize(
    ("arxiv_id", "month"),
    [
        ("2510.16415", "2025-10"),
        ("cs/9301114", "1993-01"),
        ("0704.0001", "2007-04"),
        ("1913.00001", None),
        (None, None),
    ],
)
def test_month_inferred_from_arxiv_id(arxiv_id, month):
    assert identities.month_from_arxiv_id(arxiv_id) == month


def test_arxiv_slug_round_trip():
    assert identities.arxiv_slug("2510.16415") == "arxiv-2510-16415"
    assert identities.arxiv_id_from_slug("arxiv-2510-16415") == "2510.16415"
    assert identities.arxiv_id_from_slug("gpipe") is None


@pytest.mark.parametrize(
    ("value", "key", "sub_path"),
    [
        ("NVIDIA/Megatron-LM", "github.com/nvidia/megatron-lm", ""),
        (
            "https://github.com/PaddlePaddle/FleetX/tree/develop/examples/pipeline",
            "github.com/paddlepaddle/fleetx",
            "tree/develop/examples/pipeline",
        ),
        ("https://github.com/a/b.git", "github.com/a/b", ""),
        ("https://github.com/a/b%20", "github.com/a/b", ""),
        ("https://www.github.com/A/B/blob/main/x.py", "github.com/a/b", "blob/main/x.py"),
        ("https://gitlab.com/Group/Proj", "gitlab.com/group/proj", ""),
        ("https://github.com/a/my%20repo", None, None),
        ("javascript:alert(1)//a/b", None, None),
        ("https://github.com/onlyowner", None, None),
    ],
)
def test_repositories_are_host_owner_name_case_insensitive(value, key, sub_path):
    ref = identities.parse_repo(value)
    if key is None:
        assert ref is None
    else:
        assert (ref.key, ref.sub_path) == (key, sub_path)


def test_entry_slugs_never_collide():
    assert identities.entry_slug("forward_step_func") == "forward-step-func"
    assert identities.entry_slug("alexnet") == "alexnet"
    names = ["__init__", "init", "_init", "Forward", "forward", "forward_"]
    slugs = [identities.entry_slug(n) for n in names]
    assert len(set(slugs)) == len(names)
    assert identities.entry_slug("init") == "init"
