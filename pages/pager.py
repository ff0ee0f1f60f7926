"""The names a section page's pager gives its neighbours (the pages' concern: which words a
reader sees on the 上一節/下一節 links)."""
from __future__ import annotations


def pager_names(previous, section, following) -> tuple[str, str]:
    """``(previous name, next name)`` of a section page's pager: each neighbour's title ("上一節",
    "下一節" for an untitled one), with its number when two of the three sections share a title
    (毛詩注疏's 關雎 is three sections, each titled 關雎): ``§7「關雎」``, as lists name sections
    (``section_label``). ``previous`` or ``following``: None at the juan's ends (its name "")."""
    titles = [s.title for s in (previous, section, following) if s is not None and s.title]
    shared = len(titles) != len(set(titles))

    def name(s, default: str) -> str:
        if s is None:
            return ""
        if not s.title:
            return default
        return f"§{s.position}「{s.title}」" if shared else s.title
    return name(previous, "上一節"), name(following, "下一節")
