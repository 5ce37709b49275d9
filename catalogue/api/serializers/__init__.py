"""Representations. Serializers never query per row: views hand them prefetched rows and figures.

Two families:

* Papers-with-Code v1 shapes (``Paper``, ``Repository``, ``Task``, ``Method``, ``Area``,
  ``Dataset``, ``Author``, ``Conference``, ``Proceeding``, ``EvaluationTable``, ``Metric``,
  ``Result``, ``PaperRepo``) with that API's field names, so its clients parse them. Fields
  the catalogue does not hold are served empty in the form those clients accept and say "Not
  known" in the schema. The catalogue's own fields follow.
* The catalogue's own: code entries with their figures, samples (places).

Curator corrections (``catalogue.curation``): fields serve the corrected value (a paper's
``title``, a place's ``status``), and ``corrected`` names each corrected field with the
snapshot's value, when, why and by whom, and the record's public history page:
``{"status": {"snapshot": "unverified", "corrected_at": …, "reason": …, "by": "a curator",
"history": …}}``; ``{}`` where nothing is. A list reads its page's corrections in one query
(none when no row on it is corrected).

By domain: ``papers`` (papers, their repositories, authors, conferences, proceedings),
``taxonomy`` (tasks, methods, areas, datasets), ``boards`` (leaderboards, metrics, rows), ``code``
(code entries, places), ``figures``, ``data`` (the API's root, the data summary, the loads) and
``base`` (the fields for what the catalogue does not hold, plain rows, correction marks).
"""
