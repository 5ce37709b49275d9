"""catalogue/browse/: /sota/, /area/<slug>, /tasks/, /datasets/, /dataset/<slug>, and the task tree.

Authors and proceedings are in test_browse_authors.py, methods in test_browse_methods.py.
"""

import datetime as dt

import pytest

from catalogue import counters, reads
from catalogue import models as m
from tests.factories import make_dataset, make_leaderboard, make_paper, make_result, make_task
from tests.pages import html
from tests.web.browsing import PROBE, assert_queries_do_not_grow, in_area, make_area

pytestmark = pytest.mark.django_db


def test_sota_lists_areas_with_their_tasks_most_leaderboards_first_then_tasks_in_no_area(client):
    vision = make_area("computer-vision", "Computer Vision")
    segmentation = in_area(make_task(slug="segmentation", name="Segmentation"), vision)
    detection = in_area(make_task(slug="detection", name="Detection"), vision)
    make_task(slug="lonely", name="Lonely task")
    for _ in range(2):
        make_leaderboard(task=detection)
    make_leaderboard(task=segmentation)
    make_paper().tasks.add(segmentation)
    counters.refresh()  # as every load ends: the task counts are stored
    index = reads.taxonomy.sota_index()
    assert [(a.slug, [t.slug for t in a.tasks], a.n_leaderboards) for a in index] == [
        ("computer-vision", ["detection", "segmentation"], 3),
        (reads.taxonomy.NO_AREA, ["lonely"], 0),
    ]
    page = html(client, "/sota/")
    assert "Computer Vision" in page
    assert "3 leaderboards" in page
    assert (
        '<a href="/task/detection">Detection</a> <span class="muted small">2 leaderboards, 0 papers</span>'
        in page
    )
    segmentation_row = '<a href="/task/segmentation">Segmentation</a> <span class="muted small">'
    assert segmentation_row + "1 leaderboard, 1 paper</span>" in page
    assert '<a href="/area/tasks-in-no-area">Other tasks</a>' in page


def test_an_area_page_lists_all_its_tasks_and_an_unknown_area_is_404(client):
    vision = make_area("computer-vision", "Computer Vision")
    for n in range(reads.taxonomy.AREA_TASKS_SHOWN + 3):
        in_area(make_task(slug=f"task-{n:02d}", name=f"Task {n:02d}"), vision)
    sota = html(client, "/sota/")
    assert sota.count('href="/task/task-') == reads.taxonomy.AREA_TASKS_SHOWN
    assert "All 15 tasks in Computer Vision" in sota
    page = html(client, "/area/computer-vision")
    assert page.count('href="/task/task-') == 15
    html(client, "/area/no-such-area", status=404)
    empty = make_area("empty", "Empty area")
    assert "No tasks in this area." in html(client, empty.get_absolute_url())


def test_an_area_page_pages_its_tasks_by_stored_counts_and_sums_all_of_them(client):
    vision = make_area("computer-vision", "Computer Vision")
    tasks = [in_area(make_task(slug=f"task-{n:02d}", name=f"Task {n:02d}"), vision) for n in range(30)]
    make_leaderboard(task=tasks[29])
    for _ in range(2):
        make_paper().tasks.add(tasks[28])
    counters.refresh()
    first = html(client, "/area/computer-vision")
    assert "30 tasks" in first  # the totals are the whole area's, not the page's
    assert "1 leaderboard" in first
    assert first.count('href="/task/task-') == 25
    # most leaderboards, then most papers, then by slug
    assert first.index("/task/task-29") < first.index("/task/task-28") < first.index("/task/task-00")
    page = reads.taxonomy.area_page("computer-vision")
    second = reads.taxonomy.area_page("computer-vision", after=page.tasks.next_cursor)
    assert [t.slug for t in second.tasks.items] == [f"task-{n:02d}" for n in range(23, 28)]
    assert 'rel="next"' in first


def test_the_task_list_searches_and_sorts_by_papers_leaderboards_or_name(client):
    busy, quiet = make_task(slug="busy", name="Busy task"), make_task(slug="quiet", name="Quiet task")
    for _ in range(3):
        make_paper().tasks.add(quiet)
    make_leaderboard(task=busy)
    counters.refresh()
    by_papers = [t.slug for t in reads.taxonomy.tasks_page("", "papers").items]
    by_boards = [t.slug for t in reads.taxonomy.tasks_page("", "leaderboards").items]
    assert by_papers[:2] == ["quiet", "busy"]
    assert by_boards[:2] == ["busy", "quiet"]
    assert [t.slug for t in reads.taxonomy.tasks_page("QUIET", "name").items] == ["quiet"]
    page = html(client, "/tasks/?q=quiet")
    assert '<a href="/task/quiet">Quiet task</a>' in page
    assert "Busy task" not in page
    assert '<td class="num">3</td>' in page


def test_the_task_list_walks_every_task_once_by_keyset_pages(client):
    for n in range(60):
        make_task(slug=f"t-{n:02d}", name=f"T {n:02d}")
    seen, page = [], reads.taxonomy.tasks_page("", "name")
    while True:
        seen += [t.slug for t in page.items]
        if not page.next_cursor:
            break
        page = reads.taxonomy.tasks_page("", "name", after=page.next_cursor)
    assert seen == sorted(seen)
    assert len(seen) == len(set(seen)) == m.Task.objects.count()


def test_a_task_page_shows_its_place_in_the_tree_its_datasets_and_leaderboards(client):
    vision = make_area("computer-vision", "Computer Vision")
    root = in_area(make_task(slug="segmentation", name="Segmentation"), vision)
    middle = make_task(slug="semantic-segmentation", name="Semantic Segmentation", parent=root)
    leaf = make_task(slug="real-time-semantic", name="Real-time Semantic", parent=middle)
    cityscapes = make_dataset(slug="cityscapes", name="Cityscapes")
    listed = make_dataset(slug="ade20k", name="ADE20K")
    listed.tasks.add(middle)
    make_leaderboard(task=middle, dataset=cityscapes)
    page = html(client, middle.get_absolute_url())
    area_crumb = '<a href="/area/computer-vision">Computer Vision</a>'
    assert area_crumb + ' › <a href="/task/segmentation">Segmentation</a> › Task' in page
    assert '<a class="chip" href="/task/real-time-semantic">Real-time Semantic</a>' in page
    assert '<a class="chip" href="/dataset/ade20k">ADE20K</a>' in page
    assert '<a class="chip" href="/dataset/cityscapes">Cityscapes</a>' in page
    assert "Semantic Segmentation on Cityscapes" in page
    assert reads.taxonomy.task_tree(leaf).ancestors == [root, middle]


def _boards_with_results(n, **owner):
    """``n`` boards of one task or dataset, board i with i + 1 results, counted as a load counts."""
    boards = []
    for i in range(n):
        board = make_leaderboard(**owner)
        for k in range(i + 1):
            make_result(leaderboard=board, model=f"m{k}")
        boards.append(board)
    counters.refresh(entry_ids=[], paper_ids=[], loaded=True)
    return boards[::-1]  # most results first


@pytest.mark.parametrize("owner", ["task", "dataset"])
def test_a_task_or_dataset_page_shows_its_busiest_boards_and_links_all_of_them_a_page_at_a_time(
    client, monkeypatch, owner
):
    monkeypatch.setattr(reads.leaderboards, "BOARDS_SHOWN", 3)
    made = (
        make_task(slug="owner", name="Owner") if owner == "task" else make_dataset(slug="owner", name="Owner")
    )
    boards = _boards_with_results(30, **{owner: made})
    page = html(client, made.get_absolute_url())
    shown = [b for b in boards if f'<a href="{b.get_absolute_url()}">' in page]
    assert shown == boards[:3]
    assert "30 results" in page
    assert "28 results" in page
    assert "27 results" not in page
    everything = f"/{owner}/owner/leaderboards"
    link = "of" if owner == "task" else "on"
    assert f'<a href="{everything}">All 30 leaderboards {link} Owner</a>' in page
    # the full list: most results first, 25 a page, every board once
    seen, address = [], everything
    while address:
        listed = html(client, address)
        seen += [b for b in boards if f'<a href="{b.get_absolute_url()}">' in listed]
        after = listed.split('rel="next" href="')[1].split('"')[0] if 'rel="next"' in listed else None
        address = everything + after.replace("&amp;", "&") if after else None  # "?after=…"
    assert seen == boards
    html(client, f"/{owner}/no-such-{owner}/leaderboards", status=404)


def test_a_task_page_bounds_its_subtasks_and_datasets_and_links_the_rest(client, monkeypatch):
    monkeypatch.setattr(reads.taxonomy, "SUBTASKS_SHOWN", 2)
    monkeypatch.setattr(reads.taxonomy, "DATASETS_SHOWN", 2)
    parent = make_task(slug="parent", name="Parent")
    children = [make_task(slug=f"child-{i}", name=f"Child {i}", parent=parent) for i in range(3)]
    make_task(slug="elsewhere", name="Elsewhere")
    for i in range(3):
        make_dataset(slug=f"data-{i}", name=f"Data {i}").tasks.add(parent)
    page = html(client, parent.get_absolute_url())
    assert [c.slug for c in children if f'href="/task/{c.slug}"' in page] == ["child-0", "child-1"]
    assert '<a href="/tasks/?parent=parent">All subtasks of Parent</a>' in page
    assert '<a href="/datasets/?task=parent">All datasets of Parent</a>' in page
    subtasks = html(client, "/tasks/?parent=parent&sort=name")
    assert "<h1>Subtasks of Parent</h1>" in subtasks
    assert all(f'href="/task/{c.slug}"' in subtasks for c in children)
    assert 'href="/task/elsewhere"' not in subtasks
    html(client, "/tasks/?parent=no-such-task", status=404)
    # a task with no more than it shows links no list
    small = html(client, children[0].get_absolute_url())
    assert "All subtasks" not in small
    assert "All datasets" not in small
    assert "All 0" not in small


def test_a_task_tree_that_loops_stops(client):
    a = make_task(slug="a", name="A")
    b = make_task(slug="b", name="B", parent=a)
    m.Task.objects.filter(pk=a.pk).update(parent=b)
    a.refresh_from_db()
    assert [t.slug for t in reads.taxonomy.task_tree(a).ancestors] == ["b"]
    html(client, a.get_absolute_url())


def test_the_dataset_list_filters_by_modality_language_task_and_name(client):
    images = make_dataset(slug="imagenet", name="ImageNet", modalities=["Images"], languages=[], num_papers=9)
    text = make_dataset(slug="squad", name="SQuAD", modalities=["Texts"], languages=["English"], num_papers=3)
    make_dataset(slug="nameless", name="Other", modalities=["Images", "Videos"], languages=["German"])
    qa = make_task(slug="question-answering", name="Question Answering")
    make_leaderboard(task=qa, dataset=text)

    def slugs(**filters):
        return [
            d.slug
            for d in reads.taxonomy.datasets_page(reads.taxonomy.DatasetFilters(**filters), "name").items
        ]

    assert slugs(modality="images") == ["imagenet", "nameless"]
    assert slugs(language="English") == ["squad"]
    assert slugs(task="question-answering") == ["squad"]
    assert slugs(q="imag") == ["imagenet"]
    papers = reads.taxonomy.datasets_page(reads.taxonomy.DatasetFilters(), "papers").items
    assert [d.slug for d in papers] == ["imagenet", "squad", "nameless"]
    assert reads.taxonomy.dataset_facets()["modalities"] == [("Images", 2), ("Texts", 1), ("Videos", 1)]
    page = html(client, "/datasets/?modality=Texts")
    assert '<a href="/dataset/squad">SQuAD</a>' in page
    assert "ImageNet" not in page.split("<tbody>")[1]
    assert '<option value="Images">Images (2)</option>' in page
    assert images.get_absolute_url() == "/dataset/imagenet"


def test_a_dataset_page_has_its_facts_leaderboards_papers_and_loaders(client):
    introducing = make_paper(title="Introducing the dataset")
    cityscapes = make_dataset(
        slug="cityscapes",
        name="Cityscapes",
        full_name="Cityscapes urban scenes",
        description="Street scenes\nfrom 50 cities.",
        homepage="https://www.cityscapes-dataset.com/",
        modalities=["Images"],
        languages=[],
        introduced_in=introducing,
        introduced_date=dt.date(2016, 4, 6),
        data_loaders=[{"url": "https://github.com/mcordts/cityscapesScripts", "frameworks": ["pytorch"],
                       "repo": "mcordts/cityscapesScripts"}],
    )  # fmt: skip
    make_dataset(slug="cityscapes-fine", name="Cityscapes fine", parent=cityscapes)
    board = make_leaderboard(dataset=cityscapes)
    evaluated = make_paper(title="Evaluated on it", month="2020-01")
    make_result(leaderboard=board, paper=evaluated)
    page = html(client, "/dataset/cityscapes")
    assert "<h1>Cityscapes</h1>" in page
    assert "<p>Street scenes\nfrom 50 cities.</p>" in page  # Markdown: a line break within a paragraph
    assert '<a href="https://www.cityscapes-dataset.com/" rel="nofollow noopener">Homepage</a>' in page
    assert f'<a href="{introducing.get_absolute_url()}">Introducing the dataset</a>' in page
    assert '<a class="chip" href="/dataset/cityscapes-fine">Cityscapes fine</a>' in page
    assert f'<a href="{board.get_absolute_url()}">' in page
    assert "Evaluated on it" in page
    assert "mcordts/cityscapesScripts" in page
    html(client, "/dataset/no-such-dataset", status=404)


def test_a_dataset_s_papers_walk_newest_first_once_each_way_like_a_table_keyset(client):
    from catalogue.pagination.keyset import keyset_page
    from catalogue.reads.papers import PAPER_KEYS, PaperSort

    dataset = make_dataset(slug="walked")
    boards = [make_leaderboard(dataset=dataset) for _ in range(2)]
    papers = []
    for i in range(60):  # three months and no month: ties broken by id, as the table does
        paper = make_paper(arxiv_id=f"230{i % 3 + 1}.{i:05d}")
        if i % 7 == 0:
            m.Paper.objects.filter(pk=paper.pk).update(month="")
        papers.append(paper)
        make_result(leaderboard=boards[i % 2], paper=paper)
        if i % 5 == 0:  # a paper on both boards is listed once
            make_result(leaderboard=boards[(i + 1) % 2], paper=paper)
    make_result(leaderboard=boards[0], paper=None, paper_title="A row naming no paper we hold")
    make_result(paper=make_paper())  # another dataset's
    table = m.Paper.objects.filter(pk__in=[p.pk for p in papers])

    def read(**cursor):
        return reads.taxonomy.dataset_page(dataset, **cursor).papers

    def like_the_table(**cursor):
        return keyset_page(table, PAPER_KEYS[PaperSort.DATE], **cursor)

    forward, page = [], read()
    expected = like_the_table()
    while True:
        assert [p.pk for p in page.items] == [p.pk for p in expected.items]
        assert (page.next_cursor, page.prev_cursor) == (expected.next_cursor, expected.prev_cursor)
        forward += page.items
        if not page.next_cursor:
            break
        page, expected = read(after=page.next_cursor), like_the_table(after=expected.next_cursor)
    assert len(forward) == len({p.pk for p in forward}) == 60
    back = read(before=page.prev_cursor)  # from the last page back one
    assert [p.pk for p in back.items] == [p.pk for p in like_the_table(before=page.prev_cursor).items]
    assert read(after="not a cursor").items == read().items


def test_dataset_names_link_from_leaderboards_and_papers(client):
    dataset = make_dataset(slug="coco", name="COCO")
    board = make_leaderboard(dataset=dataset)
    paper = make_paper()
    paper.datasets_introduced.add(dataset)
    assert '<a href="/dataset/coco">Dataset: COCO</a>' in html(client, board.get_absolute_url())
    assert '<a class="chip" href="/dataset/coco">COCO</a>' in html(client, paper.get_absolute_url())


@pytest.mark.parametrize(
    "url",
    [
        *("/sota/", "/area/computer-vision", "/tasks/", "/datasets/", "/dataset/d-0", "/task/t-0"),
        *("/task/t-0/leaderboards", "/dataset/d-0/leaderboards", "/tasks/?parent=t-0"),
    ],
)
def test_query_counts_do_not_grow_with_rows(client, url):
    def grow(n, start):
        area = m.Area.objects.get_or_create(slug="computer-vision", defaults={"name": "CV", "stamp": "s"})[0]
        for i in range(start, start + n):
            task = in_area(make_task(slug=f"t-{i}", name=f"T {i}"), area)
            dataset = make_dataset(slug=f"d-{i}", name=f"D {i}", modalities=["Images"])
            dataset.tasks.add(m.Task.objects.get(slug="t-0"))
            board = make_leaderboard(task=m.Task.objects.get(slug="t-0"), dataset=dataset)
            make_result(leaderboard=board, paper=make_paper()).paper.tasks.add(task)
            # and a result on d-0's own board, so the dataset page grows too
            first_board = m.Leaderboard.objects.get(task__slug="t-0", dataset__slug="d-0")
            make_result(leaderboard=first_board, paper=make_paper())

    grow(1, 0)
    assert_queries_do_not_grow(client, url, lambda: grow(49, 1))


def test_hostile_names_stay_text(client):
    area = make_area("probe-area", PROBE)
    task = in_area(make_task(slug="probe-task", name=PROBE, description=PROBE), area)
    dataset = make_dataset(slug="probe-dataset", name=PROBE, description=PROBE, modalities=[PROBE],
                           homepage="javascript:alert(1)")  # fmt: skip
    make_leaderboard(task=task, dataset=dataset)
    for url in (
        "/sota/",
        "/area/probe-area",
        "/tasks/",
        "/datasets/",
        "/dataset/probe-dataset",
        "/task/probe-task",
    ):
        page = html(client, url)
        assert PROBE not in page, url
        assert "&lt;script&gt;" in page, url
    assert 'href="javascript:' not in html(client, "/dataset/probe-dataset")


def test_sitemaps_list_the_browsing_pages_datasets_areas_and_conferences(client):
    make_dataset(slug="cityscapes", name="Cityscapes")
    make_area("computer-vision", "Computer Vision")
    index = html(client, "/sitemap.xml")
    assert "/sitemap-datasets.xml" in index
    assert "/sitemap-areas.xml" in index
    assert "http://testserver/dataset/cityscapes</loc>" in html(client, "/sitemap-datasets.xml")
    assert "http://testserver/area/computer-vision</loc>" in html(client, "/sitemap-areas.xml")
    make_paper(proceeding="NeurIPS 2019 12")
    conferences = html(client, "/sitemap-conferences.xml")
    assert "http://testserver/conference/neurips</loc>" in conferences
    assert "http://testserver/proceeding/neurips-2019-12</loc>" in conferences
    pages = html(client, "/sitemap-pages.xml")
    for path in ("/sota/", "/tasks/", "/datasets/"):
        assert f"http://testserver{path}</loc>" in pages


def test_dataset_and_area_pages_link_their_json_form_and_it_answers(client):
    make_dataset(slug="cityscapes", name="Cityscapes")
    in_area(
        make_task(slug="segmentation", name="Segmentation"), make_area("computer-vision", "Computer Vision")
    )
    for page_url, api in (
        ("/dataset/cityscapes", "/api/v1/datasets/cityscapes/"),
        ("/area/computer-vision", "/api/v1/areas/computer-vision/"),
    ):
        page = html(client, page_url)
        assert f'<link rel="alternate" type="application/json" href="{page_url}.json">' in page
        assert f'<a href="{api}" type="application/json">' in page
        assert client.get(api).status_code == 200
    make_task(slug="lonely", name="Lonely")
    assert 'type="application/json"' not in html(
        client, f"/area/{reads.taxonomy.NO_AREA}"
    )  # no such API area


def test_a_dataset_introduced_only_by_a_paper_document_names_that_paper_like_the_api(client):
    dataset = make_dataset(slug="squad", name="SQuAD")
    later, first = make_paper(slug="z-paper", title="Later"), make_paper(slug="a-paper", title="First")
    for paper in (later, first):
        paper.datasets_introduced.add(dataset)
    assert f'<a href="{first.get_absolute_url()}">First</a>' in html(client, "/dataset/squad")
    assert client.get("/api/v1/datasets/squad/").json()["paper"]["id"] == "a-paper"
