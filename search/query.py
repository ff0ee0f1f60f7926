"""The query language, parsed into clauses of literal terms.

Documented on the search page::

    大射 主人        both terms in the same passage
    大射 OR 鄉射     either (OR binds looser than the implicit AND; ｜ and | also mean OR)
    射 -主人         passages with 射 and without 主人
    "大射之儀"       an exact phrase, spaces included; 「…」, “…” and ＂…＂ quote too
    射?獲            ? (or ？) stands for any one character
    司射 NEAR/5 弓    both, at most 5 characters apart, in the same passage (as CBETA's NEAR)

A query is a list of clauses joined by OR; a clause is a list of positive terms, all of
which must occur in a passage, and negative terms, none of which may. Hits are the
occurrences of the positive terms of the clauses a passage satisfies.

``A NEAR/n B`` puts A and B among the clause's positive terms and adds ``Near(A, B, n)``: the
passage must also hold an occurrence of A and one of B (two different occurrences) with at
most n characters between them (overlapping or adjacent ones count: the gap is
``max(a.start, b.start) - min(a.end, b.end) <= n``). The hits of A and B are then only those
occurrences that have such a partner. NEAR joins two terms; it does not chain.
Errors are ``QueryError`` with a message fit for the user; nothing here raises anything else.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache

from characters.folding import has_text
from characters.units import DESCRIPTION
from reader.table_cells import CELL_MARK

MAX_QUERY_LENGTH = 200
#: At most this many distinct terms (included and excluded) in one query.
MAX_TERMS = 16
#: What stands for any one character in a query: ``?``, ``？``, and ``〓`` (U+3013), which the pages, citations and
#: exports write for a character they cannot show (a gaiji Kanripo's table does not read, decision 0102; an
#: unreadable character), so that a passage copied from them finds its place (雜〓鶬只 finds 雜&KR1175;鶬只).
WILDCARDS = "?？〓"
#: A wildcard, or a description of a character (``[孑*(焉-正+?)]``, ``characters.units.DESCRIPTION``),
#: whose ``?`` is part of it, not a wildcard (group 1).
_WILDCARD = re.compile("(" + DESCRIPTION.pattern + ")|[?？〓]")
QUOTES = {'"': '"', "「": "」", "“": "”", "＂": "＂", "『": "』"}
OR_WORDS = {"OR", "|", "｜"}
#: The NEAR operator, its distance as written (checked by ``parse_query``: a whole number up to
#: ``MAX_NEAR``); matched on the word's NFKC form, so ＮＥＡＲ／５ is NEAR/5 (as ＯＲ is OR).
NEAR_WORD = re.compile(r"^NEAR(?:/(?P<n>.*))?$")
MAX_NEAR = 200
CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\ud800-\udfff]")


class QueryError(ValueError):
    """A query that cannot be parsed; ``str()`` is a message for the user (中文 + English)."""


@dataclass(frozen=True)
class Term:
    """A literal to find; ``?`` positions (``wildcards``) match any one character."""

    text: str

    @property
    def has_wildcard(self) -> bool:
        """Whether the term holds a ``?`` or ``？`` wildcard (a ``?`` inside a description of a
        character, ``[孑*(焉-正+?)]``, is none)."""
        return any(m.group(1) is None for m in _WILDCARD.finditer(self.text))

    def literal_runs(self) -> list[str]:
        """The parts between wildcards, for index look-ups (``射?獲`` → ``["射", "獲"]``,
        ``[孑*(焉-正+?)]子`` one run: a description is one character); a run of table cell marks
        (``|``, which search reads as a boundary, no character) is none."""
        runs, start = [], 0
        for m in _WILDCARD.finditer(self.text):
            if m.group(1) is None:
                runs.append(self.text[start:m.start()])
                start = m.end()
        runs.append(self.text[start:])
        return [run for run in runs if has_text(run.replace(CELL_MARK, ""))]


@dataclass(frozen=True)
class Near:
    """``left NEAR/distance right``: an occurrence of each, at most ``distance`` characters apart."""

    left: Term
    right: Term
    distance: int


@dataclass(frozen=True)
class Clause:
    """Positive terms that must all occur in a passage and negative ones that must not;
    ``nears``: pairs of positive terms that must also occur close together."""

    positives: tuple[Term, ...]
    negatives: tuple[Term, ...] = ()
    nears: tuple[Near, ...] = ()

    def near_terms(self) -> set[str]:
        """The texts of the terms joined by NEAR (only their paired occurrences are hits)."""
        return {t.text for n in self.nears for t in (n.left, n.right)}


@dataclass(frozen=True)
class ParsedQuery:
    """A parsed query: clauses joined by OR. ``text`` is the query as typed."""

    text: str
    clauses: tuple[Clause, ...] = field(default_factory=tuple)

    def positive_terms(self) -> list[Term]:
        """Every positive term of every clause, without repeats, in order."""
        seen, out = set(), []
        for clause in self.clauses:
            for term in clause.positives:
                if term.text not in seen:
                    seen.add(term.text)
                    out.append(term)
        return out


def _tokens(text: str):
    """Yield ``(kind, value, column)``: kind is "term", "phrase", "or", "near" or "not"."""
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
            continue
        negate = False
        start = i
        if ch in "-－" and i + 1 < n and not text[i + 1].isspace():
            negate, i = True, i + 1
            ch = text[i]
        if ch in QUOTES:
            close = QUOTES[ch]
            end = text.find(close, i + 1)
            if end < 0:
                raise QueryError(f"引號不成對：第 {i + 1} 字的 {ch} 沒有對應的 {close} (unbalanced quote at column {i + 1})")
            phrase = text[i + 1:end]
            if not phrase.strip():
                raise QueryError(f"空的引號 (empty phrase at column {i + 1})")
            yield ("not" if negate else "phrase"), phrase, start + 1
            i = end + 1
            continue
        end = i
        while end < n and not text[end].isspace() and text[end] not in QUOTES:
            end += 1
        word = text[i:end]
        operator = unicodedata.normalize("NFKC", word)  # full-width operators are operators
        if not negate and operator in OR_WORDS:
            yield "or", operator, start + 1
        elif not negate and NEAR_WORD.match(operator):
            yield "near", operator, start + 1
        elif negate:
            yield "not", word, start + 1
        else:
            yield "term", word, start + 1
        i = end


#: A quote that opens a phrase (``QUOTES``), wherever it stands in a word.
_QUOTE = re.compile("[" + re.escape("".join(QUOTES)) + "]")


def _one_word(text: str) -> ParsedQuery | None:
    """``parse_query(text)`` for the usual query, one word (大射之儀, 射?獲): no white space, no
    quote, no exclusion, not an operator, with a character to search for; None for any other
    text, which ``_parsed`` reads token by token (as it would this one, to the same clauses:
    its one token is this word, its one clause this term), with no closures, no loop and no
    de-duplication of terms."""
    words = text.split()  # str.split and _tokens's str.isspace agree on what white space is
    if len(words) != 1 or words[0] != text or text[0] in "-－" or _QUOTE.search(text):
        return None
    operator = unicodedata.normalize("NFKC", text)
    if operator in OR_WORDS or NEAR_WORD.match(operator):
        return None
    term = Term(text)
    if not term.literal_runs():
        return None  # ``_parsed`` raises the error naming it
    return ParsedQuery(text=text, clauses=(Clause((term,)),))


def control_character_message(text: str, bad: re.Match) -> str:
    """What a query holding a control character (``CONTROL``, found as ``bad`` in ``text``) is
    answered: the character and its column (from 1)."""
    return f"檢索詞含控制字元 U+{ord(bad.group()):04X} (control character at column {bad.start() + 1})"


def parse_query(text: str) -> ParsedQuery:
    """Parse ``text`` (see module docstring). Raises ``QueryError`` for an empty query,
    one over ``MAX_QUERY_LENGTH`` characters, control characters, unbalanced quotes, a
    query of operators only, a clause with only exclusions, a term of wildcards only, a
    NEAR without its distance or without a term on each side, or more than ``MAX_TERMS``
    distinct terms."""
    if text is None or not text.strip():
        raise QueryError("請輸入檢索詞 (empty query)")
    if len(text) > MAX_QUERY_LENGTH:
        raise QueryError(f"檢索詞過長：最多 {MAX_QUERY_LENGTH} 字 (query too long)")
    bad = CONTROL.search(text)
    if bad:
        raise QueryError(control_character_message(text, bad))
    return _one_word(text) or _parsed(text)


def _parsed(text: str) -> ParsedQuery:
    """``parse_query`` of a text checked for its length and control characters: its tokens
    read one by one."""
    clauses: list[Clause] = []
    positives: list[Term] = []
    negatives: list[Term] = []
    nears: list[Near] = []
    near: tuple[int, int] | None = None  # (distance, column) of a NEAR waiting for its right term
    last = None  # kind of the previous token
    saw_or = 0  # column of the last OR

    def near_needs_a_term(column):
        raise QueryError(f"NEAR 前後須各有一個檢索詞 (NEAR needs a term on each side, column {column})")

    def close_clause(column):
        if near is not None:
            near_needs_a_term(near[1])
        if not positives:
            if negatives:
                raise QueryError("排除詞須與檢索詞並用 (an exclusion needs a term to search for)")
            raise QueryError(f"OR 前後須有檢索詞 (OR needs a term on each side, column {column})")
        # A term, NEAR or clause written twice asks nothing more: kept once, so that repeating
        # one (之 之 之 …, 100 times) cannot multiply the work past SEARCH_MAX_WORK's check.
        clause = Clause(*(tuple(dict.fromkeys(x)) for x in (positives, negatives, nears)))
        if clause not in clauses:
            clauses.append(clause)
        positives.clear()
        negatives.clear()
        nears.clear()

    for kind, value, column in _tokens(text):
        if kind == "or":
            close_clause(column)
            saw_or, last = column, kind
            continue
        if kind == "near":
            m = NEAR_WORD.match(value)
            if m["n"] is None:
                raise QueryError(f"NEAR 須註明字數，如 NEAR/5 (NEAR needs a distance, e.g. NEAR/5, column {column})")
            if not m["n"].isascii() or not m["n"].isdigit():
                raise QueryError(f"NEAR 的字數須為整數，如 NEAR/5，此式為「{value}」 (NEAR's distance must be a whole "
                                 f"number, e.g. NEAR/5, not {value!r}, column {column})")
            if int(m["n"]) > MAX_NEAR:
                raise QueryError(f"NEAR 最多 {MAX_NEAR} 字 (NEAR distance at most {MAX_NEAR}, column {column})")
            if last not in ("term", "phrase") or near is not None:
                near_needs_a_term(column)
            if nears and nears[-1].right is positives[-1]:
                raise QueryError(f"NEAR 只連接兩個詞 (NEAR joins two terms and does not chain, column {column})")
            near, last = (int(m["n"]), column), kind
            continue
        term = Term(value)
        if not term.literal_runs():
            raise QueryError(f"「{value}」沒有可檢索的字 (a term needs at least one character besides ?, "
                             f"punctuation and spaces)")
        if near is not None:
            if kind == "not":
                near_needs_a_term(near[1])
            nears.append(Near(positives[-1], term, near[0]))
            near = None
        (negatives if kind == "not" else positives).append(term)
        last = kind
    if positives or negatives or saw_or:
        close_clause(saw_or)
    if not clauses:
        raise QueryError("請輸入檢索詞 (no search term)")
    terms = {t.text for clause in clauses for t in (*clause.positives, *clause.negatives)}
    if len(terms) > MAX_TERMS:
        raise QueryError(f"檢索詞過多：最多 {MAX_TERMS} 個，此式有 {len(terms)} 個 "
                         f"(too many terms: at most {MAX_TERMS}, this query has {len(terms)})")
    return ParsedQuery(text=text, clauses=tuple(clauses))


def _spaced(text: str) -> str:
    """``text`` with each run of white space outside a phrase written as one space (a phrase's
    spaces are part of it); an unbalanced quote leaves the rest as it is."""
    out, i, n = [], 0, len(text)
    while i < n:
        ch = text[i]
        if ch in QUOTES:
            end = text.find(QUOTES[ch], i + 1)
            end = n - 1 if end < 0 else end
            out.append(text[i:end + 1])
            i = end + 1
        elif ch.isspace():
            while i < n and text[i].isspace():
                i += 1
            out.append(" ")
        else:
            out.append(ch)
            i += 1
    return "".join(out)


#: The variation selectors (U+FE00–U+FE0F, U+E0100–U+E01EF) and the combining grapheme joiner
#: (U+034F): marks of no width and no character of their own, as the format characters are.
_NO_WIDTH_MARKS = frozenset(chr(c) for c in (*range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0), 0x034F))


def invisible(ch: str) -> bool:
    """Whether ``ch`` shows nothing: white space, a format character (Unicode category Cf:
    U+200B ZERO WIDTH SPACE, U+200D ZERO WIDTH JOINER, U+FEFF, U+2060 WORD JOINER, U+00AD SOFT
    HYPHEN…), a separator (Zs, Zl, Zp) or a mark of no width (``_NO_WIDTH_MARKS``). Not a control
    character (U+001B): a query holding one is refused as such, naming its column (``parse_query``)."""
    return ch.isspace() or ch in _NO_WIDTH_MARKS or unicodedata.category(ch) in ("Cf", "Zs", "Zl", "Zp")


def invisible_only(text: str) -> tuple[str, ...]:
    """The distinct characters of ``text`` (in order of first use, as ``U+200B ZERO WIDTH SPACE``)
    when it is not empty and every one of them is ``invisible``; ``()`` otherwise: a query
    pasted with nothing but a zero-width space is empty, though ``str.strip`` keeps it."""
    if not text or not all(map(invisible, text)):
        return ()
    return tuple(f"U+{ord(c):04X} {unicodedata.name(c, 'unnamed')}" for c in dict.fromkeys(text) if not c.isspace()) \
        or ("white space",)


def invisible_query_message(names: tuple[str, ...]) -> str:
    """The error of a query made only of invisible characters (``invisible_only``): empty, in
    both languages, naming (up to three of) them."""
    shown = ", ".join(names[:3]) + (" …" if len(names) > 3 else "")
    return (f"檢索詞只有看不見的字元（{shown}），等於沒有輸入；請輸入要找的字 (the query is empty: it holds only invisible "
            f"characters, {shown}; type the characters to find)")


def canonical_query(text: str) -> str:
    """One spelling of the queries that parse the same: ``text`` stripped (as the search
    form's field strips it, ``str.strip``) and, when it parses, with each run of white space
    between its words written as one space, if that parses to the same clauses (``鵠``,
    `` 鵠 ``, ``鵠␣␣`` are ``鵠``; ``大射　　OR 鄉射`` is ``大射 OR 鄉射``; a phrase keeps its
    spaces). A query that does not parse, or is over ``MAX_QUERY_LENGTH`` characters, is
    only stripped: its error (and the column it names) is the same for every such spelling.
    The page cache keys a search by it (``config.cacheable.cached_page(canonical=…)``) and
    the search form reads the query as it (``SearchForm.clean_q``), so that spellings that
    share a key get the same answer."""
    text = text.strip()
    if not text or len(text) > MAX_QUERY_LENGTH:
        return text
    return _canonical(text)


@lru_cache(maxsize=2048)
def _canonical(text: str) -> str:
    """``canonical_query`` of a stripped text of at most ``MAX_QUERY_LENGTH`` characters, kept
    (a request asks for it up to three times: the cache's key, the form, the next page's link)."""
    try:
        parsed = parse_query(text)
        spaced = _spaced(text)
        if spaced != text and parse_query(spaced).clauses == parsed.clauses:
            return spaced
    except QueryError:
        pass
    return text
