"""Fixed texts copied verbatim from the real seed documents (/work/shared/seeds).

The generator must emit them unchanged so that synthetic documents are indistinguishable
from real ones in everything but the data; check_generated.py compares ``ABOUT`` with the
seeds again.
"""

ABOUT = {
    "site": "https://codewithpapers.app",
    "non_affiliation": "Code with Papers and Syntology are not affiliated with, endorsed by, "
    "or sponsored by Papers with Code, Meta, or the pwc-archive mirror.",
    "licence": "CC BY-SA 4.0",
    "licence_url": "https://creativecommons.org/licenses/by-sa/4.0/legalcode",
    "attribution": "https://codewithpapers.app/attribution",
    "modified": "archive material modified by Syntology; see the attribution page",
}

CODE_SOURCE = "Syntology graph, per-sample; not an archive number"

CODE_READ_AT = "2026-09-24T18:15:14+00:00"

CODE_CLAIM = (
    "Names are grouped by exact entry-name string. Same-named routines are NOT asserted to be "
    "equivalent; 'ran' means executed on a synthesized fixture, not correctness. "
    "n_samples_ran = sum of by_status over every status except 'unverified' (ran_draft_wrong "
    "and ran_fixture are failures of Syntology's instrument, not of the code); n_papers_ran = "
    "papers with at least one such sample."
)

STATUS_VOCABULARY = {
    "ran_honours": "ran, honoured the contract we drafted",
    "ran_violates": "ran, violated the contract we drafted",
    "ran_draft_wrong": "ran; our contract draft was wrong, not the code",
    "ran_fixture": "ran; our fixture could not drive it",
    "ran": "ran on a synthesized input",
    "unverified": "unverified (harvested, no recorded run)",
}

UNITS = (
    "n_samples, n_samples_ran, n_samples_fingerprinted and by_status count distinct code "
    "bodies (code_sha256); n_places and n_places_pointer_only count places, one per (paper, "
    "code body) pair, which is also the unit of the samples list"
)

CODE_SYNTOLOGY = {
    "atlas_url": None,
    "mcp": None,
    "mcp_per_sample": {"tool": "get_code", "arguments_in": "samples[].mcp_get_code"},
    "developers": "https://syntology.ai/developers",
}

PAPER_SOURCE = {
    "archive": "pwc-archive (Hugging Face), CC BY-SA 4.0",
    "snapshot": "2025-07-28",
    "licence_url": "https://creativecommons.org/licenses/by-sa/4.0/legalcode",
    "row_kind": "abstracts",
}

PAPER_READ_AT = "2026-09-25T09:33:49+00:00"

PAPER_READ_AT_IS = "when the build read Syntology's graph, not when any sample ran"

PAPER_CLAIM = (
    "Per-sample execution status on synthesized fixtures; not a correctness claim about the "
    "paper. Samples come from repositories linked to the paper, official or community; "
    "repo_kind says which."
)

REPO_KIND_VOCABULARY = {
    "official": "The archive marks this repository official for the paper",
    "named_in_paper": "The archive records that the paper mentions this repository; it is not "
    "marked official",
    "listed": "In the archive's code links for this paper, not marked official and not "
    "recorded as mentioned in the paper",
    "found_in_text": "Syntology found this repository in the paper's own text; whether it is "
    "the authors' implementation is not asserted",
    "community": "Not in the archive's code links for this paper; a community repository Syntology harvested",
}

DEVELOPERS = "https://syntology.ai/developers"
