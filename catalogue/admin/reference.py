"""Everything else the snapshots bring, read-only, with links to the rows that use it."""

from django.contrib import admin
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from catalogue import figures
from catalogue.admin.base import ReadOnlyAdmin, changelist_link
from catalogue.admin.papers import figures_table
from catalogue.models import (
    CodeBody,
    CodeEntry,
    CodeLink,
    Dataset,
    Leaderboard,
    LoadRun,
    LoadRunFile,
    Method,
    Repo,
    Result,
    Sample,
    SourceDocument,
    Task,
)


@admin.register(CodeEntry)
class CodeEntryAdmin(ReadOnlyAdmin):
    list_display = ["name", "slug", "samples_link"]
    search_fields = ["name"]
    fields = ["name", "slug", "claim", "figures", "samples_link", "document", "stamp"]
    ordering = ["name"]

    @admin.display(description="samples")
    def samples_link(self, entry):
        return changelist_link(Sample, "samples →", entry__id__exact=entry.pk)

    @admin.display(description="figures (live, curated statuses included)")
    def figures(self, entry):
        return figures_table(figures.code_entry_figures(entry))


@admin.register(CodeBody)
class CodeBodyAdmin(ReadOnlyAdmin):
    list_display = ["sha256_prefix", "samples_link"]
    search_fields = ["^sha256_prefix"]
    fields = ["sha256_prefix", "samples_link", "code_language", "code", "code_document", "code_stamp"]

    @admin.display(description="samples")
    def samples_link(self, body):
        return changelist_link(Sample, "places →", body__id__exact=body.pk)


@admin.register(Repo)
class RepoAdmin(ReadOnlyAdmin):
    list_display = ["key", "host", "owner", "name", "spdx", "reach_status", "samples_link"]
    list_filter = ["host"]
    search_fields = ["key", "owner", "name"]
    search_help_text = "Repository as host/owner/name, or owner, or name (any part)."
    fields = ["key", "host", "owner", "name", "spdx", "reach_status", "samples_link", "document", "stamp"]
    ordering = ["key"]

    @admin.display(description="samples")
    def samples_link(self, repo):
        return changelist_link(Sample, "samples →", repo__id__exact=repo.pk)


@admin.register(CodeLink)
class CodeLinkAdmin(ReadOnlyAdmin):
    list_display = ["repo_url", "paper", "repo", "is_official", "framework"]
    list_select_related = ["paper", "repo"]
    list_filter = ["is_official", "mentioned_in_paper"]
    search_fields = ["repo_url", "paper__arxiv_id"]
    fields = [
        "paper",
        "repo",
        "repo_url",
        "sub_path",
        "is_official",
        "mentioned_in_paper",
        "mentioned_in_github",
        "framework",
        "document",
        "stamp",
    ]


@admin.register(Task)
class TaskAdmin(ReadOnlyAdmin):
    list_display = ["name", "slug"]
    search_fields = ["name", "slug"]
    fields = ["name", "slug", "document", "stamp"]


@admin.register(Method)
class MethodAdmin(ReadOnlyAdmin):
    list_display = ["name", "full_name", "slug"]
    search_fields = ["name", "full_name", "slug"]
    fields = ["name", "full_name", "slug", "document", "stamp"]


@admin.register(Dataset)
class DatasetAdmin(ReadOnlyAdmin):
    list_display = ["name"]
    search_fields = ["name"]
    fields = ["name"]


@admin.register(Leaderboard)
class LeaderboardAdmin(ReadOnlyAdmin):
    list_display = ["slug", "task", "dataset"]
    list_select_related = ["task", "dataset"]
    search_fields = ["slug"]
    fields = ["slug", "task", "dataset", "document", "stamp"]


@admin.register(Result)
class ResultAdmin(ReadOnlyAdmin):
    list_display = ["model", "paper", "leaderboard", "rank_in_archive_order", "of"]
    list_select_related = ["paper", "leaderboard"]
    search_fields = ["model", "paper__arxiv_id", "leaderboard__slug"]
    fields = [
        "paper",
        "leaderboard",
        "model",
        "rank_in_archive_order",
        "of",
        "metrics",
        "uses_additional_data",
        "document",
        "stamp",
    ]


@admin.register(SourceDocument)
class SourceDocumentAdmin(ReadOnlyAdmin):
    list_display = ["url", "kind", "file_name", "read_at", "last_load"]
    list_select_related = ["last_load"]
    list_filter = ["kind"]
    search_fields = ["url", "file_name"]
    fields = ["url", "kind", "file_name", "sha256", "read_at", "stamp", "last_load", "source", "about"]


@admin.register(LoadRun)
class LoadRunAdmin(ReadOnlyAdmin):
    list_display = ["started_at", "finished_at", "outcome"]
    list_filter = ["outcome"]
    fields = ["started_at", "finished_at", "outcome", "counts", "files_read", "warnings", "error"]
    # A load of the whole archive reads 575,000 files: the change page shows the first
    # FILES_SHOWN and links to all of them (``LoadRunFileAdmin``, filtered to the run).
    FILES_SHOWN = 200

    @admin.display(description="files")
    def files_read(self, run):
        summary = run.files_summary or {}
        n_files = summary.get("n_files", 0)
        by_status = ", ".join(f"{n:,} {status}" for status, n in sorted(summary.get("by_status", {}).items()))
        rows = list(run.files.values_list("status", "path", "sha256")[: self.FILES_SHOWN])
        kept = bool(rows) or not n_files
        if not kept:  # an older run's rows are pruned (LOAD_FILE_LISTS_KEPT): its summary's few remain
            rows = [(f["status"] or "", f["path"] or "", f["sha256"] or "") for f in summary.get("shown", [])]
        head = [f"{status}: {path} {sha256[:16]}" for status, path, sha256 in rows]
        more = [f"… and {n_files - len(rows):,} more"] if n_files > len(rows) else []
        lines = [f"{n_files:,} files ({by_status})", *head, *more]
        listed = format_html_join(mark_safe("<br>"), "{}", ((line,) for line in lines))
        if not kept:
            # No number here: the setting is the loading process's, which need not be this one's.
            return format_html(
                "{}<br>({})", listed, "the file-by-file list was pruned: only the newest loads keep theirs"
            )
        every = changelist_link(LoadRunFile, f"all {n_files:,} files →", run__id__exact=run.pk)
        return format_html("{}<br>{}", listed, every)


@admin.register(LoadRunFile)
class LoadRunFileAdmin(ReadOnlyAdmin):
    """Every file of every run, to find the ones skipped or in error among a whole archive's."""

    list_display = ["run", "seq", "path", "status", "url"]
    list_select_related = ["run"]
    list_filter = ["status", "run"]
    search_fields = ["path", "url"]
    fields = ["run", "seq", "path", "sha256", "url", "status", "error"]
    # The model's order, its (run, seq) index's: newest run first with each run's files in order
    # could not walk it, and would sort every file for each page.
