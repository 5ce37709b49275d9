"""The browsing doors: the state-of-the-art index, areas, the task list and tree, datasets."""
