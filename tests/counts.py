"""The stored counts (catalogue.counters) checked against the figures they copy."""

from catalogue.figures import code_entry_figures, paper_figures
from catalogue.models import CodeEntry, Paper


def assert_counts_agree():
    for entry in CodeEntry.objects.all():
        figures = code_entry_figures(entry)
        assert (entry.n_places, entry.n_papers, entry.n_samples_ran) == (
            figures.n_places,
            figures.n_papers,
            figures.n_samples_ran,
        ), entry.name
    for paper in Paper.objects.all():
        assert paper.n_samples == paper_figures(paper).samples.n_samples, paper.slug
