"""Small Papers-with-Code archive dumps, as the tests write them: every kind, JSON(.gz) or Parquet.

The records are shaped like the archive's (docs/PWC-ARCHIVE.md), quirks included: a paper
without an arXiv id, one under a second slug, a junk ``url_abs``; code links that are empty or
no repository; a leaderboard row with no paper, the same model twice with other values, the
same row twice, dataset names that differ only by case, space or punctuation; a method whose
paper is a bare title.
"""

import copy
import gzip
import json
from pathlib import Path

from tests.samples import SAMPLES

PWC = "https://paperswithcode.com"

PAPERS = [
    {
        "paper_url": f"{PWC}/paper/gpipe-efficient-training-of-giant-neural",
        "arxiv_id": "1811.06965v5",
        "title": "GPipe: Efficient Training of Giant Neural Networks using Pipeline Parallelism",
        "abstract": "Scaling up deep neural network capacity has been known as an effective approach.",
        "url_abs": "http://arxiv.org/abs/1811.06965v5",
        "url_pdf": "http://arxiv.org/pdf/1811.06965v5.pdf",
        "proceeding": "NeurIPS 2019 12",
        "authors": ["Yanping Huang", "Youlong Cheng", "Ankur Bapna"],
        "tasks": ["Image Classification", "Machine Translation"],
        "date": "2018-11-16",
        "methods": [{"name": "GPipe", "full_name": "GPipe", "description": "Pipeline parallelism."}],
        "conference": "gpipe-efficient-training-of-giant-neural-1",
        "nips_id": None,
        "openreview_id": None,
    },
    {
        "paper_url": f"{PWC}/paper/neural-networks-and-physical-systems-with",
        "arxiv_id": None,
        "title": "Neural networks and physical systems with emergent collective computational abilities",
        "abstract": "Computational properties of use of biological organisms.\r\nA model.",
        "url_abs": "https://www.pnas.org/content/79/8/2554",
        "url_pdf": "https://www.pnas.org/content/pnas/79/8/2554.full.pdf",
        "proceeding": None,
        "authors": ["J J Hopfield"],
        "tasks": [],
        "date": "1982-01-15",
        "methods": [],
    },
    {
        "paper_url": f"{PWC}/paper/pspnet",
        "arxiv_id": "1612.01105",
        "title": "  Pyramid Scene Parsing Network  ",
        "abstract": "Scene parsing is challenging.",
        "url_abs": "see https://arxiv.org/abs/1612.01105 (abstract)",
        "url_pdf": "",
        "authors": ["Hengshuang Zhao"],
        "tasks": ["Semantic Segmentation"],
        "date": "",
        "methods": [{"name": "Pyramid Pooling Module", "full_name": "Pyramid Pooling Module"}],
    },
    # The same paper under an older slug, as later archive dumps hold it.
    {
        "paper_url": f"{PWC}/paper/pspnet-1",
        "arxiv_id": "1612.01105v2",
        "title": "Pyramid Scene Parsing Network",
    },
    # A record that names no paper: skipped, with a warning.
    {"paper_url": "", "arxiv_id": "", "title": "Nothing to go by"},
]

LINKS = [
    {
        "paper_url": f"{PWC}/paper/gpipe-efficient-training-of-giant-neural",
        "paper_title": "GPipe",
        "paper_arxiv_id": "1811.06965",
        "repo_url": "https://github.com/KakaoBrain/torchgpipe",
        "is_official": False,
        "mentioned_in_paper": False,
        "mentioned_in_github": True,
        "framework": "pytorch",
    },
    {
        "paper_url": f"{PWC}/paper/gpipe-efficient-training-of-giant-neural",
        "paper_title": "GPipe",
        "paper_arxiv_id": "1811.06965",
        "repo_url": "https://github.com/PaddlePaddle/FleetX/tree/develop/examples/pipeline",
        "is_official": True,
        "mentioned_in_paper": True,
        "mentioned_in_github": False,
        "framework": "none",
    },
    {
        "paper_url": f"{PWC}/paper/pspnet",
        "paper_title": "PSPNet",
        "paper_arxiv_id": "1612.01105",
        "repo_url": "",
        "is_official": True,
        "framework": "pytorch",
    },
    {
        "paper_url": f"{PWC}/paper/pspnet",
        "paper_title": "PSPNet",
        "paper_arxiv_id": "1612.01105",
        "repo_url": "https://hszhao.github.io/projects/pspnet/",
        "is_official": False,
        "framework": "",
    },
    {
        "paper_url": f"{PWC}/paper/pspnet",
        "paper_title": "PSPNet",
        "paper_arxiv_id": "1612.01105",
        "repo_url": "https://github.com/hszhao/PSPNet",
        "is_official": True,
        "framework": "caffe2",
    },
]


def _row(model, metrics, paper="", title="", date="2017-01-01", extra=None):
    return {
        "model_name": model,
        "paper_title": title,
        "paper_url": paper,
        "paper_date": date,
        "code_links": [],
        "model_links": [],
        "metrics": metrics,
        "uses_additional_data": False,
        **(extra or {}),
    }


EVALUATIONS = [
    {
        "task": "Semantic Segmentation",
        "description": "Semantic segmentation assigns a class to every pixel.",
        "categories": ["Computer Vision"],
        "synonyms": ["scene parsing"],
        "source_link": None,
        "datasets": [
            {
                "dataset": "Cityscapes test",
                "description": "Urban street scenes.",
                "dataset_citations": [],
                "dataset_links": [],
                "subdatasets": [],
                "sota": {
                    "metrics": ["Mean IoU (class)", "Number of params"],
                    "rows": [
                        _row(
                            "PSPNet",
                            {"Mean IoU (class)": "81.2%", "Number of params": "65M"},
                            f"{PWC}/paper/pspnet",
                        ),
                        _row(
                            "PSPNet",
                            {"Mean IoU (class)": "78.4%", "Number of params": "65M"},
                            f"{PWC}/paper/pspnet",
                        ),
                        _row(
                            "PSPNet",
                            {"Mean IoU (class)": "81.2%", "Number of params": "65M"},
                            f"{PWC}/paper/pspnet",
                        ),
                        _row("Leaderboard entry", {"Mean IoU (class)": 83.0}, "", ""),
                    ],
                },
            },
            {
                "dataset": " Cityscapes test",  # the same table's dataset, spelled with a space
                "sota": {
                    "metrics": ["Mean IoU (class)"],
                    "rows": [_row("DeepLab", {"Mean IoU (class)": "79.0%"})],
                },
            },
        ],
        "subtasks": [
            {
                "task": "Real-Time Semantic Segmentation",
                "categories": ["Computer Vision"],
                "datasets": [
                    {
                        "dataset": "Cityscapes test",
                        "sota": {
                            "metrics": ["mIoU", "Frame (fps)"],
                            "rows": [
                                _row("PSPNet", {"mIoU": "81.2", "Frame (fps)": "0.78"}, f"{PWC}/paper/pspnet")
                            ],
                        },
                    }
                ],
                "subtasks": [],
            }
        ],
    },
    {
        "task": "Language Modelling",
        "categories": ["Natural Language Processing"],
        "datasets": [
            {
                "dataset": "WikiText-103",
                "sota": {
                    "metrics": ["Number of params", "Test perplexity"],
                    "rows": [
                        _row(
                            "Transformer-XL",
                            {"Number of params": "257M", "Test perplexity": "18.3"},
                            "https://arxiv.org/abs/1901.02860",
                            "Transformer-XL",
                        ),
                        _row("LSTM", {"Number of params": "100M", "Test perplexity": "48.7"}),
                    ],
                },
                "subdatasets": [
                    {
                        "subdataset": "Small",
                        "sota": {
                            "metrics": ["Test perplexity"],
                            "rows": [_row("Tiny", {"Test perplexity": "60"})],
                        },
                    }
                ],
            },
            {"dataset": None, "sota": {"metrics": [], "rows": []}},  # a table without a dataset: skipped
        ],
        "subtasks": [],
    },
]

METHODS = [
    {
        "url": f"{PWC}/method/gpipe",
        "name": "GPipe",
        "full_name": "GPipe",
        "description": "**GPipe** is a distributed model parallel method.",
        "paper": {"title": "GPipe", "url": f"{PWC}/paper/gpipe-efficient-training-of-giant-neural"},
        "introduced_year": 2018,
        "source_url": "http://arxiv.org/abs/1811.06965v5",
        "source_title": "GPipe: Efficient Training of Giant Neural Networks using Pipeline Parallelism",
        "code_snippet_url": "",
        "num_papers": 12,
        "collections": [{"collection": "Distributed Methods", "area_id": "general", "area": "General"}],
    },
    {
        "url": f"{PWC}/method/ppm",
        "name": "Pyramid Pooling Module",
        "full_name": "Pyramid Pooling Module",
        "description": "A module for scene parsing.",
        "paper": "Pyramid Scene Parsing Network",  # a bare title in some vintages
        "introduced_year": 2000,
        "num_papers": 40,
        "collections": [
            {"collection": "Image Model Blocks", "area_id": "computer-vision", "area": "Computer Vision"}
        ],
    },
]

DATASETS = [
    {
        "url": f"{PWC}/dataset/cityscapes",
        "name": "Cityscapes",
        "full_name": "Cityscapes",
        "description": "Cityscapes is a large-scale database of urban street scenes.",
        "homepage": "https://www.cityscapes-dataset.com/",
        "paper": {
            "title": "The Cityscapes Dataset",
            "url": f"{PWC}/paper/the-cityscapes-dataset-for-semantic-urban",
        },
        "introduced_date": "2016-04-06",
        "modalities": ["Images"],
        "tasks": [{"task": "Semantic Segmentation", "url": f"{PWC}/task/semantic-segmentation"}],
        "languages": [],
        "variants": ["Cityscapes test", "Cityscapes val"],
        "num_papers": 2000,
        "data_loaders": [
            {
                "url": "https://github.com/open-mmlab/mmsegmentation",
                "repo": "https://github.com/open-mmlab/mmsegmentation",
                "frameworks": ["pytorch"],
            }
        ],
    },
    {
        "url": f"{PWC}/dataset/wikitext-103",
        "name": "WikiText-103",
        "full_name": "WikiText-103",
        "description": "A language modelling corpus.",
        "homepage": "junk homepage",
        "modalities": ["Texts"],
        "tasks": [{"task": "Language Modelling", "url": f"{PWC}/task/language-modelling"}],
        "languages": ["English"],
    },
]

DUMPS = {
    "papers-with-abstracts": PAPERS,
    "links-between-papers-and-code": LINKS,
    "evaluation-tables": EVALUATIONS,
    "methods": METHODS,
    "datasets": DATASETS,
}


def write(target: Path, form: str = "json.gz", dumps: dict | None = None) -> list[Path]:
    """Write the dumps into ``target`` as ``.json``, ``.json.gz`` or Parquet (a folder of two shards)."""
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for kind, records in (dumps or DUMPS).items():
        records = copy.deepcopy(records)
        if form == "parquet":
            written.append(_parquet(target / kind, records))
        else:
            path = target / f"{kind}.{form}"
            data = json.dumps(records, ensure_ascii=False).encode()
            path.write_bytes(gzip.compress(data, mtime=0) if form == "json.gz" else data)
            written.append(path)
    return written


def _parquet(folder: Path, records: list) -> Path:
    """The Hugging Face layout: ``<kind>/data/train-0000N-of-00002.parquet``, nested columns.

    Each record is stored through JSON so that every shard has one schema however messy the
    records are (a field that is a string in one record and an object in another).
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    data = folder / "data"
    data.mkdir(parents=True, exist_ok=True)
    half = (len(records) + 1) // 2
    for i, part in enumerate((records[:half], records[half:])):
        rows = [_flat(r) for r in part] or [{}]
        # Every field any record has (``from_pylist`` takes the first record's fields only).
        fields = dict.fromkeys(key for row in rows for key in row)
        table = pa.Table.from_pydict({key: [row.get(key) for row in rows] for key in fields})
        pq.write_table(table, data / f"train-{i:05d}-of-00002.parquet", row_group_size=2)
    return folder


def _table(dataset: dict) -> dict:
    """An evaluation table with its rows' metrics as JSON text (their values are text or numbers)."""
    dataset = dict(dataset)
    sota = dict(dataset.get("sota") or {})
    sota["rows"] = [{**row, "metrics": json.dumps(row.get("metrics"))} for row in sota.get("rows") or []]
    dataset["sota"] = sota
    dataset["subdatasets"] = [_table(d) for d in dataset.get("subdatasets") or []]
    return dataset


def _flat(record: dict) -> dict:
    """Nested lists and objects as Parquet holds them, where they have one shape; JSON text where not."""
    out = {}
    for key, value in record.items():
        if key == "paper" and isinstance(value, dict):
            out[key] = json.dumps(value)
        elif key == "datasets" and isinstance(value, list) and value and "sota" in value[0]:
            out[key] = [_table(d) for d in value]
        elif key == "subtasks":
            out[key] = [_flat(t) for t in value]
        else:
            out[key] = value
    return out


# What the archive tests (tests/loader/test_archive*.py) share.
SOTA = SAMPLES / "sota-extractor"
PSPNET_BOARD = "semantic-segmentation-on-cityscapes-test"
# Fields that say where a row came from (the file, its checksum), not what it holds.
PROVENANCE = (
    "id",
    "created_at",
    "last_load",
    "version",
    "stamp",
    "document",
    "paper_document",
    "source",
    "paper_stamp",
    "archive_stamp",
    "syntology_stamp",
    "detail_stamp",
    "table_stamp",
    "last_stamp",
)


def dumps(tmp_path, form="json.gz", **changes) -> Path:
    records = {kind: copy.deepcopy(rows) for kind, rows in DUMPS.items()}
    for kind, change in changes.items():
        change(records[kind.replace("_", "-")])
    write(tmp_path / form, form, records)
    return tmp_path / form
