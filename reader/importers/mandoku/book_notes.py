"""Notes that stand outside the commented text: who wrote them, from how the book is made.

Runs after ``commentators.assign_commentators`` on a parsed juan (pure: no ORM, no I/O) and
changes the voice (``commentator``, ``layer``, ``layer_name``; ``layer_basis`` ``LAYOUT``) of
notes the commentator step gave the profile's default voice by default.

* **The note on the book under the byline.** A juan whose byline (under the title line, before
  any heading) names one person alone, followed by small print before any heading or text, is
  that person's note on the book, when the book's profile knows him as a commentator
  (``commentators.PROFILES``): 楚辭補注 (四庫, KR4a0003) 卷一 prints ``宋　洪興祖　撰`` and
  under it ``(隋唐書志有皇甫遵訓參解楚辭…)`` before ``離騷經章句第一``: 洪興祖's 補注, not
  王逸's 章句 (王逸's name comes only with his 章句 heading). A note on the title line itself
  is the editors' (``layers.title_note``: 楚辭 SBCK 卷一, whose byline comes under the
  heading and names both) and is left alone.
"""
from __future__ import annotations

from ..document import COMMENTARY, LAYOUT, NOTE, JuanDocument
from .commentators import Profile, Voice, profile_for


def _voice_of(profile: Profile, name: str) -> Voice | None:
    """The profile's voice (its default or one of its formulas') whose commentator is ``name``."""
    for voice in (profile.default, *profile.formulas.values()):
        if voice is not None and voice.commentator == name:
            return voice
    return None


def book_note(doc: JuanDocument) -> int:
    """Set the notes at the start of ``doc``'s untitled first chapter (before any heading and
    any text) to the voice of the one person the juan's byline names (``doc.bylines``), when
    the book's profile has a voice of his (see the module docstring). Notes already set to
    another layer than commentary (the editors' title-line note) end the run. Returns how many
    pieces it set."""
    if len(doc.bylines) != 1 or not doc.chapters or doc.chapters[0].heading is not None:
        return 0
    profile = profile_for(doc)
    voice = _voice_of(profile, doc.bylines[0].get("name", "")) if profile is not None else None
    if voice is None or not doc.chapters[0].sections:
        return 0
    n = 0
    for p in doc.chapters[0].sections[0].pieces:
        if p.kind != NOTE or p.effective_layer != COMMENTARY:
            break
        p.layer, p.layer_name, p.commentator, p.layer_basis = voice.layer, voice.layer_name, voice.commentator, LAYOUT
        n += 1
    return n
