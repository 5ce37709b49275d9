"""Which way is better, read from a metric's name: every metric name in the real samples with its
verdict reviewed by hand, the measure not its qualifiers, costs, and what parses to no number."""

import json
from collections import Counter

import pytest

from catalogue import metrics
from tests.samples import SAMPLES, real_table, real_tables

# --- Which way is better, read from the name: every metric name in the real samples ----------------
#
# tests/samples.py says where the real Papers-with-Code samples are. Every distinct metric name in
# them is below, with the direction reviewed by hand (the rows' values checked where the name alone
# left a doubt). A name added to the samples, or a rule that changes a verdict, fails a test here.

H, L = "higher", "lower"


EXPECTED_DIRECTION = {
    # accuracy, however qualified
    "% Test Accuracy": H,
    "% Train Accuracy": H,
    "Acc ex": H,  # WikiSQL execution accuracy
    "Accuracy": H,
    "Avg accuracy": H,
    "Percentage correct": H,
    "Test Accuracy": H,
    "Unigram Acc": H,
    "Validation Accuracy": H,
    "Weighted Accuracy (WAA)": H,
    # F-measures in every spelling: F1, F-1, F0.5, F-Score, F1-score
    "ANS-F1": H,
    "Avg F1": H,
    "CHALLENGE-F1": H,
    "F-Score": H,
    "F0.5": H,  # grammatical error correction: "Error" names the task, F0.5 is better high
    "F1": H,
    "F1 (Quasar-T)": H,
    "F1 (surface form)": H,
    "F1 Full": H,
    "F1 Newswire": H,
    "F1 score": H,
    "F1-score": H,
    "F_NMI": H,  # fuzzy normalised mutual information (word sense induction)
    "Feminine F1 (F)": H,
    "JOINT-F1": H,
    "Masculine F1 (M)": H,
    "N-gram F1": H,
    "Overall F1": H,
    "Shen F-1": H,
    "SUP-F1": H,
    "Test F1 score": H,
    "TEST-F1": H,
    "Validation F1 score": H,
    # exact match
    "ANS-EM": H,
    "CHALLENGE-EM": H,
    "EM": H,
    "EM (Quasar-T)": H,
    "JOINT-EM": H,
    "SUP-EM": H,
    "TEST-EM": H,
    # areas under curves, average precision, retrieval and ranking
    "AVERAGE AUC ON 14 LABEL": H,
    "Average Precision": H,
    "Hits@1": H,
    "MAP": H,
    "MRR": H,
    "NUM RADS BELOW CURVE": H,  # CheXpert: radiologists (of 3) whose operating point is below the ROC curve
    "P@10%": H,
    "P@30%": H,
    "P@5": H,
    "Precision": H,
    "R_100@1": H,  # recall@1 out of 100 candidates
    "R_100@10": H,
    "R_100@50": H,
    "R_1@100": H,
    "Recall": H,
    "Test AP": H,
    "Test Hits@100": H,
    "Test Hits@20": H,
    "Test Hits@50": H,
    "Test MRR": H,
    "Test ROC-AUC": H,
    "Validation AP": H,
    "Validation Hits@100": H,
    "Validation Hits@20": H,
    "Validation Hits@50": H,
    "Validation MRR": H,
    "Validation ROC-AUC": H,
    # text generation, parsing, segmentation, games
    "BLEU": H,
    "BLEU score": H,
    "BLEU-1": H,
    "BLEU-4": H,
    "ELO rating": H,
    "GLEU": H,
    "LAS": H,
    "mean iou (class)": H,  # paperswithcode-go
    "METEOR": H,
    "Overall score": H,
    "pq": H,  # panoptic quality, paperswithcode-go
    "ROUGE-1": H,
    "ROUGE-2": H,
    "ROUGE-2*": H,
    "ROUGE-L": H,
    "Rouge-L": H,
    "Score": H,  # Atari game scores, SQuAD EM/F1, Winograd accuracy: all better high
    "Smatch": H,
    "UAS": H,
    # errors, losses and their other units
    "Bit per Character (BPC)": L,
    "Error": L,
    "Error rate": L,
    "Model Entropy": L,  # Hutter Prize bits per character; CIFAR-10 bits/dim, 4.48 (NICE) -> 3.0 (PixelRNN)
    "Percentage error": L,
    "Perplexity": L,
    "ppl": L,
    "Test Error": L,
    "Test perplexity": L,  # 18.3 -> 15.8 on WikiText-103 over 2018-2020
    "Top-1 Error": L,
    "Validation perplexity": L,
    "WER": L,
    # costs (see SAMPLE_COSTS)
    "Number of params": L,
    "Parameters": L,
    # the name does not say: a dataset, split, domain, slot or column label, an unexplained
    # abbreviation, or a measure whose better end depends on its definition
    "1-1": None,  # one-to-one overlap (disentanglement), from the name alone a label
    "All": None,
    "Ambiguous dataset": None,
    "Area": None,  # dialogue-state slots: Area, Food, Price, Request, Slot, Joint
    "Aspect": None,
    "Average": None,
    "AVG": None,
    "Base Dataset": None,
    "Bias (F/M)": None,  # female/male F1 ratio: best at 1.0, neither end
    "Bio specifc taggers?": None,  # a Yes/No column
    "Books": None,  # sentiment domains: Books, DVD, Electronics, Kitchen
    "CNN": None,
    "CR": None,  # compression ratio of sentence compression: a property, not a quality
    "Daily Mail": None,
    "Data": None,  # a text column (Kummerfeld / Elsner)
    "Dev": None,  # SWAG accuracy (~86) but Event2Mind cross-entropy (~4.3): the same name both ways
    "DVD": None,
    "Electronics": None,
    "F-BC": None,  # fuzzy B-cubed; "F-" alone does not make an F-measure
    "F-S": None,
    "Food": None,
    "IN-DOMAIN": None,
    "Joint": None,
    "Kitchen": None,
    "Local": None,
    "Matched": None,  # MultiNLI matched / mismatched accuracy
    "Mismatched": None,
    "MRPC": None,  # SentEval task names
    "Note": None,
    "OUT-OF-DOMAIN": None,
    "OVERALL": None,
    "PAC": None,  # CMRC 2019 passage / question accuracy, by abbreviation only
    "POS": None,
    "Price": None,
    "Q->A": None,  # VCR accuracies, by arrows only
    "Q->AR": None,
    "QA->R": None,
    "QAC": None,
    "Query Split": None,
    "Question Split": None,
    "RACE": None,
    "RACE-h": None,
    "RACE-m": None,
    "Request": None,
    "ReVerb45k": None,
    "SemEval 2007": None,
    "SemEval 2013": None,
    "SemEval 2015": None,
    "Senseval 2": None,
    "Senseval 3": None,
    "Sentiment": None,
    "SICK-E": None,
    "SICK-R": None,
    "Slot": None,
    "STS": None,
    "Temporal awareness": None,  # TempEval-3's score, but "awareness" is no measure word
    "Test": None,
    "V-M": None,  # V-measure, by abbreviation only
    "VI": None,  # variation of information is better low; this board's "VI" (93.3) is 1 - VI
}


SAMPLE_COSTS = {"Number of params", "Parameters"}


def _api_metric_names(node):
    """Metric names in a recorded Papers-with-Code API response: result ``metrics`` keys, ``best_metric``."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "metrics" and isinstance(value, dict):
                yield from value
            elif key == "best_metric" and isinstance(value, str):
                yield value
            else:
                yield from _api_metric_names(value)
    elif isinstance(node, list):
        for item in node:
            yield from _api_metric_names(item)


def _sample_metric_names() -> set[str]:
    names = set()
    for _file, _task, _dataset, table in real_tables():
        sota = table.get("sota") or {}
        names.update(sota.get("metrics") or [])
        for row in sota.get("rows") or []:
            names.update(row.get("metrics") or {})
    for path in sorted((SAMPLES / "paperswithcode-go").glob("*.json")):
        names.update(_api_metric_names(json.loads(path.read_text())))
    return names


def test_every_metric_name_in_the_samples_has_a_reviewed_verdict():
    names = _sample_metric_names()
    new, gone = sorted(names - EXPECTED_DIRECTION.keys()), sorted(EXPECTED_DIRECTION.keys() - names)
    assert not new, f"review these and add them to EXPECTED_DIRECTION: {new}"
    assert not gone, f"no longer in the samples: {gone}"
    assert len(names) == 159


@pytest.mark.parametrize(("name", "expected"), sorted(EXPECTED_DIRECTION.items()))
def test_sample_metric_names_read_as_reviewed(name, expected):
    assert metrics.direction(name) == expected
    assert metrics.is_cost(name) == (name in SAMPLE_COSTS)
    assert metrics.lower_is_better(name) == (expected == L)


def test_the_samples_verdicts_add_up():
    verdicts = Counter(EXPECTED_DIRECTION.values())
    assert (verdicts[H], verdicts[L], verdicts[None], len(SAMPLE_COSTS)) == (86, 14, 59, 2)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        # a "lower" word that only qualifies the measure
        ("TAR @ FAR=0.01", H),  # a true-accept rate; the FAR is the operating point
        ("TAR @ FAR=1e-4", H),
        ("AUC (horizon error)", H),  # an AUC is better high whatever it measures
        ("Horizon error AUC", H),
        ("Recall@1 (FAR)", H),
        ("Accuracy (error bars)", H),
        ("1-of-100 Accuracy", H),
        ("FID score", L),
        ("Score (WER)", L),
        ("FRR @ FAR=0.1%", L),
        # errors and losses
        ("Top-1 Error Rate", L),
        ("Error rate", L),
        ("Word Error Rate (WER)", L),
        ("CER", L),
        ("EER", L),
        ("FID", L),
        ("MAE", L),
        ("RMSE", L),
        ("Chamfer Distance", L),
        ("Bits/dim", L),
        ("bits per character", L),
        ("NLL", L),
        ("False Positive Rate", L),
        # better high
        ("mAP", H),
        ("AP50", H),
        ("mAP@0.5:0.95", H),
        ("AR@100", H),
        ("box AP", H),
        ("ROC AUC", H),
        ("NDCG@10", H),
        ("Hit@10", H),
        ("Recall@10", H),
        ("mIoU", H),
        ("PSNR", H),
        ("SSIM", H),
        ("MS-SSIM", H),
        ("Pearson Correlation", H),
        ("Spearman Correlation", H),
        ("Success Rate", H),
        ("True Positive Rate", H),
        ("Exact Match", H),
        ("pass@1", H),
        ("CIDEr", H),
        ("Inception score", H),
        # nothing to go on
        ("", None),
        ("Top-5", None),
        (None, None),
    ],
)
def test_direction_reads_the_measure_not_its_qualifiers(name, expected):
    assert metrics.direction(name) == expected
    assert not metrics.is_cost(name)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Params", L),
        ("Number of params", L),
        ("Number of parameters", L),
        ("#Params", L),
        ("Params (M)", L),
        ("FLOPS", L),
        ("FLOPs", L),
        ("GFLOPs", L),
        ("MACs", L),
        ("Mult-Adds", L),
        ("Model size", L),
        ("Size (MB)", L),
        ("Memory (GB)", L),
        ("Latency (ms)", L),
        ("Inference time", L),
        ("Inference Time (ms)", L),
        ("Training time", L),
        ("Training time (GPU hours)", L),
        ("Time (s)", L),
        ("Run time", L),
        ("Runtime (s)", L),
        ("Hardware Burden", L),
        ("Operations per network pass", L),
        ("Speed (ms)", L),  # a speed given in time units is a duration
        ("Speed", H),
        ("Speed (FPS)", H),
        ("Speed (img/s)", H),
        ("FPS", H),
        ("Throughput", H),
        ("Images per second", H),
        ("samples/s", H),
        ("tokens/s", H),
    ],
)
def test_costs_are_costs_with_their_direction(name, expected):
    assert metrics.is_cost(name)
    assert metrics.direction(name) == expected


# Names the field knows that the archive's boards use (issue 33: 267 boards had no direction
# for them). Each is read whole, so the words around it still decide as before.
@pytest.mark.parametrize(
    ("name", "expected"),
    [
        # person re-identification, face and retrieval: a recognition rate at rank k
        ("Rank-1", H),
        ("Rank-5", H),
        ("Rank1", H),
        ("Rank@1", H),
        ("Rank-1 Accuracy", H),
        ("Rank-1 (%)", H),
        ("Rank-1 Error", L),  # the last word names the measure
        # where the right answer ranks: lower; "rank" alone says neither
        ("Mean Rank", L),
        ("Median Rank", L),
        ("MedR", L),
        ("Rank", None),
        ("rank (test)", None),
        # speech quality, intelligibility and separation
        ("PESQ", H),
        ("ESTOI", H),
        ("STOI", H),
        ("SDR", H),
        ("SDRi", H),
        ("SI-SDRi", H),
        ("SI-SDR", H),
        ("SI-SNRi", H),
        ("MOS", H),
        # the Inception Score, as a whole name only
        ("IS", H),
        ("IS (CIFAR-10)", H),
        ("Inception Score", H),
        ("What is measured", None),
        # video object segmentation, tracking, 3D pose, segmentation
        ("J&F", H),
        ("J&F-Mean", H),
        ("J & F", H),
        ("EAO", H),
        ("3DPCK", H),
        ("AP3D", H),
        ("meanIOU", H),
        ("mIoU", H),
        # face anti-spoofing
        ("HTER", L),
        ("ACER", L),
    ],
)
def test_direction_of_names_the_field_knows(name, expected):
    assert metrics.direction(name) == expected
    assert not metrics.is_cost(name)


def test_real_values_that_parse_to_none_state_no_number():
    """Every metric value in the sota-extractor samples parses, but for these (each states no
    number first); "3.0m", "~257M", "**70.3**" and a byte-order mark before "93.3" did not."""
    unparsed = set()
    n_values = 0
    for _file, _task, _dataset, table in real_tables():
        for row in (table.get("sota") or {}).get("rows") or []:
            for value in (row.get("metrics") or {}).values():
                n_values += 1
                if metrics.parse(value) is None:
                    unparsed.add(value)
    assert n_values == 6747
    assert unparsed == {
        *("", "-", "--", "---", "--*", "?", "\u2212", "\u2013", "No", "Yes", "Please tell us"),
        *("Elsner", "Kummerfeld", "Constituent parser", "Stanford conversion **v3.5.0**"),
        *("**Precision**", "**Recall**", "**F1**"),
        *("(32.76 32.07 26.26 22.74)", "(16.97 15.58)", "(14.62 10.86)"),
    }


def test_a_real_parameters_column_in_millions_ranks_by_its_numbers():
    # SNLI writes parameters as "3.0m" (millions): they were no numbers, all listed last.
    sota = real_table("snli.json", "Natural Language Inference", "SNLI")
    millions = [row for row in sota["rows"] if row["metrics"].get("Parameters", "").endswith("m")]
    assert len(millions) > 50
    ordered = metrics.ordered(sota["rows"], "Parameters", lambda r: r["metrics"])
    numbers = [metrics.parse(row["metrics"].get("Parameters")) for row in ordered]
    stated = [n for n in numbers if n is not None]
    assert stated == sorted(stated)
    assert len(stated) >= len(millions)
    assert numbers[len(stated) :] == [None] * (len(numbers) - len(stated))  # the rest last
