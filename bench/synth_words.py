"""Word lists the synthetic snapshot is built from.

Kept apart from generate.py so that the generator reads as the shape of the data, not as
pages of vocabulary. Lists are short on purpose: names are made by combining them, and
the combinations (not the lists) give the variety.
"""

TITLE_WORDS = (
    "efficient scalable robust sparse adaptive hierarchical contrastive generative "
    "self-supervised federated multimodal graph neural attention transformer diffusion "
    "convolutional recurrent variational bayesian causal lightweight unified deep implicit "
    "structured low-rank quantized distributed memory-efficient continual few-shot zero-shot "
    "learning training inference optimization representation segmentation detection "
    "translation retrieval reasoning alignment compression distillation pretraining "
    "fine-tuning generalization estimation embedding networks models language vision "
    "speech reinforcement policy reward planning control tracking reconstruction"
).split()

TITLE_LINKS = ("for", "via", "with", "in", "towards", "beyond", "under", "from")

# Unicode and LaTeX fragments the archive really carries in titles.
TITLE_ODDITIES = (
    r"$\alpha$-Divergence",
    r"$\mathcal{O}(n \log n)$",
    r"$k$-NN",
    r"$\ell_1$-Regularized",
    "Schrödinger Bridges",
    "Café-Style Prompts",
    "Gödel Machines",
    "Naïve Bayes",
    "多模态 Pretraining",
    "日本語 Parsing",
    "한국어 Retrieval",
    "Zürich Street Scenes",
)

FIRST_NAMES = (
    "Yanping Ankur Orhan Mia Dehao Jiquan Quoc Yonghui Zhifeng Wei Li Hanqing Jiawei "
    "Sofia Lucas Emma Noah Olivia Liam Ava Mateo Chloé Zoë José Søren Łukasz Ângela "
    "François Jürgen Ayşe Dmitrii Priya Arjun Fatima Omar Kenji Yuki Min-jun Seo-yeon"
).split()

LAST_NAMES = (
    "Huang Cheng Bapna Firat Chen Ngiam Le Wu Zhao Zhang Wang Liu Smith García Müller "
    "Rossi Dubois Kowalski Nakamura Sato Kim Park Singh Patel Okafor Haddad Ivanov "
    "Øvrebø Núñez Çelik Šimić Lefèvre O'Brien van der Berg de la Cruz"
).split()

CJK_NAMES = ("王伟", "李娜", "张敏", "刘洋", "陈静", "山田太郎", "佐藤花子", "김민준", "이서연")

ABSTRACT_OPENERS = (
    "Scaling up deep neural network capacity has been known as an effective approach",
    "Recent advances in large language models have shown remarkable abilities",
    "Training modern networks requires memory far beyond a single accelerator",
    "Learning useful representations without labels remains a central problem",
    "We revisit a classical assumption that underlies many optimization methods",
    "Benchmarks in this area are saturated, yet deployment results lag behind",
)

ABSTRACT_VERBS = (
    "propose",
    "introduce",
    "study",
    "analyse",
    "present",
    "develop",
    "evaluate",
    "derive",
)
ABSTRACT_OBJECTS = (
    "a pipeline-parallel schedule",
    "a sparse attention kernel",
    "a low-rank optimizer state",
    "a contrastive objective",
    "a diffusion sampler",
    "a curriculum over tasks",
    "a quantized gradient projection",
    "a retrieval-augmented decoder",
    "a graph rewiring scheme",
    "a calibration procedure",
)
ABSTRACT_CLAIMS = (
    "reduces memory by a factor of four",
    "matches full fine-tuning at a fraction of the cost",
    "improves accuracy on five benchmarks",
    "scales to billions of parameters",
    "runs on commodity hardware",
    "is robust to label noise",
    "generalizes to unseen domains",
    "converges in fewer steps",
)

VERBS = (
    "get build load save compute make init setup run train eval predict encode decode "
    "forward apply update parse prepare create sample merge split collate preprocess "
    "postprocess normalize tokenize embed project pool gather scatter reduce check "
    "validate export convert register resolve fetch read write render plot log"
).split()

MODIFIERS = (
    "",  # index 0: no modifier, giving two-part names such as load_checkpoint
    "batch",
    "local",
    "global",
    "fast",
    "raw",
    "masked",
    "cached",
    "dense",
    "sparse",
    "mean",
    "max",
    "cross",
    "self",
    "multi",
    "single",
    "next",
    "prev",
    "input",
    "output",
    "train",
    "eval",
    "test",
    "val",
    "hidden",
    "token",
    "image",
    "text",
    "audio",
    "graph",
)

NOUNS = (
    "model args config data dataset loader batch loss metrics optimizer scheduler "
    "checkpoint weights tensor tensors mask logits embeddings features labels params "
    "layer block head encoder decoder attention kernel grad grads state states step "
    "epoch stage stream buffer cache vocab tokens image images audio graph nodes edges "
    "scores boxes anchors points voxels frames clips prompts rewards actions policy"
).split()

# Routine names that recur in thousands of repositories; weights are the share of code
# bodies carrying them (the rest get a long tail of verb_[modifier_]noun names).
HOT_ENTRIES = (
    ("forward", 0.08),
    ("__init__", 0.07),
    ("main", 0.045),
    ("train", 0.02),
    ("__call__", 0.015),
    ("evaluate", 0.012),
    ("setup", 0.01),
    ("build_model", 0.008),
    ("parse_args", 0.008),
    ("collate_fn", 0.006),
    ("train_one_epoch", 0.006),
    ("get_args", 0.005),
    ("set_seed", 0.005),
    ("load_checkpoint", 0.004),
    ("compute_loss", 0.004),
    ("run", 0.004),
)

DIRS = (
    "",
    "src",
    "models",
    "utils",
    "lib",
    "scripts",
    "tools",
    "modules",
    "core",
    "training",
    "data",
    "nets",
    "layers",
    "ops",
    "engine",
)
FILES = (
    "model",
    "train",
    "utils",
    "layers",
    "modules",
    "dataset",
    "loss",
    "optim",
    "main",
    "config",
    "attention",
    "blocks",
    "engine",
    "eval",
    "helpers",
    "ops",
    "network",
)

REPO_WORDS = (
    "gpipe flashflex hexgen galore apollo frugal foam sltrain megatron torchgpipe pippy "
    "lingvo efficientnet detr yolo bert vit clip diffusion nerf gan vae rl agent "
    "retriever tokenizer llama mamba moe lora adapter bench toolkit lab"
).split()

FRAMEWORKS = ("pytorch", "pytorch", "pytorch", "pytorch", "tf", "tf", "jax", "paddle", "mxnet", "none")

TASK_WORDS = (
    "image classification object detection semantic segmentation machine translation "
    "question answering language modelling speech recognition text generation "
    "node classification link prediction pose estimation depth estimation "
    "anomaly detection image generation visual reasoning code generation "
    "sentiment analysis named entity recognition recommendation"
).split()

DATASET_NAMES = (
    "ImageNet",
    "CIFAR-10",
    "CIFAR-100",
    "COCO",
    "Birdsnap",
    "Stanford Cars",
    "SQuAD",
    "GLUE",
    "WMT 2014 EN-DE",
    "LibriSpeech",
    "Cora",
    "Citeseer",
    "KITTI",
    "ADE20K",
    "Cityscapes",
    "MNIST",
    "HumanEval",
    "MMLU",
    "Penn Treebank",
    "WikiText-103",
)

METRIC_NAMES = (
    "Accuracy",
    "Top 1 Accuracy",
    "Top 5 Accuracy",
    "Percentage correct",
    "F1",
    "BLEU",
    "mAP",
    "box AP",
    "mIoU",
    "Perplexity",
    "WER",
    "Params",
    "FLOPs",
    "EM",
    "AUC",
)

METRIC_ODD_VALUES = ("-", "N/A", "YES", "", "57.01 %")

PROCEEDINGS = ("NeurIPS", "ICML", "ICLR", "CVPR", "ICCV", "ECCV", "ACL", "EMNLP", "AAAI")
