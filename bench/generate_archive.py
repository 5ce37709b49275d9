"""Deterministic generator of synthetic Papers-with-Code archive dumps: the five files.

    .venv/bin/python bench/generate_archive.py --format json|parquet|both [--papers N | --small] [--seed 0]
        [--out DIR] [--gzip-under-json-names]

Why it exists: the real archive (576,261 papers, 300,161 code links, 59,860 leaderboard rows,
8,725 methods, 15,008 datasets) cannot be fetched here, and an operator holds it in one of two
forms: the old gzipped JSON dumps or the Hugging Face ``pwc-archive`` Parquet shards. This
writes either form (or both from one pass), with the field names of
docs/PWC-ARCHIVE.md, at any scale up to the archive's (``--papers 576000``, the
default), messy the way the real rows are (bench/README.md, "Archive-sized dumps", lists the
proportions and quirks).

Layout under ``--out`` (default ``bench/out/archive/papers-<N>-seed-<S>``)::

    json/papers-with-abstracts.json.gz           one JSON list each, gzipped
    json/links-between-papers-and-code.json.gz
    json/evaluation-tables.json.gz               the sota-extractor tree
    json/methods.json.gz
    json/datasets.json.gz
    parquet/papers-with-abstracts/data/train-0000K-of-0000M.parquet   (M = 4 at full scale)
    parquet/links-between-paper-and-code/data/train-00000-of-00001.parquet
    parquet/evaluation-tables/data/train-0000K-of-0000M.parquet       (M = 4 at full scale)
    parquet/methods/data/train-00000-of-00001.parquet
    parquet/datasets/data/train-00000-of-00001.parquet
    manifest-json.txt, manifest-parquet.txt      what was written (counts, seed), as JSON text

The links folder is spelled ``links-between-paper-and-code`` (singular *paper*), as the
Hugging Face repository is, not like the JSON file. Shard counts follow the Hugging Face
repositories (papers and evaluation tables in 4 shards at full scale, the rest in 1); row
groups hold 2,000 papers, 10,000 links, 50 top-level tasks or 1,000 methods/datasets.

How the Parquet form holds what Parquet's fixed schema cannot (the only differences between
the forms, and bench/check_archive.py undoes exactly these):
- Evaluation tables: one row per top-level Task, nested structs and lists to a fixed depth:
  ``subtasks`` are nested 3 Task levels deep (task, subtask, sub-subtask) and ``subdatasets``
  2 Dataset levels deep (table, subtable); at the deepest level the field is a **string
  holding the JSON** of whatever lies below (``"[]"`` almost always; a few sub-subtasks do
  have children, so that path is exercised).
- A row's ``metrics`` (``{name: value}``, names vary per table) is a ``map<string, string>``;
  a value that is a JSON number in the JSON form is its JSON text there (``84.4`` -> ``"84.4"``).
- A method's ``paper`` that is a bare string in the JSON form (a paper slug, as some vintages
  have) is ``{title: null, url: <that string>}``.
- A key missing from a JSON object is a null field (``uses_additional_data`` is missing from
  the rows of tables that came from sources without it; ``subdataset`` exists only on the odd
  subtable that is named by it instead of ``dataset``, as in the sota-extractor samples).

Why it is shaped this way:
- Deterministic: every item (paper *i*, its links, method *j*, dataset *d*) draws from its own
  ``random.Random`` seeded by the string ``"<seed>:<kind>:<index>"`` (string seeds go through
  SHA-512: no hash randomisation), so any pass can rebuild paper *i* without having kept it;
  the evaluation tree is one sequential draw. No wall clock anywhere in the data; gzip headers
  carry mtime 0 and no file name, so the same seed gives the same bytes.
- Streaming: each file is its own pass over the indices, every record is written as soon as it
  is made (JSON through a gzip stream, Parquet one row group at a time), so memory holds one
  row group, the methods and dataset-name caches (bounded by the archive's 8,700 methods and
  15,000 datasets) and a few small tables, whatever ``--papers`` is.
- References: links, leaderboard rows, methods and datasets name papers by ``paper_url``; most
  exist in the papers file, a few are papers that are not there (another vintage's), as in
  the real dumps.
- Unique identities by construction: every paper carries a coined name (``Kalomira``) made
  bijectively from its index, inside the first six words its slug is cut from, so slugs never
  collide except where a duplicate is meant (``x`` and ``x-1``); arXiv numbers are ranks
  within their month under a fixed permutation, so no two papers share an id by accident.
- A showcase: low indices (papers 1-31, the links of papers 3-13, methods 1-5, the first
  leaderboard task) carry every quirk once, so even ``--small`` (400 papers) has them all.

Measured at 576,000 papers (bench/README.md): the JSON form, 332 MB, in about 4 minutes at
56 MB peak RSS; the Parquet form, 328 MB, in about 3 minutes at 149 MB.
"""

from __future__ import annotations

import argparse
import bisect
import gzip
import json
import math
import random
import re
import resource
import shutil
import sys
import time
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import synth_words as words

PWC = "https://paperswithcode.com"
OUT_ROOT = Path(__file__).resolve().parent / "out" / "archive"


@dataclass(frozen=True)
class Scale:
    """How many of each record; the archive's figures at 576,000 papers, in proportion below."""

    papers: int
    links: int
    rows: int
    methods: int
    datasets: int
    tasks: int  # the task vocabulary papers, leaderboards and datasets draw names from

    @classmethod
    def for_papers(cls, n: int) -> Scale:
        f = n / 576_000
        return cls(
            papers=n,
            links=round(300_000 * f),
            rows=max(20, round(60_000 * f)),
            methods=max(40, round(8_700 * f)),
            datasets=max(60, round(15_000 * f)),
            tasks=max(80, round(4_800 * f)),
        )


# --- names ---------------------------------------------------------------------------------

SYLLABLES = [c + v for c in "bdfgklmnprstvz" for v in "aeiou"]  # 70
COINED_SPACE = len(SYLLABLES) ** 4
COINED_STEP = 9_999_991  # coprime to 70**4: index -> digits is a bijection
_SHUFFLES = [random.Random(f"coined:{k}").sample(range(len(SYLLABLES)), len(SYLLABLES)) for k in range(4)]


def coined(index: int, namespace: int = 0) -> str:
    """A unique pronounceable name for an index (Kalomira): models, datasets, repositories.

    Bijective: index -> four base-70 digits -> each digit mixed with the one before and
    shuffled (invertible digit by digit), so neighbouring indices do not read alike."""
    x = (index * COINED_STEP + 4_242_421 + namespace * 1_000_003) % COINED_SPACE
    parts = []
    previous = 0
    for k in range(4):
        x, d = divmod(x, len(SYLLABLES))
        parts.append(SYLLABLES[_SHUFFLES[k][(d + previous) % len(SYLLABLES)]])
        previous = d
    return "".join(parts).capitalize()


_NON_ALNUM = re.compile(r"[^a-z0-9]+")


def slugify(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return _NON_ALNUM.sub("-", folded).strip("-")


def ascii_handle(first: str, last: str) -> str:
    return slugify(first + last).replace("-", "")


# synth_words' surnames split "van der Berg" into words: keep the capitalised ones, and the two whole
LAST_NAMES = (*(n for n in words.LAST_NAMES if n[0].isupper()), "van der Berg", "de la Cruz")


TITLE_NOUNS = (
    "attention transformers networks representations embeddings policies graphs kernels "
    "priors objectives features decoders encoders adapters retrievers samplers optimizers "
    "benchmarks agents flows experts"
).split()
TITLE_ADJ = (
    "efficient scalable robust sparse adaptive hierarchical contrastive generative "
    "self-supervised federated multimodal causal lightweight unified implicit structured "
    "low-rank quantized distributed continual few-shot zero-shot equivariant"
).split()
TITLE_ODDITIES = (
    *words.TITLE_ODDITIES,
    r"$\mathbb{R}^n$-Valued",
    r"$\epsilon$-Greedy",
    r"\textsc{Mix}-up",
    r"$\mathrm{SO}(3)$-Equivariant",
    r"$\sqrt{n}$-Consistent",
)
PROCEEDING_VENUES = ("neurips", "icml", "iclr", "cvpr", "iccv", "eccv", "acl", "emnlp", "aaai", "ijcai")

BASE_TASKS = (
    "Image Classification",
    "Object Detection",
    "Semantic Segmentation",
    "Instance Segmentation",
    "Machine Translation",
    "Question Answering",
    "Language Modelling",
    "Speech Recognition",
    "Text Generation",
    "Node Classification",
    "Link Prediction",
    "Pose Estimation",
    "Depth Estimation",
    "Anomaly Detection",
    "Image Generation",
    "Visual Question Answering",
    "Code Generation",
    "Sentiment Analysis",
    "Named Entity Recognition",
    "Recommendation Systems",
    "Action Recognition",
    "Video Object Segmentation",
    "3D Object Detection",
    "Time Series Forecasting",
    "Text Classification",
    "Relation Extraction",
    "Image Super-Resolution",
    "Image Captioning",
    "Text-to-SQL",
    "Knowledge Graph Completion",
    "Graph Classification",
    "Domain Adaptation",
    "Continuous Control",
    "Atari Games",
    "Face Verification",
    "Person Re-Identification",
    "Medical Image Segmentation",
    "Abstractive Summarization",
    "Natural Language Inference",
    "Reading Comprehension",
)
# Near-duplicates the real archive has: the same task under names that differ only by case,
# spaces, punctuation or underscores (and so give one slug).
TASK_NEAR_DUPLICATES = (
    "Semi-Supervised Video Object Segmentation",
    "Semi-supervised video object segmentation",
    "3D object detection",
    "Question_Answering",
    "Image  Classification",
    "Language modelling",
)
PAPER_TASK_ODDITIES = ("Supervised:", "Supervised", *TASK_NEAR_DUPLICATES)  # the showcase's subtasks too
TASK_MODIFIERS = (
    "Few-Shot",
    "Zero-Shot",
    "Unsupervised",
    "Semi-Supervised",
    "Weakly-Supervised",
    "Self-Supervised",
    "Multi-Task",
    "Cross-Lingual",
    "Multilingual",
    "Open-Vocabulary",
    "Real-Time",
    "Online",
    "Long-Tailed",
    "Fine-Grained",
    "Low-Resource",
    "Robust",
    "Federated",
    "Incremental",
    "Continual",
    "Interactive",
    "Unsupervised Domain Adaptive",
    "3D",
    "Video",
    "Medical",
    "Satellite",
    "Document",
    "Dialogue",
    "Audio-Visual",
    "Multi-Modal",
    "Conversational",
    "Efficient",
    "Explainable",
    "Temporal",
    "Spatio-Temporal",
    "Hierarchical",
    "Sparse",
    "Generalized",
    "Compositional",
    "Adversarial",
    "Private",
)
AREAS = (
    ("computer-vision", "Computer Vision"),
    ("natural-language-processing", "Natural Language Processing"),
    ("general", "General"),
    ("reinforcement-learning", "Reinforcement Learning"),
    ("audio", "Audio"),
    ("sequential", "Sequential"),
    ("graphs", "Graphs"),
)
# (collection, area index, parent collection or None)
COLLECTIONS = (
    ("Convolutions", 0, None),
    ("Image Models", 0, None),
    ("Convolutional Neural Networks", 0, "Image Models"),
    ("Object Detection Models", 0, None),
    ("Semantic Segmentation Models", 0, None),
    ("Vision Transformers", 0, "Image Models"),
    ("Transformers", 1, None),
    ("Language Models", 1, None),
    ("Subword Segmentation", 1, None),
    ("Word Embeddings", 1, None),
    ("Activation Functions", 2, None),
    ("Normalization", 2, None),
    ("Regularization", 2, None),
    ("Stochastic Optimization", 2, None),
    ("Learning Rate Schedules", 2, None),
    ("Attention Modules", 2, "Attention Mechanisms"),
    ("Attention Mechanisms", 2, None),
    ("Skip Connections", 2, None),
    ("Feedforward Networks", 2, None),
    ("Output Functions", 2, None),
    ("Loss Functions", 2, None),
    ("Initialization", 2, None),
    ("Generative Models", 2, None),
    ("Parameter Efficient Fine-Tuning", 2, None),
    ("Policy Gradient Methods", 3, None),
    ("Off-Policy TD Control", 3, None),
    ("Replay Memory", 3, None),
    ("Speech Synthesis Models", 4, None),
    ("Audio Model Blocks", 4, None),
    ("Recurrent Neural Networks", 5, None),
    ("Time Series Models", 5, None),
    ("Graph Models", 6, None),
    ("Graph Embeddings", 6, None),
    ("Dimensionality Reduction", 2, None),
    ("Clustering", 2, None),
)
# (name, full name, collection) of methods every archive has; the rest are coined.
FAMOUS_METHODS = (
    ("Convolution", "Convolution", "Convolutions"),
    ("ReLU", "Rectified Linear Units", "Activation Functions"),
    ("Dropout", "Dropout", "Regularization"),
    ("Adam", "Adam", "Stochastic Optimization"),
    ("Batch Normalization", "Batch Normalization", "Normalization"),
    ("Softmax", "Softmax", "Output Functions"),
    ("Residual Connection", "Residual Connection", "Skip Connections"),
    ("Dense Connections", "Dense Connections", "Feedforward Networks"),
    ("Layer Normalization", "Layer Normalization", "Normalization"),
    ("Multi-Head Attention", "Multi-Head Attention", "Attention Modules"),
    ("Scaled Dot-Product Attention", "Scaled Dot-Product Attention", "Attention Mechanisms"),
    ("Transformer", "Transformer", "Transformers"),
    ("Attention Dropout", "Attention Dropout", "Regularization"),
    ("GELU", "Gaussian Error Linear Units", "Activation Functions"),
    ("Linear Warmup With Linear Decay", "Linear Warmup With Linear Decay", "Learning Rate Schedules"),
    ("Weight Decay", "Weight Decay", "Regularization"),
    ("BERT", "BERT", "Language Models"),
    ("WordPiece", "WordPiece", "Subword Segmentation"),
    ("Byte Pair Encoding", "Byte Pair Encoding", "Subword Segmentation"),
    ("ResNet", "Residual Network", "Convolutional Neural Networks"),
    ("Max Pooling", "Max Pooling", "Convolutions"),
    ("Global Average Pooling", "Global Average Pooling", "Convolutions"),
    ("1x1 Convolution", "1x1 Convolution", "Convolutions"),
    ("Bottleneck Residual Block", "Bottleneck Residual Block", "Skip Connections"),
    ("Kaiming Initialization", "Kaiming Initialization", "Initialization"),
    ("LSTM", "Long Short-Term Memory", "Recurrent Neural Networks"),
    ("GAN", "Generative Adversarial Network", "Generative Models"),
    ("VAE", "Variational Autoencoder", "Generative Models"),
    ("SGD", "Stochastic Gradient Descent", "Stochastic Optimization"),
    ("Label Smoothing", "Label Smoothing", "Regularization"),
    ("Cosine Annealing", "Cosine Annealing", "Learning Rate Schedules"),
    ("Vision Transformer", "Vision Transformer", "Vision Transformers"),
    ("GCN", "Graph Convolutional Network", "Graph Models"),
    ("PPO", "Proximal Policy Optimization", "Policy Gradient Methods"),
    ("DQN", "Deep Q-Network", "Off-Policy TD Control"),
    ("Experience Replay", "Experience Replay", "Replay Memory"),
    ("U-Net", "U-Net", "Semantic Segmentation Models"),
    ("Faster R-CNN", "Faster R-CNN", "Object Detection Models"),
    ("FPN", "Feature Pyramid Network", "Object Detection Models"),
    ("Focal Loss", "Focal Loss", "Loss Functions"),
    ("LoRA", "Low-Rank Adaptation", "Parameter Efficient Fine-Tuning"),
    ("AdamW", "AdamW", "Stochastic Optimization"),
    ("Sigmoid Activation", "Sigmoid Activation", "Activation Functions"),
    ("Tanh Activation", "Tanh Activation", "Activation Functions"),
    ("Depthwise Separable Convolution", "Depthwise Separable Convolution", "Convolutions"),
    ("PCA", "Principal Components Analysis", "Dimensionality Reduction"),
    ("k-Means Clustering", "k-Means Clustering", "Clustering"),
    ("WaveNet", "WaveNet", "Speech Synthesis Models"),
    ("Mixup", "Mixup", "Regularization"),
    ("Gradient Clipping", "Gradient Clipping", "Stochastic Optimization"),
)
METHOD_NOUNS = (
    "Attention Attention Pooling Convolution Normalization Block Layer Module Loss Unit "
    "Regularizer Schedule Initialization Network Encoder Decoder Gate Embedding Sampler"
).split()

FAMOUS_DATASETS = (
    "ImageNet",
    "CIFAR-10",
    "CIFAR-100",
    "COCO",
    "MS COCO",
    "Cityscapes",
    "ADE20K",
    "PASCAL VOC 2012",
    "KITTI",
    "nuScenes",
    "SQuAD1.1",
    "SQuAD2.0",
    "GLUE",
    "SuperGLUE",
    "MMLU",
    "WMT2014 English-German",
    "WMT2014 English-French",
    "Penn Treebank",
    "WikiText-103",
    "LibriSpeech",
    # near-duplicates: differ from a name here only by case, spaces, punctuation, underscores
    "Pubmed",
    " FB15k",
    "Imagenet",
    "CIFAR10",
    "WN18_RR",
    "Human 3.6M",
    "ogbn_arxiv",
    "SQuAD 1.1",
    "CityScapes",
    "Cora",
    "Citeseer",
    "PubMed",
    "FB15k",
    "FB15k-237",
    "WN18RR",
    "HumanEval",
    "GSM8K",
    "MNIST",
    "Fashion-MNIST",
    "SVHN",
    "CelebA",
    "FFHQ",
    "Human3.6M",
    "MPII Human Pose",
    "DAVIS 2017",
    "YouTube-VOS",
    "Kinetics-400",
    "UCF101",
    "AudioSet",
    "VoxCeleb1",
    "CoNLL 2003 (English)",
    "OntoNotes 5.0",
    "SST-2 Binary classification",
    "IMDb",
    "AG News",
    "MultiNLI",
    "SNLI",
    "HotpotQA",
    "Natural Questions",
    "TriviaQA",
    "CNN / Daily Mail",
    "Gigaword",
    "MS MARCO",
    "ScanNet",
    "ModelNet40",
    "ShapeNet",
    "LFW",
    "CUB-200-2011",
    "Stanford Cars",
    "Food-101",
    "CheXpert",
    "BraTS 2018",
    "MIMIC-III",
    "ETTh1",
    "ogbn-arxiv",
    "ogbn-products",
    "Atari 2600 Breakout",
    "MuJoCo",
)
# Leaderboard "dataset" names that are sentences, not datasets (they are not in datasets.json).
SENTENCE_DATASETS = (
    "Results on the official test split, single model, no external training data",
    "Average over the five evaluation seeds reported by the authors.",
    "Models trained on the train+val split and evaluated on the held-out test server",
    "Zero-shot transfer from the pre-training corpus, no fine-tuning on the target set",
)
QUALITY_METRICS = (
    "Accuracy",
    "Top 1 Accuracy",
    "Top 5 Accuracy",
    "Percentage correct",
    "Percentage error",
    "F1",
    "F1 score",
    "EM",
    "BLEU score",
    "ROUGE-1",
    "ROUGE-2",
    "ROUGE-L",
    "mAP",
    "box AP",
    "AP50",
    "mIoU",
    "Mean IoU (class)",
    "PSNR",
    "SSIM",
    "FID",
    "Inception score",
    "Perplexity",
    "Test perplexity",
    "Bit per Character (BPC)",
    "WER",
    "Word Error Rate (WER)",
    "MAE",
    "RMSE",
    "MRR",
    "Hits@10",
    "Hits@1",
    "AUC",
    "AUROC",
    "TAR @ FAR=0.01",
    "AUC (horizon error)",
    "NDCG@10",
    "Recall@1",
    "Score",
    "Average Return",
    "Success Rate",
    "Error rate",
    "CIDEr",
    "METEOR",
)
COST_METRICS = (
    "Number of params",
    "Params",
    "Params (M)",
    "FLOPS",
    "GFLOPs",
    "Inference Time (ms)",
    "Model size (MB)",
    "Training time (hours)",
)
LOW_IS_BETTER = {"Percentage error", "FID", "Perplexity", "Test perplexity", "Bit per Character (BPC)"}
LOW_IS_BETTER |= {"WER", "Word Error Rate (WER)", "MAE", "RMSE", "Error rate", "AUC (horizon error)"}
FAMOUS_MODELS = (
    "ResNet-50",
    "ResNet-152",
    "BERT-Large",
    "BERT (single model)",
    "RoBERTa-large",
    "ViT-B/16",
    "ViT-L/14",
    "GPT-4",
    "LLaMA-2 70B",
    "T5-11B",
    "EfficientNet-B7",
    "Swin-L",
    "DeiT-S",
    "XGBoost",
    "Human Performance",
    "Random baseline",
)
POPULAR_REPOS = (
    "huggingface/transformers",
    "rwightman/pytorch-image-models",
    "open-mmlab/mmdetection",
    "open-mmlab/mmsegmentation",
    "facebookresearch/detectron2",
    "facebookresearch/fairseq",
    "PaddlePaddle/PaddleNLP",
    "PaddlePaddle/PaddleClas",
    "tensorflow/models",
    "google-research/google-research",
    "microsoft/DeepSpeed",
    "NVIDIA/Megatron-LM",
    "labmlai/annotated_deep_learning_paper_implementations",
    "lucidrains/x-transformers",
    "mindspore-ai/models",
    "osmr/imgclsmob",
    "deepmind/deepmind-research",
    "pytorch/vision",
    "allenai/allennlp",
    "keras-team/keras-io",
)
FRAMEWORKS = ("pytorch",) * 6 + ("tf",) * 2 + ("jax", "none", "paddle", "mxnet")
MODALITIES = (
    "Images",
    "Texts",
    "Videos",
    "Audio",
    "Graphs",
    "3D",
    "Tabular",
    "Medical",
    "Time series",
    "Speech",
)
LANGUAGES = ("English", "Chinese", "German", "French", "Japanese", "Spanish", "Arabic", "Hindi", "Korean")


# Every quirk at least once at every scale, even --small: these low indices carry one each
# (everything else is drawn at the rates bench/README.md lists). 24 papers, ten links,
# five methods and the first leaderboard task (15 rows) out of the archive: nothing at scale.
SHOWCASE_PAPERS = {
    1: "title_null",
    2: "title_empty",
    3: "title_padded",
    4: "title_latex",
    5: "title_long",
    6: "abstract_crlf",
    7: "abstract_empty",
    8: "date_empty",
    9: "date_future",
    10: "arxiv_version",
    12: "arxiv",
    13: "dup_same_arxiv",
    16: "arxiv",
    17: "dup_arxiv_slug",
    20: "arxiv",
    21: "dup_conference",
    24: "venue_openreview",
    25: "venue_acl",
    26: "venue_doi",
    27: "venue_pdf",
    28: "venue_text",
    29: "venue_neurips",
    30: "many_authors",
    31: "old_style",
}
SHOWCASE_DUPS = {13: "same_arxiv", 17: "arxiv_slug", 21: "conference"}
SHOWCASE_LINKS = {
    3: "empty",
    4: "homepage",
    5: "tree",
    6: "git",
    7: "pct20",
    8: "markdown",
    9: "gitlab",
    10: "case",
    12: "any",
    13: "any",
}
SHOWCASE_METHODS = {1: "paper_null", 2: "paper_string", 3: "paper_ghost", 4: "year_2000", 5: "year_null"}


def draw(r: random.Random, forced: float | None = None) -> float:
    """r.random(), or the value a showcase item is forced to (the draw is made either way, so
    the item's later draws stay what they would be)."""
    x = r.random()
    return x if forced is None else forced


def _check_coined_names_cannot_collide() -> None:
    """A slug is unique because it carries its paper's coined name and no other: make sure no
    fixed word could read as a coined name (8 letters of our consonant-vowel syllables)."""
    pattern = re.compile(r"^(?:[bdfgklmnprstvz][aeiou]){4}$")
    vocabulary = (*words.TITLE_WORDS, *TITLE_NOUNS, *TITLE_ADJ, *words.TITLE_LINKS, *BASE_TASKS)
    for phrase in vocabulary:
        for word in slugify(phrase).split("-"):
            assert not pattern.match(word), word


_check_coined_names_cannot_collide()


# --- the calendar: papers per month, arXiv ids as ranks within a month ---------------------

YEAR_WEIGHTS = {
    **dict.fromkeys(range(1950, 1991), 0.3 / 41),
    **dict.fromkeys(range(1991, 2007), 1.2 / 16),
    2007: 0.3,
    2008: 0.4,
    2009: 0.5,
    2010: 0.6,
    2011: 0.8,
    2012: 1.1,
    2013: 1.5,
    2014: 2.0,
    2015: 2.8,
    2016: 4.0,
    2017: 5.5,
    2018: 7.5,
    2019: 9.5,
    2020: 11.5,
    2021: 12.0,
    2022: 12.0,
    2023: 12.5,
    2024: 11.0,
    2025: 5.0,  # January to July: the last snapshot is of 2025-07-28
}


def month_table(n: int) -> tuple[list[int], list[tuple[int, int]]]:
    """(first rank of each month, (year, month)): n papers spread over the months by weight."""
    months = []
    weights = []
    for year, w in YEAR_WEIGHTS.items():
        last = 7 if year == 2025 else 12
        for month in range(1, last + 1):
            months.append((year, month))
            weights.append(w / last)
    total = sum(weights)
    starts = []
    acc = 0.0
    for w in weights:
        starts.append(round(n * acc / total))
        acc += w
    return starts, months


# --- the generator -------------------------------------------------------------------------


@dataclass(slots=True)
class Head:
    """What other files repeat of a paper: its identity, title, date and addresses."""

    index: int
    slug: str
    arxiv_id: str | None  # as the paper row gives it (may carry a version)
    arxiv_base: str | None  # without version
    title: str | None  # as given (may be null, empty, padded)
    true_title: str
    coined: str
    year: int
    date: str
    url_abs: str | None
    url_pdf: str | None
    venue: dict
    body_of: int  # whose abstract/authors/tasks/methods this paper carries (a duplicate: its twin's)

    @property
    def url(self) -> str:
        return f"{PWC}/paper/{self.slug}"


class Archive:
    """Every record of the five files, each rebuilt on demand from (seed, kind, index)."""

    P_DUP = 0.012  # papers that are a second row of the paper before them

    def __init__(self, scale: Scale, seed: int):
        self.scale = scale
        self.seed = seed
        n = scale.papers
        self.month_starts, self.months = month_table(n)
        step = int(n * 0.6180339887) | 1
        while math.gcd(step, n) != 1:
            step += 2
        self.rank_step = step
        self.rank_offset = random.Random(f"{seed}:rank").randrange(n)
        self._check_capacity()
        self.method = lru_cache(maxsize=20_000)(self._method)
        self.dataset_name = lru_cache(maxsize=20_000)(self._dataset_name)

    def rng(self, kind: str, index: int) -> random.Random:
        return random.Random(f"{self.seed}:{kind}:{index}")

    def _check_capacity(self) -> None:
        starts = [*self.month_starts, self.scale.papers]
        for m, (year, month) in enumerate(self.months):
            size = starts[m + 1] - starts[m]
            cap = 999 if (year, month) < (2007, 4) else 9_999 if year < 2015 else 99_999
            if size > cap:
                raise SystemExit(
                    f"--papers too large: {size} papers in {year}-{month:02d} overflow arXiv ids"
                )

    # --- papers ---------------------------------------------------------------------------

    def _candidate(self, i: int, x: float) -> bool:
        """Whether paper i is a duplicate of i-1 if i-1 is not one itself (x: its first draw)."""
        if i in SHOWCASE_DUPS:
            return True
        if i in SHOWCASE_PAPERS or i + 1 in SHOWCASE_DUPS:
            return False
        return x < self.P_DUP

    def _is_candidate(self, i: int) -> bool:
        return self._candidate(i, self.rng("paper", i).random())

    def _dup_kind(self, r: random.Random, prev_arxiv: str | None, i: int) -> str:
        x = r.random()
        kind = SHOWCASE_DUPS.get(i) or (
            "same_arxiv" if x < 0.6 else "arxiv_slug" if x < 0.75 else "conference"
        )
        if prev_arxiv is None or (kind == "arxiv_slug" and "/" in prev_arxiv):
            return "conference"  # no arXiv id to share (or none that makes an arxiv-YYMM-NNNNN slug)
        return kind

    def head(self, i: int) -> Head:
        r = self.rng("paper", i)
        if self._candidate(i, r.random()) and i > 0 and not self._is_candidate(i - 1):
            return self._duplicate(self._base(i - 1), r, i)
        return self._base(i, r)

    def _next_is_conference_twin(self, i: int, arxiv: str | None) -> bool:
        if i + 1 >= self.scale.papers:
            return False
        r = self.rng("paper", i + 1)
        twin = self._candidate(i + 1, r.random()) and not self._is_candidate(i)
        return twin and self._dup_kind(r, arxiv, i + 1) == "conference"

    def _base(self, i: int, r: random.Random | None = None) -> Head:
        if r is None:
            r = self.rng("paper", i)
            r.random()
        r.random()  # the draw _dup_kind reads when this paper is a duplicate: keep the streams aligned
        rank = (i * self.rank_step + self.rank_offset) % self.scale.papers
        m = bisect.bisect_right(self.month_starts, rank) - 1
        year, month = self.months[m]
        # the paper's rank within its month, spread over the month's id space (gaps, as arXiv has)
        size = (
            self.month_starts[m + 1] if m + 1 < len(self.months) else self.scale.papers
        ) - self.month_starts[m]
        cap = 999 if (year, month) < (2007, 4) else 9_999 if year < 2015 else 99_999
        spread = max(1, min(4, cap // max(1, size)))
        number = 1 + (rank - self.month_starts[m]) * spread + r.randrange(spread)
        name = coined(i)
        show = SHOWCASE_PAPERS.get(i)
        true_title = self._title(r, name)
        title: str | None = true_title
        bands = {
            "title_null": 0.0005,
            "title_empty": 0.002,
            "title_padded": 0.01,
            "title_latex": 0.02,
            "title_long": 0.035,
        }
        x = draw(r, bands.get(show))
        if x < 0.001:
            title = None
        elif x < 0.003:
            title = ""
        elif x < 0.013:
            title = r.choice(("  ", " ", "\t")) + true_title + r.choice((" ", "  ", "\n"))
        elif x < 0.033:
            odd = r.choice(TITLE_ODDITIES)
            title = f"{odd} {true_title}" if r.random() < 0.5 else f"{true_title} with {odd}"
        elif x < 0.036:
            title = self._long_title(r, true_title)
        words_ = slugify(title or true_title).split("-")
        slug_words = words_[:6]
        if name.lower() not in slug_words:
            slug_words = [name.lower(), *words_[:5]]
        slug = "-".join(slug_words)

        no_arxiv = {"arxiv": 1.0, "arxiv_version": 1.0, "old_style": 1.0}.get(
            show, 0.0 if show and show.startswith("venue") else None
        )
        has_arxiv = (year, month) >= (1991, 8) and draw(r, no_arxiv) >= 0.2
        arxiv_base = arxiv = None
        yymm = f"{year % 100:02d}{month:02d}"
        if has_arxiv:
            if (year, month) < (2007, 4):
                archive = r.choice(("cs", "cs", "cs", "math", "physics", "cond-mat", "q-bio", "hep-th"))
                arxiv_base = f"{archive}/{yymm}{number:03d}"
            elif year < 2015:
                arxiv_base = f"{yymm}.{number:04d}"
            else:
                arxiv_base = f"{yymm}.{number:05d}"
            arxiv = arxiv_base + (
                f"v{r.randint(1, 3)}" if draw(r, 0.0 if show == "arxiv_version" else None) < 0.02 else ""
            )
        if show == "old_style":  # an archive no other paper uses, so the id stays unique
            year, month = 1996, 6
            arxiv = arxiv_base = f"cmp-lg/9606{i:03d}"
            has_arxiv = True
        day = r.randint(1, 28)
        x = draw(r, {"date_empty": 0.01, "date_future": 0.031}.get(show))
        if x < 0.03:
            date = ""
        elif x < 0.032:
            date = (
                f"{r.choice((2025, 2026, 2026, 2027))}-{r.randint(8, 12):02d}-{day:02d}"  # after the snapshot
            )
        else:
            date = f"{year}-{month:02d}-{day:02d}"
        venue = self._venue(r, i, name, year, month, arxiv_base, show)
        if has_arxiv and draw(r, 1.0 if show else None) > 0.03:
            version = f"v{r.randint(1, 4)}" if r.random() < 0.6 else ""
            scheme = "http" if r.random() < 0.05 else "https"
            url_abs = f"{scheme}://arxiv.org/abs/{arxiv_base}{version}"
            url_pdf = f"{scheme}://arxiv.org/pdf/{arxiv_base}{version}.pdf"
        else:
            url_abs, url_pdf = venue.pop("url_abs"), venue.pop("url_pdf")
        venue.pop("url_abs", None)
        venue.pop("url_pdf", None)
        if self._next_is_conference_twin(i, arxiv_base):
            venue["conference"] = f"{slug}-1"
        return Head(
            i, slug, arxiv, arxiv_base, title, true_title, name, year, date, url_abs, url_pdf, venue, i
        )

    def _title(self, r: random.Random, name: str) -> str:
        t = r.random()
        adj, adj2 = r.choice(TITLE_ADJ).capitalize(), r.choice(TITLE_ADJ)
        noun, task = r.choice(TITLE_NOUNS), r.choice(BASE_TASKS)
        if t < 0.45:
            return f"{name}: {adj} {adj2} {noun} for {task}"
        if t < 0.7:
            return f"{adj} {noun} {r.choice(words.TITLE_LINKS)} {name}"
        if t < 0.85:
            return f"{name}: Towards {adj2} {noun} in {task}"
        return f"Learning {noun} with {name} {r.choice(TITLE_NOUNS)}"

    def _long_title(self, r: random.Random, title: str) -> str:
        parts = [title, ":"]
        while sum(len(p) + 1 for p in parts) < r.randint(255, 330):
            parts.append(f"{r.choice(TITLE_ADJ)} {r.choice(words.TITLE_WORDS)} {r.choice(words.TITLE_LINKS)}")
        return " ".join(parts) + " " + r.choice(BASE_TASKS)

    def _venue(
        self, r: random.Random, i: int, name: str, year: int, month: int, arxiv: str | None, show: str | None
    ) -> dict:
        """Conference fields, and the addresses of a paper that is not (only) on arXiv."""
        v = {
            "nips_id": None,
            "openreview_id": None,
            "proceeding": None,
            "conference": None,
            "conference_url_abs": None,
            "conference_url_pdf": None,
        }
        low = name.lower()
        if (
            arxiv is not None and draw(r, 1.0 if show else None) > 0.2
        ):  # arXiv only; its odd non-arXiv url_abs:
            v["url_abs"], v["url_pdf"] = r.choice(
                (
                    (f"https://{low}.github.io/paper.pdf", f"https://{low}.github.io/paper.pdf"),
                    (f"https://www.semanticscholar.org/paper/{r.getrandbits(160):040x}", ""),
                )
            )
            return v
        kind = r.choices(
            ("openreview", "acl", "cvf", "neurips", "doi", "pdf", "journal", "text", "none"),
            (25, 15, 10, 10, 15, 10, 10, 3, 2),
        )[0]
        if show and show.startswith("venue_"):
            kind = show.removeprefix("venue_")
        hexid = f"{r.getrandbits(128):032x}"
        venue = r.choice(PROCEEDING_VENUES)
        if kind == "openreview":
            oid = "".join(
                r.choice("abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ0123456789_-") for _ in range(10)
            )
            v["openreview_id"] = oid
            venue = "iclr"
            abs_, pdf = f"https://openreview.net/forum?id={oid}", f"https://openreview.net/pdf?id={oid}"
        elif kind == "acl":
            n = r.randint(1, 900)
            if year >= 2020:
                abs_ = f"https://aclanthology.org/{year}.acl-long.{n}/"
                pdf = f"https://aclanthology.org/{year}.acl-long.{n}.pdf"
            else:
                abs_ = f"https://www.aclweb.org/anthology/P{year % 100:02d}-{n:04d}/"
                pdf = f"https://www.aclweb.org/anthology/P{year % 100:02d}-{n:04d}.pdf"
            venue = "acl"
        elif kind == "cvf":
            conf = r.choice(("CVPR", "ICCV", "WACV"))
            stem = f"{r.choice(LAST_NAMES).replace(' ', '_')}_{name}_{conf}_{year}_paper"
            abs_ = f"https://openaccess.thecvf.com/content_{conf}_{year}/html/{stem}.html"
            pdf = f"https://openaccess.thecvf.com/content_{conf}_{year}/papers/{stem}.pdf"
            venue = conf.lower()
        elif kind == "neurips":
            v["nips_id"] = hexid
            abs_ = f"https://papers.nips.cc/paper/{year}/hash/{hexid}-Abstract.html"
            pdf = f"https://papers.nips.cc/paper/{year}/file/{hexid}-Paper.pdf"
            venue = "neurips"
        elif kind == "doi":
            abs_ = f"https://doi.org/10.{r.randint(1000, 9999)}/{low}.{year}.{r.randint(10, 99999)}"
            pdf = r.choice(("", None, abs_))
        elif kind == "pdf":
            host = r.choice(
                ("www.jmlr.org/papers/volume", "proceedings.mlr.press/v", "www.ijcai.org/proceedings/")
            )
            abs_ = pdf = f"https://{host}{r.randint(1, 250)}/{low}{year % 100:02d}a.pdf"
        elif kind == "journal":
            abs_ = r.choice(
                (
                    f"https://www.sciencedirect.com/science/article/pii/S{r.randint(10**15, 10**16 - 1)}",
                    f"https://ieeexplore.ieee.org/document/{r.randint(1_000_000, 10_000_000)}",
                    "https://link.springer.com/chapter/10.1007/978-3-030-"
                    f"{r.randint(10000, 99999)}-{r.randint(1, 9)}_{r.randint(1, 60)}",
                    f"https://www.pnas.org/content/{r.randint(70, 120)}/{r.randint(1, 24)}/"
                    f"{r.randint(100, 9999)}",
                )
            )
            pdf = r.choice(("", None, abs_ + ".full.pdf"))
        elif kind == "text":  # a URL with text around it, as some rows have
            url = f"https://www.jmlr.org/papers/v{r.randint(1, 25)}/{low}{year % 100:02d}a.html"
            abs_ = r.choice(
                (f"Available at {url}", f"<{url}>", f"{url} (accessed {year + 1})", f"[{url}]({url})")
            )
            pdf = ""
        else:
            abs_, pdf = r.choice((("", ""), (None, None)))
        v["url_abs"], v["url_pdf"] = abs_, pdf
        if r.random() < 0.7 and kind not in ("doi", "journal", "none"):
            v["proceeding"] = f"{venue}-{year}-{month}"
            if r.random() < 0.4:
                v["conference_url_abs"] = abs_
                v["conference_url_pdf"] = pdf
        return v

    def _duplicate(self, prev: Head, r: random.Random, i: int) -> Head:
        """A second row of the paper before: the same arXiv id under slug x-1 or arxiv-YYMM-NNNNN,
        or its conference version (same title, no arXiv id: two papers, not one)."""
        kind = self._dup_kind(r, prev.arxiv_base, i)
        venue = dict.fromkeys(prev.venue)
        if kind == "same_arxiv":
            arxiv = prev.arxiv_base + ("v2" if r.random() < 0.3 else "")
            return Head(
                i,
                f"{prev.slug}-1",
                arxiv,
                prev.arxiv_base,
                prev.title,
                prev.true_title,
                prev.coined,
                prev.year,
                prev.date,
                prev.url_abs,
                prev.url_pdf,
                venue,
                prev.index,
            )
        if kind == "arxiv_slug":
            slug = "arxiv-" + prev.arxiv_base.replace(".", "-")
            title = None if r.random() < 0.3 else prev.true_title
            url_abs = f"https://arxiv.org/abs/{prev.arxiv_base}"
            return Head(
                i,
                slug,
                prev.arxiv_base,
                prev.arxiv_base,
                title,
                prev.true_title,
                prev.coined,
                prev.year,
                "",
                url_abs,
                url_abs.replace("/abs/", "/pdf/") + ".pdf",
                venue,
                prev.index,
            )
        year = min(prev.year + 1, 2025)
        oid = f"{r.getrandbits(40):010x}"
        venue.update(
            openreview_id=oid,
            proceeding=f"{r.choice(PROCEEDING_VENUES)}-{year}-{r.randint(1, 12)}",
            conference_url_abs=f"https://openreview.net/forum?id={oid}",
            conference_url_pdf=f"https://openreview.net/pdf?id={oid}",
        )
        return Head(
            i,
            f"{prev.slug}-1",
            None,
            None,
            prev.title,
            prev.true_title,
            prev.coined,
            year,
            f"{year}-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}",
            f"https://openreview.net/forum?id={oid}",
            f"https://openreview.net/pdf?id={oid}",
            venue,
            prev.index,
        )

    def paper(self, i: int) -> dict:
        h = self.head(i)
        r = self.rng("body", h.body_of)
        show = SHOWCASE_PAPERS.get(h.body_of)
        abstract = self._abstract(r, h, show)
        authors = self._authors(r, show)
        tasks = []
        for _ in range(r.choices((0, 1, 2, 3, 4, 6), (10, 30, 28, 17, 10, 5))[0]):
            k = self._skewed(r, self.scale.tasks)
            tasks.append(self.task_name(k))
        if r.random() < 0.003:
            tasks.append(r.choice(PAPER_TASK_ODDITIES))
        methods = []
        n_methods = r.choices((0, 1, 2, 3, 5, 8, 12), (35, 15, 15, 12, 12, 8, 3))[0]
        for j in dict.fromkeys(self._skewed(r, self.scale.methods) for _ in range(n_methods)):
            methods.append(self.method(j)["embedded"])
        short = None
        if r.random() < 0.3 and abstract:
            short = abstract.split(". ")[0][:200]
        v = h.venue
        reproduces = None
        if r.random() < 0.001 and i > 10:
            reproduces = self.head(self._hash_index("repro", i, i)).url
        return {
            "paper_url": h.url,
            "arxiv_id": h.arxiv_id,
            "nips_id": v["nips_id"],
            "openreview_id": v["openreview_id"],
            "title": h.title,
            "abstract": abstract,
            "short_abstract": short,
            "url_abs": h.url_abs,
            "url_pdf": h.url_pdf,
            "proceeding": v["proceeding"],
            "authors": authors,
            "tasks": tasks,
            "date": h.date,
            "methods": methods,
            "conference": v["conference"],
            "conference_url_abs": v["conference_url_abs"],
            "conference_url_pdf": v["conference_url_pdf"],
            "reproduces_paper": reproduces,
        }

    def _skewed(self, r: random.Random, n: int) -> int:
        """An index in [0, n) with a heavy head (log-uniform): a few tasks, methods and datasets
        appear in most papers and tables, most in a handful."""
        return min(n - 1, int(n ** r.random()) - 1)

    def _hash_index(self, kind: str, key: int, n: int) -> int:
        return self.rng(kind, key).randrange(n)

    def _abstract(self, r: random.Random, h: Head, show: str | None) -> str | None:
        x = draw(r, 0.005 if show == "abstract_empty" else None)
        if x < 0.003:
            return None
        if x < 0.013:
            return ""
        name = h.coined
        sentences = [r.choice(words.ABSTRACT_OPENERS) + "."]
        for _ in range(r.randint(4, 12)):
            y = r.random()
            if y < 0.35:
                sentences.append(
                    f"We {r.choice(words.ABSTRACT_VERBS)} {name}, {r.choice(words.ABSTRACT_OBJECTS)} "
                    f"that {r.choice(words.ABSTRACT_CLAIMS)}."
                )
            elif y < 0.6:
                sentences.append(
                    f"Experiments on {r.choice(FAMOUS_DATASETS).strip()} and "
                    f"{r.choice(FAMOUS_DATASETS).strip()} "
                    f"show that {name} {r.choice(words.ABSTRACT_CLAIMS)}, with "
                    f"{r.randint(2, 40)}.{r.randint(0, 9)}% fewer errors than the strongest baseline."
                )
            elif y < 0.75:
                sentences.append(
                    rf"We prove a regret bound of $O(\sqrt{{T \log {r.choice('KNd')}}})$ for "
                    f"{r.choice(TITLE_ADJ)} {r.choice(TITLE_NOUNS)}."
                )
            elif y < 0.9:
                sentences.append(
                    f"Unlike prior {r.choice(TITLE_NOUNS)}, our {r.choice(TITLE_ADJ)} formulation "
                    f"{r.choice(words.ABSTRACT_CLAIMS)} on {r.choice(BASE_TASKS).lower()}."
                )
            else:
                sentences.append(f"Code is available at https://github.com/{name.lower()}-lab/{name}.")
        if draw(r, 0.0 if show == "abstract_crlf" else None) < 0.05:  # pasted from a PDF, Windows line ends
            return "\r\n".join(" ".join(sentences[k : k + 2]) for k in range(0, len(sentences), 2))
        text = " ".join(sentences)
        if r.random() < 0.02:
            text = f"  {text}\n"
        return text

    def _authors(self, r: random.Random, show: str | None) -> list[str]:
        x = draw(r, 0.0055 if show == "many_authors" else None)
        if x < 0.005:
            return []
        n = (
            120 + r.randint(0, 200)
            if x < 0.006
            else r.choices((1, 2, 3, 4, 5, 6, 8, 12), (8, 15, 20, 20, 14, 10, 8, 5))[0]
        )
        out = []
        for _ in range(n):
            if r.random() < 0.04:
                out.append(r.choice(words.CJK_NAMES))
                continue
            first, last = r.choice(words.FIRST_NAMES), r.choice(LAST_NAMES)
            name = f"{first} {last}" if r.random() < 0.85 else f"{first[0]}. {last}"
            if r.random() < 0.01:
                name = f" {name} "
            out.append(name)
        return out

    # --- tasks, methods, datasets (the vocabularies) --------------------------------------

    def task_name(self, k: int) -> str:
        if k < len(BASE_TASKS):
            return BASE_TASKS[k]
        k -= len(BASE_TASKS)
        if k < len(TASK_NEAR_DUPLICATES):
            return TASK_NEAR_DUPLICATES[k]
        k -= len(TASK_NEAR_DUPLICATES)
        mods = len(TASK_MODIFIERS)
        base = BASE_TASKS[(k // mods) % len(BASE_TASKS)]
        name = f"{TASK_MODIFIERS[k % mods]} {base}"
        rounds = k // (mods * len(BASE_TASKS))
        return name if rounds == 0 else f"{name} ({rounds + 1})"

    def task_url(self, name: str) -> str:
        return f"{PWC}/task/{slugify(name)}"

    def _method(self, j: int) -> dict:
        """methods.json record j, and (under "embedded") the object papers carry for it."""
        r = self.rng("method", j)
        if j < len(FAMOUS_METHODS):
            name, full_name, collection = FAMOUS_METHODS[j]
        else:
            c = coined(j, namespace=1)
            name = f"{c} {r.choice(METHOD_NOUNS)}"
            full_name = (
                name if r.random() < 0.5 else f"{c} {r.choice(TITLE_ADJ).capitalize()} {name.split()[1]}"
            )
            collection = r.choice(COLLECTIONS)[0]
        collections = [
            collection,
            *(r.choice(COLLECTIONS)[0] for _ in range(r.choices((0, 1, 2), (70, 22, 8))[0])),
        ]
        collections = list(dict.fromkeys(collections))
        by_name = {c[0]: c for c in COLLECTIONS}
        h = self.head(self._hash_index("method-paper", j, self.scale.papers))
        show = SHOWCASE_METHODS.get(j)
        x = draw(r, {"paper_null": 0.1, "paper_string": 0.26, "paper_ghost": 0.28}.get(show))
        if x < 0.25:
            paper = None
        elif x < 0.27:
            paper = h.slug  # a bare string, as some vintages have
        elif x < 0.29:
            ghost = coined(self.scale.papers + j).lower()
            paper = {
                "title": f"{ghost.capitalize()}: a paper of another vintage",
                "url": f"{PWC}/paper/{ghost}",
            }
        else:
            paper = {"title": h.true_title, "url": h.url}
        y = draw(r, {"year_2000": 0.05, "year_null": 0.01}.get(show))
        introduced = None if y < 0.02 else 2000 if y < 0.07 else h.year
        source_url = h.url_abs if paper is not None and r.random() < 0.9 else None
        snippet = None
        if r.random() < 0.6:
            owner, repo = self._official_repo(h)
            sha = f"{r.getrandbits(28):07x}"
            line = r.randint(1, 400)
            file_ = f"{r.choice(words.DIRS) or 'src'}/{r.choice(words.FILES)}.py"
            snippet = (
                f"https://github.com/{owner}/{repo}/blob/{sha}/{file_}#L{line}-L{line + r.randint(5, 80)}"
            )
        elif r.random() < 0.3:
            snippet = ""
        description = self._method_description(r, name, full_name)
        slug = slugify(name)
        main = by_name[collections[0]]
        area = AREAS[main[1]]
        main_collection = {
            "name": main[0],
            "description": f"**{main[0]}** are a family of methods in {area[1].lower()}.",
            "parent": main[2],
            "area": area[1],
        }
        embedded = {
            "name": name,
            "full_name": full_name,
            "description": description,
            "introduced_year": introduced,
            "source_url": source_url,
            "source_title": h.true_title if source_url else None,
            "code_snippet_url": snippet,
            "main_collection": main_collection if r.random() > 0.03 else None,
        }
        record = {
            "url": f"{PWC}/method/{slug}",
            "name": name,
            "full_name": full_name,
            "description": description,
            "paper": paper,
            "introduced_year": introduced,
            "source_url": source_url,
            "source_title": embedded["source_title"],
            "code_snippet_url": snippet,
            # the site's own figure: not recounted from the papers file, as in the real dumps
            "num_papers": max(0, int(self.scale.papers * 0.25 / (j + 1) ** 0.85 * r.uniform(0.6, 1.4))),
            "collections": [
                {"collection": c, "area_id": AREAS[by_name[c][1]][0], "area": AREAS[by_name[c][1]][1]}
                for c in collections
            ],
        }
        return {"record": record, "embedded": embedded}

    def _method_description(self, r: random.Random, name: str, full_name: str) -> str:
        parts = [f"**{name}**" + (f", or **{full_name}**," if full_name != name else "") + " is a "]
        parts.append(
            f"{r.choice(TITLE_ADJ)} {r.choice(METHOD_NOUNS).lower()} that {r.choice(words.ABSTRACT_CLAIMS)}."
        )
        for _ in range(r.randint(2, 9)):
            y = r.random()
            if y < 0.4:
                parts.append(
                    f"\r\n\r\nGiven an input $x$, it computes $y = \\sigma(W x + b)$ where $W$ is "
                    f"{r.choice(('learned', 'shared', 'low-rank', 'sparse'))} and "
                    f"{r.choice(words.ABSTRACT_CLAIMS)}."
                )
            elif y < 0.7:
                parts.append(
                    f" Intuitively, it {r.choice(words.ABSTRACT_CLAIMS)} because the {r.choice(TITLE_NOUNS)} "
                    f"are {r.choice(TITLE_ADJ)} rather than fixed."
                )
            else:
                parts.append(
                    f"\r\n\r\nImage Source: [{name} paper](https://arxiv.org/abs/"
                    f"{r.randint(15, 24)}{r.randint(1, 12):02d}.{r.randint(1, 20000):05d})"
                )
        return "".join(parts)

    def _dataset_name(self, d: int) -> str:
        if d < len(FAMOUS_DATASETS):
            return FAMOUS_DATASETS[d]
        r = self.rng("dataset-name", d)
        c = coined(d, namespace=2)
        form = r.random()
        if form < 0.3:
            return f"{c}-{r.choice(('QA', 'Bench', 'Seg', 'Det', 'NLI', 'VQA'))}"
        if form < 0.55:
            return f"{c} {r.choice((1, 5, 10, 50, 100))}K"
        if form < 0.7:
            return c.upper()
        if form < 0.85:
            return f"{c} v{r.randint(1, 3)}"
        return c

    def dataset(self, d: int) -> dict:
        r = self.rng("dataset", d)
        name = self.dataset_name(d)
        slug = slugify(name)
        if d < len(FAMOUS_DATASETS) and slug in {slugify(n) for n in FAMOUS_DATASETS[:d]}:
            slug += "-1"  # the near-duplicate's own page
        h = self.head(self._hash_index("dataset-paper", d, self.scale.papers))
        x = r.random()
        paper = None if x < 0.2 else {"title": h.true_title, "url": h.url}
        tasks = list(
            dict.fromkeys(self.task_name(self._skewed(r, self.scale.tasks)) for _ in range(r.randint(0, 4)))
        )
        loaders = []
        if r.random() < 0.3:
            loaders.append(
                {
                    "url": f"https://huggingface.co/datasets/{slugify(name)}",
                    "repo": "https://github.com/huggingface/datasets",
                    "frameworks": ["pytorch", "tf", "jax"][: r.randint(1, 3)],
                }
            )
        if r.random() < 0.1:
            loaders.append(
                {
                    "url": "https://pytorch.org/vision/stable/datasets.html",
                    "repo": "https://github.com/pytorch/vision",
                    "frameworks": ["pytorch"],
                }
            )
        homepage = r.choice(
            (
                f"https://{slugify(name) or 'data'}.github.io/",
                f"http://www.{slugify(name) or 'data'}.org",
                "",
                None,
            )
        )
        variants = [name]
        if r.random() < 0.3:
            variants.append(f"{name.strip()} (test)")
        return {
            "url": f"{PWC}/dataset/{slug}",
            "name": name,
            "full_name": name
            if r.random() < 0.6
            else f"{name.strip()} {r.choice(('Benchmark', 'Dataset', 'Corpus'))}",
            "description": (
                f"The **{name.strip()}** dataset contains {r.randint(1, 900)}{r.choice('KM')} "
                f"{r.choice(('images', 'sentences', 'videos', 'graphs', 'utterances'))} for "
                f"{(tasks[0] if tasks else 'evaluation').lower()}.\r\n\r\nSource: [{h.true_title}]({h.url})"
            ),
            "homepage": homepage,
            "paper": paper,
            "introduced_date": None
            if r.random() < 0.25
            else f"{h.year}-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}",
            "modalities": list(dict.fromkeys(r.choice(MODALITIES) for _ in range(r.randint(0, 2)))),
            "tasks": [{"task": t, "url": self.task_url(t)} for t in tasks],
            "languages": []
            if r.random() < 0.6
            else list(dict.fromkeys(r.choice(LANGUAGES) for _ in range(r.randint(1, 3)))),
            "variants": variants,
            "num_papers": max(0, int(self.scale.papers * 0.05 / (d + 1) ** 0.8 * r.uniform(0.5, 1.5))),
            "data_loaders": loaders,
        }

    # --- links ----------------------------------------------------------------------------

    def _official_repo(self, h: Head) -> tuple[str, str]:
        r = self.rng("repo", h.body_of)
        first, last = r.choice(words.FIRST_NAMES), r.choice(LAST_NAMES)
        x = r.random()
        owner = (
            ascii_handle(first, last)
            if x < 0.4
            else f"{h.coined}-Lab"
            if x < 0.6
            else f"{ascii_handle('', last).capitalize()}{r.randint(1, 99)}"
            if x < 0.8
            else r.choice(
                ("google-research", "facebookresearch", "microsoft", "NVlabs", "allenai", "ShannonAI")
            )
        )
        name = (
            h.coined
            if r.random() < 0.5
            else h.coined.lower()
            if r.random() < 0.5
            else f"{h.coined}-{r.choice(('pytorch', 'official', 'code'))}"
        )
        return owner, name

    def links_of(self, i: int, huge_cap: int) -> Iterator[dict]:
        r = self.rng("links", i)
        show = SHOWCASE_LINKS.get(i)
        x = draw(r, 0.1 if show else None)
        if i == self.scale.papers // 3 or x < 5 / self.scale.papers:  # the paper with hundreds of links
            n = r.randint(max(2, huge_cap // 7), huge_cap)
        elif x < 0.38:
            n = 1
            while r.random() < 0.25:
                n += 1
        else:
            return
        h = self.head(i)
        seen = set()
        for k in range(n):
            link = self._link(r, h, k, show if k == 0 else None)
            while link["repo_url"] in seen:  # one row per paper x repository
                link = self._link(r, h, k + n)
            seen.add(link["repo_url"])
            yield link

    def _link(self, r: random.Random, h: Head, k: int, show: str | None = None) -> dict:
        if k == 0:
            owner, name = self._official_repo(h)
            official = r.random() < 0.5
        elif r.random() < 0.3:
            owner, name = r.choice(POPULAR_REPOS).split("/")
            official = False
        else:
            first, last = r.choice(words.FIRST_NAMES), r.choice(LAST_NAMES)
            owner = ascii_handle(first, last) + (str(r.randint(1, 999)) if r.random() < 0.5 else "")
            name = f"{h.coined}-{r.choice(('pytorch', 'tf', 'jax', 'reimplementation', 'keras', 'paddle'))}"
            if k > 5:
                name += f"-{k}"
            official = False
        url = self._messy_repo_url(r, owner, name, show)
        fw = r.choice(FRAMEWORKS)
        return {
            "paper_url": h.url,
            "paper_title": h.title if r.random() > 0.01 else h.true_title.upper(),
            "paper_arxiv_id": h.arxiv_base,
            "paper_url_abs": h.url_abs,
            "paper_url_pdf": h.url_pdf,
            "repo_url": url,
            "is_official": official,
            "mentioned_in_paper": official and r.random() < 0.7,
            "mentioned_in_github": r.random() < (0.8 if official else 0.15),
            "framework": fw,
        }

    def _messy_repo_url(self, r: random.Random, owner: str, name: str, show: str | None = None) -> str:
        x = draw(r, 0.01 if show == "gitlab" else 0.5 if show else None)
        host = "github.com"
        if x < 0.015:
            host = "gitlab.com"
        elif x < 0.018:
            host = "bitbucket.org"
        elif x < 0.023:
            host = "huggingface.co"
        elif x < 0.026:
            host = "gitee.com"
        url = f"https://{host}/{owner}/{name}"
        bands = {
            "empty": 0.001,
            "homepage": 0.005,
            "tree": 0.02,
            "git": 0.05,
            "pct20": 0.057,
            "markdown": 0.06,
        }
        y = draw(r, {**bands, "case": 0.1}.get(show, 0.5 if show else None))
        if y < 0.003:
            return ""
        if y < 0.011:  # a homepage, not a repository
            return r.choice(
                (
                    f"https://{owner.lower()}.github.io/{name}/",
                    f"https://sites.google.com/view/{name.lower()}",
                    f"https://www.{name.lower()}.org",
                    f"https://{name.lower()}.readthedocs.io/en/latest/",
                )
            )
        if y < 0.041:
            return (
                url
                + f"/tree/{r.choice(('master', 'main', 'dev'))}/"
                + f"{r.choice(words.DIRS) or 'examples'}/{name.lower()}"
            )
        if y < 0.046:
            return url + f"/blob/main/{r.choice(words.FILES)}.py"
        if y < 0.056:
            return url + ".git"
        if y < 0.059:
            return url + "%20" if r.random() < 0.5 else f"https://{host}/{owner}/{name}%20code"
        if y < 0.063:  # markdown residue
            return r.choice((url + ")", f"[{url}]({url})", f"[{url}]", url + "**", f"<{url}>"))
        if y < 0.083:
            return url + "/"
        if y < 0.093:
            return url.replace("https://", "http://")
        if y < 0.098:
            return url.replace("https://", "https://www.")
        if y < 0.118:  # the same repository in another case
            return f"https://{host}/{owner.lower() if r.random() < 0.5 else owner.upper()}/{name.lower()}"
        return url

    # --- evaluation tables ----------------------------------------------------------------

    def evaluation_tasks(self) -> Iterator[tuple[dict, int]]:
        """(top-level Task, number of result rows in it) until exactly scale.rows rows."""
        r = self.rng("evaluation", 0)
        state = {"rows_left": self.scale.rows, "node": 0}
        showcase = self._showcase(state)
        yield showcase, self.scale.rows - state["rows_left"]
        while state["rows_left"] > 0:
            before = state["rows_left"]
            task = self._task_node(r, state, depth=0)
            yield task, before - state["rows_left"]

    def _showcase(self, state: dict) -> dict:
        """The first top-level task: every leaderboard quirk once, whatever the scale (15 rows).

        Near-duplicate dataset names (ImageNet/Imagenet, " FB15k"/FB15k, PubMed/Pubmed) and task
        names (Supervised:/Supervised), a sentence as a dataset name, the same row and the same
        table twice, one model with two sets of values, a competition row with no paper, an
        external paper_url, a paper not in the papers file, a cost column first, a subtable
        named by "subdataset", rows without uses_additional_data, an empty metrics map, a
        task four levels deep, and the metric values "84.4%", "57.01 %", "1.82M", "-", "N/A",
        "", "YES", "0.9147 ± 0.0009", "75.8/75.5", a byte-order mark and JSON numbers."""
        state["node"] += 1
        n = self.scale.papers

        def row(j: int, suffix: str, metrics: dict, extra: bool = True) -> dict:
            h = self.head(j % n)
            out = {
                "code_links": [],
                "metrics": metrics,
                "model_links": [],
                "model_name": h.coined + suffix,
                "paper_date": h.date or None,
                "paper_title": h.true_title,
                "paper_url": h.url,
            }
            if extra:
                out["uses_additional_data"] = False
            return out

        def table(name: str, metrics: list[str], rows: list[dict], key: str = "dataset") -> dict:
            return {
                key: name,
                "dataset_citations": [],
                "dataset_links": [],
                "description": "",
                "sota": {"metrics": metrics, "rows": rows},
                "subdatasets": [],
            }

        def task(name: str, datasets: list[dict], subtasks: list[dict], categories=None) -> dict:
            return {
                "categories": categories,
                "datasets": datasets,
                "description": f"**{name}** as the archive has it.\n",
                "source_link": None,
                "subtasks": subtasks,
                "synonyms": [],
                "task": name,
            }

        first = row(40, "", {"Top 1 Accuracy": "84.4%", "Number of params": "1.82M"})
        second_setting = {**first, "metrics": {"Top 1 Accuracy": "85.1%", "Number of params": "1.82M"}}
        competition = {
            **row(40, "", {"Top 1 Accuracy": "-", "Number of params": "N/A"}),
            "model_name": "Human Performance",
            "paper_date": None,
            "paper_title": "",
            "paper_url": "",
        }
        imagenet = table(
            "ImageNet",
            ["Top 1 Accuracy", "Number of params"],
            [first, dict(first), second_setting, competition],
        )
        external = row(41, "-Large", {"Number of params": 25600000, "Top 1 Accuracy": 76.1, "GFLOPs": 4.1})
        external["paper_url"] = external["paper_title"] = "http://arxiv.org/abs/2001.09694"
        ghost = coined(n + 2_000_000).lower()
        elsewhere = {
            **row(42, "", {"Number of params": "340M", "Top 1 Accuracy": 80, "GFLOPs": "8.2G"}),
            "paper_url": f"{PWC}/paper/{ghost}",
            "paper_title": f"{ghost.capitalize()}: a paper of another vintage",
        }
        imagenet_again = table(
            "Imagenet", ["Number of params", "Top 1 Accuracy", "GFLOPs"], [external, elsewhere]
        )
        sentence = table(
            SENTENCE_DATASETS[0], ["Accuracy"], [row(43, " (ensemble)", {"Accuracy": "\ufeff93.3"})]
        )
        cifar = table(
            "CIFAR-10",
            ["Percentage correct"],
            [row(44, "", {"Percentage correct": "75.8/75.5"}, extra=False)],
        )
        cifar["subdatasets"] = [
            table(
                "CIFAR10",
                ["Percentage correct"],
                [row(45, "-v2", {"Percentage correct": ""}, extra=False)],
                key="subdataset",
            )
        ]
        fb15k_spaced = table(
            " FB15k", ["MRR", "Hits@10"], [row(46, "", {"MRR": "0.9147 ± 0.0009", "Hits@10": "57.01 %"})]
        )
        pubmed = table("PubMed", ["Accuracy"], [row(47, "", {"Accuracy": 81.5})])
        fb15k = table(
            "FB15k", ["MRR", "Hits@10"], [row(48, "", {"MRR": 0.35, "Hits@10": "62.1"}), row(49, "-XL", {})]
        )
        deepest = task(
            "Zero-Shot Supervised", [table("Pubmed", ["Accuracy"], [row(50, "", {"Accuracy": "YES"})])], []
        )
        showcase = task(
            self.task_name(0),
            [imagenet, imagenet_again, sentence, json.loads(json.dumps(sentence)), cifar],
            [
                task("Supervised:", [fb15k_spaced, pubmed], []),
                task("Supervised", [fb15k], [task("Few-Shot Supervised", [], [deepest], [])], ["Graphs"]),
            ],
            ["Computer Vision"],
        )
        state["rows_left"] -= sum(self._count_rows(t) for t, _ in self._tables_of(showcase))
        return showcase

    def _tables_of(self, task: dict) -> Iterator[tuple[dict, dict]]:
        for table in task.get("datasets", []):
            yield table, task
        for sub in task.get("subtasks", []):
            yield from self._tables_of(sub)

    def _task_node(self, r: random.Random, state: dict, depth: int) -> dict:
        k = state["node"]
        state["node"] += 1
        name = self.task_name(k)
        area = r.choice(AREAS)[1]
        source = None
        if r.random() < 0.15:
            source = r.choice(
                (
                    {"title": "NLP-progress", "url": "https://github.com/sebastianruder/NLP-progress"},
                    {
                        "title": f"{name} Leaderboard",
                        "url": f"https://{slugify(name)}.github.io/leaderboard/",
                    },
                    {"title": "Progress of AI Research", "url": "https://github.com/AI-metrics/AI-metrics"},
                )
            )
        task: dict = {
            "categories": None if r.random() < 0.1 else [] if r.random() < 0.4 else [area],
            "datasets": [],
            "description": ""
            if r.random() < 0.3
            else f"**{name}** is the task of {r.choice(words.ABSTRACT_OBJECTS)[2:]} evaluation.\n",
            "source_link": source,
            "subtasks": [],
            "synonyms": [] if r.random() < 0.9 else [name.lower(), name.replace(" ", "-")],
            "task": name,
        }
        n_tables = 0 if r.random() < 0.1 else 1 + self._geometric(r, 0.45)
        for _ in range(n_tables):
            if state["rows_left"] <= 0:
                break
            table = self._table(r, state, name, depth=0)
            task["datasets"].append(table)
            if r.random() < 0.01 and state["rows_left"] >= self._count_rows(table):  # the same table twice
                state["rows_left"] -= self._count_rows(table)
                task["datasets"].append(json.loads(json.dumps(table)))
        p_sub = (0.22, 0.12, 0.03)[depth] if depth < 3 else 0.0
        if r.random() < p_sub:
            for _ in range(1 + self._geometric(r, 0.5)):
                if state["rows_left"] <= 0:
                    break
                task["subtasks"].append(self._task_node(r, state, depth + 1))
        if r.random() < 0.01 and not task["subtasks"]:
            del task["subtasks"]  # some tasks lack the key altogether (never one with subtasks)
        return task

    def _geometric(self, r: random.Random, p_more: float) -> int:
        n = 0
        while r.random() < p_more:
            n += 1
        return n

    def _count_rows(self, table: dict) -> int:
        return len(table["sota"]["rows"]) + sum(self._count_rows(s) for s in table.get("subdatasets", []))

    def _table(self, r: random.Random, state: dict, task_name: str, depth: int) -> dict:
        x = r.random()
        if x < 0.02:
            name = r.choice(SENTENCE_DATASETS)
        else:
            name = self.dataset_name(self._skewed(r, self.scale.datasets))
        n_quality = r.choices((1, 2, 3, 4), (35, 35, 20, 10))[0]
        metric_names = list(dict.fromkeys(r.choice(QUALITY_METRICS) for _ in range(n_quality)))
        if r.random() < 0.25:
            costs = list(dict.fromkeys(r.choice(COST_METRICS) for _ in range(r.randint(1, 2))))
            metric_names = costs + metric_names if r.random() < 0.1 else metric_names + costs
        size = 1 + self._geometric(r, 0.8)
        if r.random() < 0.012:
            size = r.randint(40, 400)
        size = min(size, state["rows_left"])
        state["rows_left"] -= size
        style = r.choices(("plain", "percent", "spaced", "number", "pm", "mixed"), (45, 15, 5, 20, 5, 10))[0]
        with_extra_data = r.random() < 0.6
        rows = self._rows(r, size, metric_names, style, with_extra_data)
        table: dict = {
            "dataset": name,
            "dataset_citations": [],
            "dataset_links": [],
            "description": ""
            if r.random() < 0.6
            else f"Results on {name.strip()} for {task_name.lower()}.\n",
            "sota": {"metrics": metric_names, "rows": rows},
            "subdatasets": [],
        }
        if r.random() < 0.15:
            table["dataset_links"] = [
                {"title": f"{name.strip()} homepage", "url": f"https://{slugify(name) or 'data'}.org/"}
            ]
        if r.random() < 0.05:
            h = self.head(self._skewed(r, self.scale.papers))
            table["dataset_citations"] = [{"title": h.true_title, "url": h.url}]
        if depth == 0 and r.random() < 0.06 and state["rows_left"] > 0:
            sub = self._table(r, state, task_name, depth=1)
            if r.random() < 0.3:  # named by "subdataset", as some sota-extractor sources do
                sub = {"subdataset": sub.pop("dataset"), **sub}
            table["subdatasets"].append(sub)
        return table

    def _rows(
        self, r: random.Random, size: int, metric_names: list[str], style: str, extra: bool
    ) -> list[dict]:
        bases = {m: self._metric_base(r, m) for m in metric_names}
        rows: list[dict] = []
        while len(rows) < size:
            y = r.random()
            if rows and y < 0.01:  # the same row twice
                rows.append(json.loads(json.dumps(rows[-1])))
                continue
            if rows and y < 0.03:  # the same model again, another setting, other values
                again = json.loads(json.dumps(rows[-1]))
                again["metrics"] = {m: self._metric_value(r, m, bases[m], style) for m in again["metrics"]}
                rows.append(again)
                continue
            rows.append(self._row(r, metric_names, bases, style, extra))
        return rows

    def _row(self, r: random.Random, metric_names: list[str], bases: dict, style: str, extra: bool) -> dict:
        x = r.random()
        if x < 0.09:  # a competition entry: no paper
            model, paper_url, paper_title, paper_date = r.choice(FAMOUS_MODELS), "", "", r.choice((None, ""))
        else:
            h = self.head(
                self._skewed(r, self.scale.papers) if r.random() < 0.3 else r.randrange(self.scale.papers)
            )
            suffix = r.choice(
                ("", "", "", "-Large", "-Base", " (ensemble)", " (single model)", " + TTA", "-v2", "-XL")
            )
            model = h.coined + suffix
            paper_url, paper_title, paper_date = h.url, h.true_title, h.date or None
            if x < 0.105:  # an external address instead of the paper's page
                paper_url = paper_title = (
                    f"http://arxiv.org/abs/{h.arxiv_base}" if h.arxiv_base else h.url_abs or ""
                )
            elif x < 0.12:  # a paper the papers file does not have
                ghost = coined(self.scale.papers + 500_000 + r.randrange(500_000)).lower()
                paper_url, paper_title = (
                    f"{PWC}/paper/{ghost}",
                    f"{ghost.capitalize()}: a paper of another vintage",
                )
        metrics = {}
        if r.random() > 0.01:
            for m in metric_names:
                if r.random() < 0.93:
                    metrics[m] = self._metric_value(r, m, bases[m], style)
        code_links = []
        y = r.random()
        if y < 0.25 and paper_url.startswith(PWC):
            code_links = [
                {
                    "title": r.choice(("", "Official")),
                    "url": f"https://github.com/{model.split()[0].lower()}/{model.split()[0]}",
                }
            ]
        elif y < 0.26:
            code_links = [{"title": "NOT FOUND", "url": ""}]
        row = {
            "code_links": code_links,
            "metrics": metrics,
            "model_links": [],
            "model_name": model,
            "paper_date": paper_date,
            "paper_title": paper_title,
            "paper_url": paper_url,
        }
        if extra:
            row["uses_additional_data"] = r.random() < 0.15
        return row

    def _metric_base(self, r: random.Random, metric: str) -> tuple[float, float, int]:
        """(typical value, spread, decimals) of a metric column."""
        if metric in COST_METRICS:
            return (r.uniform(5, 600), 0.8, 1)
        if metric in {"Perplexity", "Test perplexity"}:
            return (r.uniform(10, 120), 0.3, 2)
        if metric == "FID":
            return (r.uniform(2, 50), 0.4, 2)
        if metric in {"MAE", "RMSE", "Bit per Character (BPC)", "SSIM", "AUC", "AUROC", "MRR"}:
            return (r.uniform(0.2, 0.95), 0.1, 4)
        if metric in LOW_IS_BETTER:
            return (r.uniform(1, 30), 0.4, 2)
        if metric in {"PSNR", "Average Return", "Inception score"}:
            return (r.uniform(10, 300), 0.3, 1)
        return (r.uniform(30, 95), 0.08, r.choice((1, 2, 3)))

    def _metric_value(self, r: random.Random, metric: str, base: tuple[float, float, int], style: str):
        """A value as the dumps write them: "84.4%", "57.01 %", "1.82M", "-", "N/A", numbers..."""
        typical, spread, decimals = base
        x = r.random()
        if x < 0.02:
            return "-"
        if x < 0.03:
            return "N/A"
        if x < 0.035:
            return ""
        if x < 0.037:
            return "YES"
        v = max(0.0, typical * (1 + r.uniform(-spread, spread)))
        if metric in COST_METRICS:
            if metric in {"Number of params", "Params"}:
                return r.choice((f"{v:.2f}M", f"{v:.0f}M", f"{v / 1000:.2f}B", int(v * 1e6)))
            if metric in {"FLOPS", "GFLOPs"}:
                return r.choice((f"{v:.1f}G", f"{v:.1f}", round(v, 1)))
            return f"{v:.{decimals}f}" if style != "number" else round(v, decimals)
        if style == "number":
            return round(v, decimals) if decimals else int(v)
        if style == "percent" and v <= 100:
            return f"{v:.{decimals}f}%"
        if style == "spaced" and v <= 100:
            return f"{v:.2f} %"
        if style == "pm":
            return f"{v / 100 if v > 1 else v:.4f} ± {r.uniform(0.0001, 0.01):.4f}"
        if style == "mixed":
            y = r.random()
            if y < 0.2:
                return round(v, decimals)
            if y < 0.3:
                return f"{v:.1f}/{v * 0.99:.1f}"
            if y < 0.35:
                return f"\ufeff{v:.1f}"
            if y < 0.45:
                return f"{v:.1f}%"
        return f"{v:.{decimals}f}"

    # --- the five files as record streams ---------------------------------------------------

    def papers(self) -> Iterator[tuple[dict, int]]:
        for i in range(self.scale.papers):
            yield self.paper(i), 1

    def links(self) -> Iterator[tuple[dict, int]]:
        """Exactly scale.links rows: per-paper links in paper order, then community links to
        random papers until the total is reached (a few papers whose links went elsewhere)."""
        total = self.scale.links
        huge_cap = max(4, min(700, total // 50))
        written = 0
        for i in range(self.scale.papers):
            for link in self.links_of(i, huge_cap):
                if written == total:
                    return
                written += 1
                yield link, 1
        r = self.rng("links-top-up", 0)
        while written < total:
            i = r.randrange(self.scale.papers)
            h = self.head(i)
            link = self._link(r, h, k=1 + r.randrange(3))
            if r.random() < 0.05:  # a link to a paper the papers file does not have
                ghost = coined(self.scale.papers + 1_000_000 + written).lower()
                link.update(
                    paper_url=f"{PWC}/paper/{ghost}", paper_title=ghost.capitalize(), paper_arxiv_id=None
                )
            written += 1
            yield link, 1

    def methods(self) -> Iterator[tuple[dict, int]]:
        for j in range(self.scale.methods):
            yield self.method(j)["record"], 1

    def datasets(self) -> Iterator[tuple[dict, int]]:
        for d in range(self.scale.datasets):
            yield self.dataset(d), 1


# --- Parquet schemas and the conversion to them ---------------------------------------------

TASK_LEVELS = 3  # task, subtask, sub-subtask; below that, JSON text
DATASET_LEVELS = 2  # table, subtable; below that, JSON text


def parquet_schemas():
    import pyarrow as pa

    s = pa.string()
    link = pa.struct([("title", s), ("url", s)])
    row = pa.struct(
        [
            ("code_links", pa.list_(link)),
            ("metrics", pa.map_(s, s)),
            ("model_links", pa.list_(link)),
            ("model_name", s),
            ("paper_date", s),
            ("paper_title", s),
            ("paper_url", s),
            ("uses_additional_data", pa.bool_()),
        ]
    )
    sota = pa.struct([("metrics", pa.list_(s)), ("rows", pa.list_(row))])

    def dataset_type(level: int):
        below = s if level == DATASET_LEVELS - 1 else pa.list_(dataset_type(level + 1))
        return pa.struct(
            [
                ("dataset", s),
                ("subdataset", s),
                ("dataset_citations", pa.list_(link)),
                ("dataset_links", pa.list_(link)),
                ("description", s),
                ("sota", sota),
                ("subdatasets", below),
            ]
        )

    def task_fields(level: int):
        below = s if level == TASK_LEVELS - 1 else pa.list_(pa.struct(task_fields(level + 1)))
        return [
            ("categories", pa.list_(s)),
            ("datasets", pa.list_(dataset_type(0))),
            ("description", s),
            ("source_link", link),
            ("subtasks", below),
            ("synonyms", pa.list_(s)),
            ("task", s),
        ]

    collection = pa.struct([("name", s), ("description", s), ("parent", s), ("area", s)])
    embedded_method = pa.struct(
        [
            ("name", s),
            ("full_name", s),
            ("description", s),
            ("introduced_year", pa.int64()),
            ("source_url", s),
            ("source_title", s),
            ("code_snippet_url", s),
            ("main_collection", collection),
        ]
    )
    papers = pa.schema(
        [
            ("paper_url", s),
            ("arxiv_id", s),
            ("nips_id", s),
            ("openreview_id", s),
            ("title", s),
            ("abstract", s),
            ("short_abstract", s),
            ("url_abs", s),
            ("url_pdf", s),
            ("proceeding", s),
            ("authors", pa.list_(s)),
            ("tasks", pa.list_(s)),
            ("date", s),
            ("methods", pa.list_(embedded_method)),
            ("conference", s),
            ("conference_url_abs", s),
            ("conference_url_pdf", s),
            ("reproduces_paper", s),
        ]
    )
    links = pa.schema(
        [
            ("paper_url", s),
            ("paper_title", s),
            ("paper_arxiv_id", s),
            ("paper_url_abs", s),
            ("paper_url_pdf", s),
            ("repo_url", s),
            ("is_official", pa.bool_()),
            ("mentioned_in_paper", pa.bool_()),
            ("mentioned_in_github", pa.bool_()),
            ("framework", s),
        ]
    )
    methods = pa.schema(
        [
            ("url", s),
            ("name", s),
            ("full_name", s),
            ("description", s),
            ("paper", link),
            ("introduced_year", pa.int64()),
            ("source_url", s),
            ("source_title", s),
            ("code_snippet_url", s),
            ("num_papers", pa.int64()),
            ("collections", pa.list_(pa.struct([("collection", s), ("area_id", s), ("area", s)]))),
        ]
    )
    datasets = pa.schema(
        [
            ("url", s),
            ("name", s),
            ("full_name", s),
            ("description", s),
            ("homepage", s),
            ("paper", link),
            ("introduced_date", s),
            ("modalities", pa.list_(s)),
            ("tasks", pa.list_(pa.struct([("task", s), ("url", s)]))),
            ("languages", pa.list_(s)),
            ("variants", pa.list_(s)),
            ("num_papers", pa.int64()),
            ("data_loaders", pa.list_(pa.struct([("url", s), ("repo", s), ("frameworks", pa.list_(s))]))),
        ]
    )
    evaluation = pa.schema(task_fields(0))
    return {
        "papers": papers,
        "links": links,
        "evaluation": evaluation,
        "methods": methods,
        "datasets": datasets,
    }


def metric_text(value) -> str | None:
    """A metric value as the Parquet map holds it: strings as they are, numbers as JSON text."""
    if value is None or isinstance(value, str):
        return value
    return json.dumps(value)


def _parquet_dataset(table: dict, level: int) -> dict:
    out = dict(table)
    sota = table.get("sota")
    if sota is not None:
        rows = []
        for row in sota.get("rows", []):
            row = dict(row)
            row["metrics"] = [(k, metric_text(v)) for k, v in row["metrics"].items()]
            rows.append(row)
        out["sota"] = {"metrics": sota.get("metrics"), "rows": rows}
    subs = table.get("subdatasets")
    if subs is not None:
        out["subdatasets"] = (
            json.dumps(subs)
            if level == DATASET_LEVELS - 1
            else [_parquet_dataset(d, level + 1) for d in subs]
        )
    return out


def _parquet_task(task: dict, level: int) -> dict:
    out = dict(task)
    out["datasets"] = [_parquet_dataset(d, 0) for d in task.get("datasets") or []]
    subs = task.get("subtasks")
    if subs is not None:
        out["subtasks"] = (
            json.dumps(subs) if level == TASK_LEVELS - 1 else [_parquet_task(t, level + 1) for t in subs]
        )
    return out


def to_parquet_record(kind: str, record: dict) -> dict:
    if kind == "evaluation":
        return _parquet_task(record, 0)
    if kind == "methods" and isinstance(record["paper"], str):
        return {**record, "paper": {"title": None, "url": record["paper"]}}
    return record


# --- writers ------------------------------------------------------------------------------

JSON_NAMES = {
    "papers": "papers-with-abstracts.json.gz",
    "links": "links-between-papers-and-code.json.gz",
    "evaluation": "evaluation-tables.json.gz",
    "methods": "methods.json.gz",
    "datasets": "datasets.json.gz",
}
PARQUET_NAMES = {
    "papers": "papers-with-abstracts",
    "links": "links-between-paper-and-code",  # sic: the Hugging Face repository's name
    "evaluation": "evaluation-tables",
    "methods": "methods",
    "datasets": "datasets",
}
ROW_GROUP = {"papers": 2_000, "links": 10_000, "evaluation": 50, "methods": 1_000, "datasets": 1_000}
# Weight (records, or result rows for the evaluation tables) per shard: 4 shards at full scale
# for papers and evaluation tables, as on Hugging Face; one for the others.
SHARD_WEIGHT = {"papers": 144_000, "links": 10**9, "evaluation": 15_000, "methods": 10**9, "datasets": 10**9}


class JsonListWriter:
    """One JSON list, gzipped, written record by record (mtime 0: same input, same bytes)."""

    def __init__(self, path: Path):
        self.path = path
        self.raw = path.open("wb")
        self.gz = gzip.GzipFile(filename="", mode="wb", fileobj=self.raw, mtime=0, compresslevel=6)
        self.buffer: list[str] = []
        self.size = 0
        self.first = True

    def write(self, record: dict, weight: int = 1) -> None:
        self.buffer.append(("[\n" if self.first else ",\n") + json.dumps(record))
        self.first = False
        self.size += len(self.buffer[-1])
        if self.size > 1 << 20:
            self.flush()

    def flush(self) -> None:
        self.gz.write("".join(self.buffer).encode())
        self.buffer.clear()
        self.size = 0

    def close(self) -> None:
        self.buffer.append("[]\n" if self.first else "\n]\n")
        self.flush()
        self.gz.close()
        self.raw.close()


class ParquetShardWriter:
    """Hugging Face-style shards (data/train-0000K-of-0000M.parquet), one row group at a time."""

    def __init__(self, folder: Path, kind: str, schema, total_weight: int):
        self.folder = folder / "data"
        self.folder.mkdir(parents=True)
        self.kind = kind
        self.schema = schema
        self.n_shards = max(1, math.ceil(total_weight / SHARD_WEIGHT[kind]))
        self.bounds = [total_weight * (k + 1) / self.n_shards for k in range(self.n_shards)]
        self.shard = -1
        self.writer = None
        self.weight = 0
        self.rows: list[dict] = []
        self.paths: list[Path] = []

    def _open_next(self) -> None:
        import pyarrow.parquet as pq

        self._close_shard()
        self.shard += 1
        path = self.folder / f"train-{self.shard:05d}-of-{self.n_shards:05d}.parquet"
        self.paths.append(path)
        self.writer = pq.ParquetWriter(path, self.schema, compression="snappy")

    def write(self, record: dict, weight: int = 1) -> None:
        if self.writer is None or (self.shard < self.n_shards - 1 and self.weight >= self.bounds[self.shard]):
            self._open_next()
        self.rows.append(to_parquet_record(self.kind, record))
        self.weight += weight
        if len(self.rows) >= ROW_GROUP[self.kind]:
            self._flush()

    def _flush(self) -> None:
        import pyarrow as pa

        if self.rows:
            self.writer.write_table(
                pa.Table.from_pylist(self.rows, schema=self.schema), row_group_size=len(self.rows)
            )
            self.rows = []

    def _close_shard(self) -> None:
        if self.writer is not None:
            self._flush()
            self.writer.close()
            self.writer = None

    def close(self) -> None:
        if self.writer is None:
            self._open_next()  # an empty dump is still one (empty) shard
        self._close_shard()
        used = len(self.paths)
        if used != self.n_shards:  # fewer shards filled than planned: name them for what they are
            for k, path in enumerate(self.paths):
                path.rename(self.folder / f"train-{k:05d}-of-{used:05d}.parquet")


# --- main ---------------------------------------------------------------------------------


def generate(
    scale: Scale, seed: int, out: Path, formats: list[str], gzip_under_json_names: bool = False
) -> dict:
    """Write the five files in each format under out/<format>/; returns the manifest."""
    archive = Archive(scale, seed)
    started = time.monotonic()
    partial = {}
    for fmt in formats:
        partial[fmt] = out / f"{fmt}.partial"
        if partial[fmt].exists():
            shutil.rmtree(partial[fmt])
        partial[fmt].mkdir(parents=True)
    schemas = parquet_schemas() if "parquet" in formats else {}
    streams: dict[str, Callable[[], Iterator[tuple[dict, int]]]] = {
        "papers": archive.papers,
        "links": archive.links,
        "evaluation": archive.evaluation_tasks,
        "methods": archive.methods,
        "datasets": archive.datasets,
    }
    totals = {
        "papers": scale.papers,
        "links": scale.links,
        "evaluation": scale.rows,
        "methods": scale.methods,
        "datasets": scale.datasets,
    }
    manifest: dict = {"seed": seed, "scale": scale.__dict__, "files": {}}
    for kind, stream in streams.items():
        t0 = time.monotonic()
        writers = []
        for fmt in formats:
            if fmt == "json":
                name = JSON_NAMES[kind].removesuffix(".gz") if gzip_under_json_names else JSON_NAMES[kind]
                writers.append(JsonListWriter(partial[fmt] / name))
            else:
                writers.append(
                    ParquetShardWriter(partial[fmt] / PARQUET_NAMES[kind], kind, schemas[kind], totals[kind])
                )
        records = weight = 0
        for record, w in stream():
            for writer in writers:
                writer.write(record, w)
            records += 1
            weight += w
        for writer in writers:
            writer.close()
        seconds = time.monotonic() - t0
        manifest["files"][kind] = {
            "records": records,
            "result_rows": weight if kind == "evaluation" else None,
            "seconds": round(seconds, 1),
        }
        print(f"{kind:>10}: {records:>9,} records ({weight:,} weight) in {seconds:7.1f} s", file=sys.stderr)
    for fmt in formats:
        final = out / fmt
        if final.exists():
            shutil.rmtree(final)
        partial[fmt].rename(final)
    manifest["seconds"] = round(time.monotonic() - started, 1)
    manifest["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    for fmt in formats:
        (out / f"manifest-{fmt}.txt").write_text(json.dumps({**manifest, "format": fmt}, indent=2) + "\n")
    return manifest


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--format", choices=("json", "parquet", "both"), default="both")
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--papers", type=int, default=576_000, help="scale (default: the archive's 576,000)")
    size.add_argument("--small", action="store_true", help="400 papers: a quick set for tests")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, help="default bench/out/archive/papers-<N>-seed-<S>")
    parser.add_argument(
        "--gzip-under-json-names",
        action="store_true",
        help="name the gzip streams *.json, as some real copies are",
    )
    args = parser.parse_args(argv)
    n = 400 if args.small else args.papers
    if n < 1:
        parser.error("--papers must be at least 1")
    scale = Scale.for_papers(n)
    out = args.out or OUT_ROOT / f"papers-{n}-seed-{args.seed}"
    formats = ["json", "parquet"] if args.format == "both" else [args.format]
    manifest = generate(scale, args.seed, out, formats, args.gzip_under_json_names)
    print(
        f"wrote {', '.join(str(out / f) for f in formats)} in {manifest['seconds']} s, "
        f"peak RSS {manifest['peak_rss_mb']} MB",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
