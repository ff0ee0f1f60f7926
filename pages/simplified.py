"""A reading page in 簡體 (simplified display), every word of it: the site's own labels,
headings, buttons and tooltips in simplified characters as the book's text and titles are
(``reader.display.simplify_views`` converts those while the page is built), so that no label is
left traditional beside converted ones (目錄 and 引用本卷 beside 礼书纲目 and 经部 › 礼类).

Display only: the stored text is not touched, nor anything not read as words: addresses and
data (``href``, ``value``, ``data-orig``, which holds the stored characters the look-up reads),
scripts and styles. A citation (``class="citation"``) keeps the edition's characters: it quotes
the edition (docs/reading.md). The page's language follows: ``lang="zh-Hant"`` is ``zh-Hans``,
the citation's excepted."""
from __future__ import annotations

import re

from reader.display import to_simplified_texts

#: A comment, an element whose content is no words (script, style, textarea), or a tag.
TOKEN = re.compile(r"<!--.*?-->|<(script|style|textarea)\b[^>]*>.*?</\1\s*>|<[^>]+>", re.S | re.I)
#: The attributes read as words: a tooltip, an accessible name, a placeholder, a text alternative.
WORD_ATTRIBUTE = re.compile(r'(\s(?:title|aria-label|placeholder|alt)=")([^"]*)(")')
#: The element whose words are kept as the edition prints them.
KEPT = re.compile(r'\sclass="citation"')


def simplified_page(html: str) -> str:
    """``html`` (a whole page) with its words in simplified characters (module docstring): the
    text between tags and the attributes of ``WORD_ATTRIBUTE``, converted as
    ``reader.display.to_simplified`` converts (a text whose conversion would change its length
    stays as it is), but a citation's text; ``lang="zh-Hant"`` as ``lang="zh-Hans"`` but on a
    citation."""
    parts: list[str] = []   # the page in order: text and tags
    words: list[tuple[int, int, int]] = []   # (part, start, end) of each run of words
    kept = False
    at = 0
    for match in TOKEN.finditer(html):
        if match.start() > at:
            parts.append(html[at:match.start()])
            if not kept:
                words.append((len(parts) - 1, 0, match.start() - at))
        tag = match.group(0)
        if match.group(1) or tag.startswith("<!--"):
            parts.append(tag)
        elif KEPT.search(tag):
            kept = True
            parts.append(tag)
        else:
            if kept and tag.startswith("</"):
                kept = False
            tag = tag.replace(' lang="zh-Hant"', ' lang="zh-Hans"')
            parts.append(tag)
            for attribute in WORD_ATTRIBUTE.finditer(tag):
                words.append((len(parts) - 1, attribute.start(2), attribute.end(2)))
        at = match.end()
    if at < len(html):
        parts.append(html[at:])
        if not kept:
            words.append((len(parts) - 1, 0, len(html) - at))
    converted = to_simplified_texts([parts[i][a:b] for i, a, b in words])
    # each part's runs replaced from its end, so that the offsets of the others hold
    for (i, a, b), text in sorted(zip(words, converted), key=lambda w: (w[0][0], -w[0][1])):
        parts[i] = parts[i][:a] + text + parts[i][b:]
    return "".join(parts)
