"""The unit of the structure step (``structure.group``): a run of pieces between clean line
boundaries, or a structural element (closer, heading, part). Shared by ``structure`` and
``piece_heads``. Pure."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..document import ChapterDoc
from .lines import FixedBuilder, PieceBuilder


@dataclass
class Unit:
    """A run of pieces between clean line boundaries (no piece crosses a unit boundary),
    or a structural element (closer, heading, part)."""

    kind: str  # "para" | "closer" | "heading" | "part" | "break" (a juan's head after text: ``late_titles``)
    line: int
    pieces: list[PieceBuilder] = field(default_factory=list)
    new_para: bool = False
    indent: int = 0
    lines: int = 1
    label: bool = False
    number: str = ""  # tls paragraph number
    forced: bool = False  # a run of text cut at a line break only to bound the unit's size
    entry: str = ""  # a line of a contents list: its title line or an entry (``contents.TITLE``, ``ENTRY``)
    verse: bool = False  # a line of a verse block (``#+BEGIN_VERSE``): never a heading
    anecdote: bool = False  # opens a 條 of a book of anecdotes (``anecdotes.opens_anecdote``): a section of its own
    # closer
    closer: FixedBuilder | None = None
    title: str = ""
    separator: str = ""
    record_units: list[list[PieceBuilder]] = field(default_factory=list)  # records between clean line breaks
    forced_records: set = field(default_factory=set)  # indexes of record units that continue a text run
    # heading / part
    chapter: ChapterDoc | None = None

    def size(self) -> int:
        return sum(p.n for p in self.pieces) + sum(p.n for u in self.record_units for p in u)
