"""One code body in two places, for the tests of a code body's text (tests/web/test_code_text.py).

``OPEN`` (MIT, ``inline_ok``) gives its text, ``CLOSED`` (no licence, pointer only) does not;
``BARE`` is a body no place gives a text of. The text holds ``MARKER``, which no page, API
answer, feed or dump may carry for the closed place.
"""

import json

MARKER = "zqx_marker_7f3a"
CODE = (
    "def probe_routine(batch, scale=2.0):\n"
    '    """Scale every item of a batch; refuse an empty one."""\n'
    "    if not batch:\n"
    '        raise ValueError("empty batch")\n'
    f"    {MARKER} = [item * scale for item in batch]\n"
    f'    return {MARKER}, "</pre><script>alert(1)</script>"\n'
)
SHA = "c0debeef00000001"
BARE_SHA = "c0debeef00000002"  # a body no place gives a text of


def place(n: int, repo: str, inline_ok: bool, sha: str = SHA, **more) -> dict:
    return {
        "arxiv_id": f"2401.0000{n}",
        "paper": f"/paper/paper-{n}",
        "title": f"Paper {n}",
        "repo": repo,
        "path": "src/probe.py",
        "file_url": f"https://github.com/{repo}/blob/HEAD/src/probe.py",
        "status": "unverified",
        "licence": "MIT" if inline_ok else "NONE",
        "inline_ok": inline_ok,
        "code_sha256_prefix": sha,
        "mcp_get_code": {"code_sha256": sha},
        **more,
    }


def entry_document(samples, read_at="2026-09-24T18:15:14+00:00", entry="probe_routine") -> dict:
    return {"url": f"/code/{entry.replace('_', '-')}", "entry": entry, "read_at": read_at, "samples": samples}


def write(tmp_path, name: str, doc: dict):
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return path


OPEN = place(1, "alice/open-repo", True, code=CODE, language="python")
CLOSED = place(2, "bob/closed-repo", False)
BARE = place(3, "carol/bare-repo", True, sha=BARE_SHA)
