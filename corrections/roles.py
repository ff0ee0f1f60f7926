"""The roles of the people who correct the texts, as Django groups (created by migration
``corrections/0002``). Readers need no account. A **contributor** proposes corrections; an
**editor** reviews and applies them (and may propose too); **staff** (``is_staff``) is the
admin and may do what an editor does. Nobody reviews their own proposal."""
from __future__ import annotations

CONTRIBUTOR = "contributor"
EDITOR = "editor"
#: The role names an operator gives ``manage.py create_account --role``.
ROLES = (CONTRIBUTOR, EDITOR, "staff")


def _groups(user) -> set[str]:
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return set()
    cached = getattr(user, "_correction_groups", None)
    if cached is None:
        cached = user._correction_groups = set(user.groups.values_list("name", flat=True))
    return cached


def is_editor(user) -> bool:
    """True for an active editor or staff member (one query, then cached on the user)."""
    if getattr(user, "is_authenticated", False) and user.is_active and (user.is_staff or user.is_superuser):
        return True
    return EDITOR in _groups(user)


def can_propose(user) -> bool:
    """True for an active contributor, editor or staff member."""
    return is_editor(user) or CONTRIBUTOR in _groups(user)
