"""Reading a read's rows back: their primary keys, and every row of a keyset list."""


def pks(rows) -> list[int]:
    return [row.pk for row in rows]


def walk_forward(read, **kwargs) -> list:
    """Every row of a keyset list, following next_cursor from page 1."""
    rows, page = [], read(**kwargs)
    while True:
        rows += page.items
        if not page.next_cursor:
            return rows
        page = read(**kwargs, after=page.next_cursor)
