"""Which texts are editions of one work (issue 14): the rule shared by the import and by the
migration that made editions of the old one-edition works. Pure: no ORM.

Two texts are editions of one work when they have the same Kanripo ID (KR1d0086 and its WYG
copy KR1d0086-WYG), or when a text from another source (the seed, a headless file) has the
title of exactly one Kanripo work and no author that contradicts it (the seed's 禮書綱目 by
江永 and Kanripo's KR1d0086 禮書綱目)."""
from __future__ import annotations


def authors_agree(a: str, b: str) -> bool:
    """True when two bylines can be one author: equal, or one of them unknown ("")."""
    return not a or not b or a == b


def work_groups(works: list[tuple[int, str, str, str]]) -> list[list[int]]:
    """``works``: ``(id, title, author, kanripo_id)`` of one-edition works. Returns the groups
    of ids that are one work (each sorted, oldest id first; only groups of two or more)."""
    by_kanripo: dict[str, list[int]] = {}
    for pk, _title, _author, kid in works:
        if kid:
            by_kanripo.setdefault(kid, []).append(pk)
    info = {pk: (title, author) for pk, title, author, _ in works}
    groups = {kid: sorted(ids) for kid, ids in by_kanripo.items()}
    for pk, title, author, kid in works:
        if kid:
            continue
        matches = [k for k, ids in groups.items()
                   if any(info[i][0] == title for i in ids)
                   and authors_agree(next((info[i][1] for i in ids if info[i][1]), ""), author)]
        if len(matches) == 1:
            groups[matches[0]] = sorted(groups[matches[0]] + [pk])
    return [ids for ids in groups.values() if len(ids) > 1]
