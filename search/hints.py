"""Hints for a query that finds nothing or looks like a mistake (the search page and the API).

``read_as(parsed)`` says how a query was read (``「大射|鄉射」``: one term, the | included;
``「侯」且「鵠」``; ``「獲」，不含「釋獲」``). ``suggestions(text)`` gives the queries the user
most likely meant, each with a message (中文 + English):

- ``*`` or ``＊`` is punctuation, which search leaves out (``search.analysis``); ``?`` stands
  for any one character (``射*`` → ``射?``), as in the query language of ``search.query``;
- ``|``, ``｜`` or ``OR`` inside a word is searched as written; as OR it stands between spaces
  (``大射|鄉射`` → ``大射 | 鄉射``);
- lower-case ``or``, ``near`` and ``near/5`` are searched as text; the operators are upper case,
  ``OR``, ``NEAR`` and ``NEAR/5`` (``大射 or 鄉射`` → ``大射 OR 鄉射``, "operators are upper case: did you mean
  大射 OR 鄉射?"); ``near`` between two words only; ``AND``/``and`` is searched as text, while a space already means "and";
- ``NOT``/``not`` before a word is searched as text, while ``-`` excludes (``侯 NOT 鵠`` →
  ``侯 -鵠``; none when nothing is left to search for: ``NOT 鵠``).

``respellings(text)`` gives, for a query that finds nothing, the query written with the other
characters one simplified form joins with its own that a traditional edition keeps apart, each
searched as itself there (``characters.simplified.written_apart``: 後 and 后, 於 and 于): four
editions print 公樂作而后就物 where a reader types 公樂作而後就物. Offered, never searched instead.

``marked_runs(runs)`` words, for a KWIC line, how a hit's characters that differ from the query's
were found (``search.matching.match_runs``: 簡體「后」讀作「後」, 簡體「阶」即「階」, 「説」檢索時與「說」視為一字).

Pure functions: text in, strings out.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from itertools import product

from characters.simplified import written_apart
from characters.units import DESCRIPTION

from .matching import FOLDED, READ, SIMPLE
from .query import QUOTES, ParsedQuery

_STAR = re.compile("[*＊]")
_NOT = ("NOT", "not", "Not")
#: ``near`` or ``near/5`` in any case but NEAR's (``search.query`` reads it as text).
_NEAR_LOWER = re.compile(r"(?i)near(?:/\d+)?")
#: ``NOT`` as a word of its own before another word (``search.query`` reads it as text).
_NOT_WORD = re.compile(r"(?:(?<= )|^)(?:NOT|not|Not) (?=\S)")


@dataclass(frozen=True)
class Suggestion:
    """A query the user likely meant (``query``) and why (``message``)."""

    query: str
    message: str


def read_as(parsed: ParsedQuery) -> str:
    """How the query was read, in words: clauses joined by 或, terms by 且, exclusions with 不含,
    NEAR pairs as 「A」與「B」相距 n 字內."""
    parts = []
    for clause in parsed.clauses:
        near = {(n.left.text, n.right.text): n.distance for n in clause.nears}
        joined = {t for pair in near for t in pair}
        words = [f"「{a}」與「{b}」相距 {n} 字內" for (a, b), n in near.items()]
        words += [f"「{t.text}」" for t in clause.positives if t.text not in joined]
        text = "且".join(words)
        if clause.negatives:
            text += "，不含" + "、".join(f"「{t.text}」" for t in clause.negatives)
        parts.append(text)
    return " 或 ".join(parts)


#: The title of a KWIC line's character found by a query character it differs from, by how
#: (``search.matching.match_runs``): a simplified form read at its place as the query's character,
#: a simplified form of that character alone, or a form search holds to be one character with it
#: (the character page's words for its variants, 檢索時與「禮」視為一字).
MARK_TITLES = {READ: "簡體「{text}」讀作「{query}」", SIMPLE: "簡體「{text}」即「{query}」",
               FOLDED: "「{text}」檢索時與「{query}」視為一字"}


def marked_runs(runs: list[tuple[str, str | None, str | None]]) -> list[dict]:
    """``search.matching.match_runs``' runs as a KWIC line marks them: ``{"text", "title"}``
    each, ``title`` "" for a run as the query wrote it, else its words from ``MARK_TITLES``
    (``[("后", "後", "read")]`` -> ``[{"text": "后", "title": "簡體「后」讀作「後」"}]``; the text
    with its selectors, the title with the character alone)."""
    return [{"text": text, "title": MARK_TITLES[how].format(text=text[:1], query=query) if how else ""}
            for text, query, how in runs]


def _outside_descriptions(text: str, change) -> str:
    """``text`` with ``change`` applied to every part outside a description of a character
    (``characters.units.DESCRIPTION``: ``[車*犬]`` is one character, its ``*`` no mistake)."""
    out, start = [], 0
    for m in DESCRIPTION.finditer(text):
        out += [change(text[start:m.start()]), m.group()]
        start = m.end()
    return "".join(out + [change(text[start:])])


def suggestions(text: str) -> list[Suggestion]:
    """The likely intended queries for ``text`` (see the module docstring), at most one per
    rule, none that equals ``text``."""
    out: list[Suggestion] = []

    def add(query: str, message: str):
        query = " ".join(query.split())
        if query and query != " ".join(text.split()) and all(s.query != query for s in out):
            out.append(Suggestion(query, message))

    if _STAR.search(DESCRIPTION.sub("", text)):   # a description's ``*`` (``[車*犬]``) is part of it
        add(_outside_descriptions(text, lambda part: _STAR.sub("?", part)), "「*」是標點，檢索時略去；代任一字請用 ?（* is punctuation, which search leaves out; ? stands for any one character）")
    words = text.split()
    if any(re.search(r"\S[|｜]|[|｜]\S", w) for w in words):
        add(re.sub(r"\s*([|｜])\s*", r" \1 ", text),
            "「|」須前後留空格才表示「或」，否則按原字檢索（| means OR only as a word of its own, between spaces）")
    if any(w in ("or", "Or") for w in words):
        meant = " ".join("OR" if w in ("or", "Or") else w for w in words)
        add(meant, f"運算符須大寫：「或」寫作 OR，小寫 or 按原字檢索（operators are upper case: did you mean {meant}?）")
    if any(_NEAR_LOWER.fullmatch(w) and not w.startswith("NEAR") for w in words[1:-1]):
        meant = " ".join(w.upper() if _NEAR_LOWER.fullmatch(w) and 0 < k < len(words) - 1 else w
                         for k, w in enumerate(words))
        add(meant, f"運算符須大寫：「相距」寫作 NEAR 或 NEAR/5，小寫 near 按原字檢索（operators are upper case: did you mean {meant}?）")
    if any(w in ("AND", "and", "And") for w in words):
        add(" ".join(w for w in words if w not in ("AND", "and", "And")),
            "空格即「且」，不必寫 AND（a space already means and; AND is searched as text）")
    if any(w in _NOT for w in words[:-1]):
        excluded = _NOT_WORD.sub("-", " ".join(words))
        if any(not w.startswith("-") and w not in ("OR", "|", "｜") for w in excluded.split()):
            add(excluded, "排除請用 -，如 侯 -鵠；NOT 按原字檢索（exclude with -: NOT is searched as text）")
    return out


#: Most respelled queries ``respellings`` gives (each is searched to be counted).
MOST_RESPELLINGS = 6


def respellings(text: str) -> list[Suggestion]:
    """``text`` written with the characters a traditional edition keeps apart from its own that one
    simplified form joins with them (``written_apart``; outside ``[…]`` descriptions), best first:
    every such character respelled at once (each choice of its forms, 个 → 個 or 箇), then one
    character at a time; at most ``MOST_RESPELLINGS``, none when no character has another form.
    ``公樂作而後就物`` → ``[公樂作而后就物]``; ``後於`` → ``[后于, 后於, 後于]``. Each message names the
    characters changed: 「後」與「后」, and says the books write the respelled query (書中有作「公樂作而后就物」者),
    which holds only of one that finds something: the caller offers no other (``search.service.query_hints``
    searches each, with the query's filters). It never says the books write the query as typed too: 万取千焉
    is respelled 萬取千焉 where no book prints 万 (it said 「書中亦有此寫法」, "the books also write it so"). A
    query with operators, quotes or wildcards (``_NOT_PRINTED``) is offered as one that finds hits
    (改作「萬取 NEAR/3 千焉」即有所獲), since no book prints it as written."""
    bare = DESCRIPTION.sub(lambda m: "\0" * len(m.group()), text)  # a description's characters are its own
    places = [(i, written_apart(ch)) for i, ch in enumerate(bare) if ch != "\0" and written_apart(ch)]
    if not places:
        return []
    choices: list[dict[int, str]] = [dict(zip([i for i, _ in places], picked))
                                     for picked in product(*(forms for _, forms in places))]
    if len(places) > 1:
        choices += [{i: form} for i, forms in places for form in forms]
    out: list[Suggestion] = []
    for changes in choices:
        if len(out) == MOST_RESPELLINGS:
            break
        query = "".join(changes.get(i, ch) for i, ch in enumerate(text))
        pairs = "、".join(f"「{text[i]}」與「{form}」" for i, form in sorted(changes.items()))
        english = ", ".join(f"{text[i]} and {form}" for i, form in sorted(changes.items()))
        if _NOT_PRINTED.search(DESCRIPTION.sub("", query)):  # operators or wildcards: no string a book prints
            found = f"改作「{query}」即有所獲", f"searched as {query}, the query finds hits"
        else:
            found = f"書中有作「{query}」者", f"the books write {query}"
        out.append(Suggestion(query, f"繁體本中{pairs}各為一字，檢索分開；{found[0]}"
                                     f"（traditional editions keep {english} apart, and so does search; {found[1]}）"))
    return out


#: What makes a query other than a string of the text: a space (terms, OR, NEAR/n, an exclusion),
#: a quote of any form the query reads (``search.query.QUOTES``: ``"`` 「」 “” ＂ 『』), a wildcard
#: (``?``, ``？``, ``〓``). ``respellings`` says the books write a respelled query
#: only where it has none of them: ``万取 NEAR/3 千焉`` is offered as a query that finds hits, never
#: as 「書中有作「萬取 NEAR/3 千焉」者」, which no book prints.
_NOT_PRINTED = re.compile(r"[\s?？〓" + re.escape("".join(sorted(QUOTES.keys() | QUOTES.values()))) + "]")
