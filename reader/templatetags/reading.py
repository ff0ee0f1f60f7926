"""Template filters for reading pages."""
from django import template
from django.utils.html import escape
from django.utils.safestring import mark_safe

register = template.Library()


@register.filter
def marked(segments) -> str:
    """``[(text, marked), ...]`` as escaped HTML, marked stretches in ``<mark>``."""
    return mark_safe("".join(f"<mark>{escape(t)}</mark>" if m else escape(t) for t, m in segments))
