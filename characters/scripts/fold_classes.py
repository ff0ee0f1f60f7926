"""The constrained union-find the folding table's classes are built with (``fold_build.build``):
a class holds at most one protected (standard) character and never both halves of a
cannot-link pair; a weak edge may attach a lone character, never merge two classes of several
members. Pure Python, no Django.
"""
from __future__ import annotations

import collections


class Classes:
    """Union-find over characters; a class holds at most one protected (standard) character
    and never both halves of a cannot-link pair."""

    def __init__(self, protected: set[str], cannot: dict[str, dict[str, str]]):
        self.parent: dict[str, str] = {}
        self.members: dict[str, list[str]] = {}
        self.regular: dict[str, str | None] = {}
        self.protected = protected
        self.cannot = cannot
        self.rejected: collections.Counter = collections.Counter()
        self.accepted: collections.Counter = collections.Counter()
        self.rejected_examples: dict[tuple[str, str], list[str]] = collections.defaultdict(list)
        self.log: list[tuple[str, str, str]] = []   # accepted edges (tier, a, b), for --explain

    def add(self, ch: str) -> None:
        """Make ``ch`` a class of its own if it is in none (protected when ``ch`` is)."""
        if ch not in self.parent:
            self.parent[ch] = ch
            self.members[ch] = [ch]
            self.regular[ch] = ch if ch in self.protected else None

    def find(self, ch: str) -> str:
        """The root of the class of ``ch`` (added if new), the path to it compressed."""
        self.add(ch)
        root = ch
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[ch] != root:
            self.parent[ch], ch = root, self.parent[ch]
        return root

    def why_not(self, a: str, b: str, weak: bool = False) -> str | None:
        """The reason ``a`` and ``b`` may not be merged, or None."""
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return "same"
        ga, gb = self.regular[ra], self.regular[rb]
        if ga and gb:
            return "two-standard-chars"
        if weak and len(self.members[ra]) > 1 and len(self.members[rb]) > 1:
            return "weak-merge"
        small, other = (ra, rb) if len(self.members[ra]) <= len(self.members[rb]) else (rb, ra)
        for m in self.members[small]:
            for partner, source in self.cannot.get(m, {}).items():
                if partner in self.parent and self.find(partner) == other:
                    return f"cannot-link:{source}"
        return None

    def union(self, a: str, b: str, tier: str, weak: bool = False, force: bool = False) -> str | None:
        """Merge the classes of ``a`` and ``b``; returns None on success, else the reason.
        ``force``: skip the checks (canonically equivalent characters)."""
        reason = self.why_not(a, b, weak)
        if force and reason != "same":
            reason = None
        if reason == "same":
            return reason
        if reason:
            self.rejected[(tier, reason)] += 1
            ex = self.rejected_examples[(tier, reason)]
            if len(ex) < 12:
                ex.append(a + b)
            return reason
        ra, rb = self.find(a), self.find(b)
        if len(self.members[ra]) < len(self.members[rb]):
            ra, rb = rb, ra
        self.parent[rb] = ra
        self.members[ra].extend(self.members.pop(rb))
        self.regular[ra] = self.regular[ra] or self.regular[rb]
        del self.regular[rb]
        self.accepted[tier] += 1
        self.log.append((tier, a, b))
        return None
