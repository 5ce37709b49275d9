"""Drive Papers-with-Code's own client (paperswithcode-client 0.3.1) against a running site.

Run by tests/api/test_pwc_client.py with .venv-pwc's Python 3.8 (the client's pins cannot live
in the project's venv):  .venv-pwc/bin/python tests/pwc_client_driver.py http://host:port

Calls every read method of the client whose data the catalogue holds and prints one JSON
object: call name -> what the client returned (its pydantic models, as dicts). The client
validating each response into its models is half of the check; the test checks the values.
"""

import json
import sys

from paperswithcode import PapersWithCodeClient

GPIPE = "gpipe-efficient-training-of-giant-neural"
BOARD = "fine-grained-image-classification-on-birdsnap"
# An author name the test adds (tests/api/test_pwc_client.py): its id, as the client puts it in the path.
HOSTILE_AUTHOR = "Ng / O'Brien (né Smith)"


def main(url):
    client = PapersWithCodeClient(url=url)
    out = {}

    def call(key, method, *args, **kwargs):
        out[key] = method(*args, **kwargs).dict()

    call("search", client.search, q="pipeline parallelism")
    call("paper_list", client.paper_list)
    call("paper_list_page_2", client.paper_list, page=2, items_per_page=5)
    call("paper_list_q", client.paper_list, q="GPipe")
    call("paper_list_arxiv_id", client.paper_list, arxiv_id="1811.06965")
    call("paper_list_title", client.paper_list, title="giant neural")
    call("paper_list_abstract", client.paper_list, abstract="AmoebaNet")
    call("paper_get", client.paper_get, GPIPE)
    call("paper_get_arxiv", client.paper_get, "1811.06965")
    call("paper_repository_list", client.paper_repository_list, GPIPE)
    call("paper_task_list", client.paper_task_list, GPIPE)
    call("paper_method_list", client.paper_method_list, GPIPE)
    call("paper_result_list", client.paper_result_list, GPIPE)
    call("repository_list", client.repository_list)
    call("repository_list_owner", client.repository_list, owner="pytorch")
    call("repository_list_name", client.repository_list, name="torchgpipe")
    call("repository_list_framework", client.repository_list, framework="pytorch")
    call("repository_list_q", client.repository_list, q="torchgpipe")
    call("repository_owner_list", client.repository_owner_list, "pytorch")
    call("repository_get", client.repository_get, "KakaoBrain", "torchgpipe")
    call("repository_paper_list", client.repository_paper_list, "KakaoBrain", "torchgpipe")
    call("task_list", client.task_list)
    call("task_list_q", client.task_list, q="fine grained")
    call("task_list_name", client.task_list, name="Image Classification")
    call("task_get", client.task_get, "image-classification")
    call("task_paper_list", client.task_paper_list, "image-classification")
    call("task_evaluation_list", client.task_evaluation_list, "fine-grained-image-classification")
    call("method_list", client.method_list)
    call("method_list_q", client.method_list, q="adam")
    call("method_list_name", client.method_list, name="GPipe")
    call("method_list_full_name", client.method_list, full_name="GPipe")
    call("method_get", client.method_get, "gpipe")
    call("evaluation_list", client.evaluation_list)
    call("evaluation_get", client.evaluation_get, BOARD)
    call("evaluation_metric_list", client.evaluation_metric_list, BOARD)
    metric_id = out["evaluation_metric_list"]["results"][0]["id"]
    call("evaluation_metric_get", client.evaluation_metric_get, BOARD, metric_id)
    call("evaluation_result_list", client.evaluation_result_list, BOARD)
    result_id = out["evaluation_result_list"]["results"][0]["id"]
    call("evaluation_result_get", client.evaluation_result_get, BOARD, result_id)
    call("paper_dataset_list", client.paper_dataset_list, GPIPE)
    call("dataset_list", client.dataset_list)
    call("dataset_list_q", client.dataset_list, q="cifar")
    call("dataset_list_name", client.dataset_list, name="CIFAR-100")
    call("dataset_list_full_name", client.dataset_list, full_name="national institute")
    call("dataset_get", client.dataset_get, "mnist")
    call("dataset_evaluation_list", client.dataset_evaluation_list, "cifar-100")
    call("area_list", client.area_list)
    call("area_list_q", client.area_list, q="vision")
    call("area_list_name", client.area_list, name="Computer")
    call("area_get", client.area_get, "computer-vision")
    call("area_task_list", client.area_task_list, "computer-vision")
    call("task_parent_list", client.task_parent_list, "fine-grained-image-classification")
    call("task_child_list", client.task_child_list, "image-classification")
    call("author_list", client.author_list)
    call("author_list_page_2", client.author_list, page=2, items_per_page=5)
    call("author_list_q", client.author_list, q="chen")
    call("author_list_full_name", client.author_list, full_name="Quoc")
    call("author_get", client.author_get, "Quoc V. Le")
    call("author_get_hostile", client.author_get, HOSTILE_AUTHOR)
    call("author_paper_list", client.author_paper_list, "Quoc V. Le")
    call("author_paper_list_hostile", client.author_paper_list, HOSTILE_AUTHOR)
    call("conference_list", client.conference_list)
    call("conference_list_q", client.conference_list, q="neurips")
    call("conference_list_name", client.conference_list, name="CLR")
    call("conference_get", client.conference_get, "neurips")
    call("proceeding_list", client.proceeding_list, "neurips")
    call("proceeding_get", client.proceeding_get, "neurips", "neurips-2019-12")
    call("proceeding_paper_list", client.proceeding_paper_list, "neurips", "neurips-2019-12")
    json.dump(out, sys.stdout, default=str, sort_keys=True)


if __name__ == "__main__":
    main(sys.argv[1])
