"""How well script-aware search does on simplified text (``characters.simplified``), three ways:
against labels from the books (``score_labelled``: the simplified 儀禮釋宮增注 aligned place by place
with its traditional edition, ``characters.scripts.script_labels``), on the works held out of the
reading counts converted to simplified characters (``score_held_out``: each place labelled by the
character it was converted from), and, as first measured, against OpenCC's dictionary
(``score_scripts``). ``Direction`` holds one direction's recall, precision and wrong finds, each
judged by ``word_at_place``; the texts are read in the passages the index reads
(``juan_passages``). ``scripts/evaluate_folding.py`` prints the figures (docs/decisions/0021).

Pure Python, no Django.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from characters import simplified as sc
from characters.folding import fold_char
from characters.scripts.fold_sources import read_opencc
from characters.scripts.script_labels import _match_key, _t2s, is_han
from juan_passages import held_out_runs, labelled_runs
from word_at_place import ONE_WORD_APART, ONE_WORD_SHARED, found_as_printed, names_a_character, one_word_at


# ---------------------------------------------------------------------------- scripts


@dataclass
class Direction:
    """One direction of script-aware search on a text: ``pairs`` (occurrences of a text
    character that a query character stands for), ``found`` (of those, found by that query),
    ``matches`` (what the queries find in the text) and ``wrong`` (of those, characters the
    query does not stand for, by OpenCC's dictionaries: ``opencc_readings``), ``missed`` /
    ``false``: examples ``query→text character``."""

    name: str
    pairs: int = 0
    found: int = 0
    matches: int = 0
    wrong: int = 0
    missed: list = None
    false: list = None
    #: of ``wrong``, the finds where the variant tables call the character searched for and the
    #: one the book prints one character written two ways (於/于, 註/注, 嚮/向: ``score_labelled``)
    same_word: int = 0
    #: ``wrong`` by cause: ``{(query, character the text stands for, how the place was read): n}``,
    #: the last ``'undecided'`` (every reading still in play finds it), ``'read as Q'`` (decided as
    #: the query's reading) or ``'folded'`` (no reading key: the folding joins them)
    wrong_by: Counter = field(default_factory=Counter)
    #: some wrong finds of each ``wrong_by`` entry with their context, ``"file: 八個字[字]八個字"``
    #: (``score_held_out``'s ``examples``)
    examples: dict = field(default_factory=dict)
    #: of ``wrong``, the finds at a place where the text names a character rather than uses it
    #: (``names_a_character``: 古文幹為肝, 今文並皆為併, 干依註音豻), by ``(query, character printed)``
    named: Counter = field(default_factory=Counter)
    #: of ``wrong``, the finds of one graph at the other that write the same word (``one_word_at``: 於
    #: at a 于 that writes the preposition yú, 鐘 at the 鍾 of 鍾鼓, 樸 at the 朴 of 其朴自成), one word
    #: whichever graph an edition prints; counted right by ``word_at_place_precision``
    one_word: int = 0
    #: ``one_word`` by pair of characters (``frozenset((query, character printed))``)
    one_word_by: Counter = field(default_factory=Counter)
    #: (``score_scripts`` with a traditional edition's characters) the form-and-reading pairs of
    #: the dictionary that are not what the place stands for, by what that edition prints there:
    #: ``'the form itself'`` (周 for 週), ``'another reading'`` (當 for 噹), ``'another character'``,
    #: ``'unaligned'``
    not_stood_for: Counter = field(default_factory=Counter)

    def pair(self, found: bool, example: str, distinct: bool = True) -> None:
        """Count one occurrence a query stands for, ``found`` or not; a missed one keeps
        ``example`` (``query→text character``) among the first 20 (``distinct``: each once)."""
        self.pairs += 1
        if found:
            self.found += 1
        elif len(self.missed) < 20 and not (distinct and example in self.missed):
            self.missed.append(example)

    @property
    def word_precision(self) -> float:
        """Precision when a find the variant tables call the same character is right."""
        return 1 - (self.wrong - self.same_word) / self.matches if self.matches else 1.0

    @property
    def word_at_place_precision(self) -> float:
        """Precision when a find of one graph at the other that writes the same word (``one_word``:
        the pairs of ``ONE_WORD_APART`` and ``ONE_WORD_SHARED``) is right (docs/decisions/0036 and
        0037: measured beside the target, which counts graphs)."""
        return 1 - (self.wrong - self.one_word) / self.matches if self.matches else 1.0

    def target_right(self, merged: set[frozenset]) -> int:
        """The finds the target counts right (docs/decisions/0082): those the graph a traditional
        edition prints makes right, and a find of one graph of a pair the simplification merges
        (``merged``: ``word_at_place.merged_by_simplification``, 於/于) at the other where the place
        writes the same word (``one_word_by``: 於 at a 于 that writes the preposition)."""
        return self.matches - self.wrong + sum(self.one_word_by[pair] for pair in merged)

    def target_precision(self, merged: set[frozenset]) -> float:
        """``target_right`` over every find: the precision of the 99 % target (docs/decisions/0082)."""
        return self.target_right(merged) / self.matches if self.matches else 1.0

    @property
    def at_a_form_for_the_query(self) -> int:
        """Of ``matches``, the finds at a place whose form may stand for the query by the simplified
        tables (every find but a wrong one at a folded key: ``wrong_by``'s ``'folded'``; a wrong find
        at a reading key is undecided or read as the query, so the query is one of its readings).
        What issue 28 asks search to find, and no measure of the reading at the place: the target
        counts a find right only where the traditional edition's own search makes it
        (``word_at_place.found_as_printed``; docs/decisions/0104)."""
        return self.matches - sum(n for (_, _, cause), n in self.wrong_by.items() if cause == "folded")

    @property
    def recall(self) -> float:
        return self.found / self.pairs if self.pairs else 1.0

    @property
    def precision(self) -> float:
        return 1 - self.wrong / self.matches if self.matches else 1.0


def opencc_readings() -> dict[str, set[str]]:
    """``{simplified: traditional characters}`` from OpenCC's ``STCharacters`` (the s2t
    converter's dictionary, dumped as ``fold_sources.read_opencc`` does): the labels the
    script evaluation checks the table against. Empty without the ``opencc`` package."""
    dicts, _, _ = read_opencc(set())
    return {key: set(values) for key, values in dicts.get("STCharacters", [])}


def keyed(text: str, script: str) -> list[tuple[str, str]]:
    """``(character, search key)`` of every Han character of ``text`` in order, the keys of
    an edition of ``script`` computed line by line over the line's Han characters (as the
    index computes them over a passage's units, ``characters.simplified.text_keys``)."""
    return [(ch, key) for _, ch, key in keyed_places(text, script)]


def keyed_places(text: str, script: str) -> list[tuple[tuple[int, int], str, str]]:
    """``((line, column), character, search key)`` of every Han character of ``text`` in order:
    ``keyed`` with where each character stands (0-based line and code-point column, as
    ``characters.scripts.script_labels.Place`` counts them)."""
    out = []
    for n, line in enumerate(text.split("\n")):
        cols = [i for i, ch in enumerate(line) if is_han(ch)]
        codes = "".join(line[i] for i in cols)
        out.extend(((n, i), ch, key) for i, ch, key in zip(cols, codes, sc.text_keys(codes, script)))
    return out


def score_finds(sc, direction, queries: set[str], places: list[tuple[str, str]], right) -> None:
    """Count in ``direction`` (a ``Direction``) what each of ``queries`` finds among ``places``
    (``[(character, its index key)]``, ``keyed``): every find adds to ``matches``, a find that
    ``right(query, character)`` does not accept to ``wrong``, and the first 20 distinct wrong
    ``query→character`` pairs are kept in ``false``. ``sc``: the script module (``query_keys``)."""
    for query in sorted(queries):
        keys = sc.query_keys(query)
        for ch, key in places:
            if key in keys:
                direction.matches += 1
                if not right(query, ch):
                    direction.wrong += 1
                    if len(direction.false) < 20 and f"{query}→{ch}" not in direction.false:
                        direction.false.append(f"{query}→{ch}")


def score_scripts(simplified_text: str, traditional_text: str,
                  printed: dict[tuple[int, int], str] | None = None) -> list[Direction]:
    """Script-aware search on a simplified edition's text and a traditional one's, with the
    product's keys (``characters.simplified.text_keys``/``query_keys``), labelled by OpenCC's
    dictionary (the first measure; ``score_labelled`` labels from the books themselves):

    - ``traditional queries, simplified text``: every occurrence of a simplified form and
      each character it stands for (``readings``: 当 for 當 and 噹) — is it found? With
      ``printed`` (``{(line, column): the character a traditional edition of the same text prints
      at that place of the simplified text}``, ``script_labels.load_pairs``), a place is a pair
      only of the reading it stands for there, the one that edition prints (a form stands for one
      character at a place, not for every character the dictionary gives it: 当 printed for 當 is
      no miss of 噹, 周 printed for 周 none of 週); the others are counted, not scored, in
      ``Direction.not_stood_for`` by whether the edition prints the form itself (the form a
      character of its own there) or another of its readings. Without ``printed``, every reading
      at every place (the dictionary's labels, which no decided place can meet).
    - ``simplified queries, traditional text``: every occurrence of a traditional character
      and each simplified-only form that may stand for it (当 for 當) — is it found? (A form
      that is also a traditional character, 后 or 于, is taken as written in a traditional
      edition: the third direction.)
    - ``traditional queries, traditional text``: every occurrence of a traditional character
      that is also a simplified form of another (后, 于) and that other (後, 於) — it must
      NOT be found (a miss is right here: ``found`` counts wrong finds).

    Precision: of what each direction's queries find, the share OpenCC's dictionary
    (``opencc_readings``) or the folding table calls the same character. Since the product
    decides a form's reading per place, an occurrence is "found" by a reading when every place
    of it is."""
    table = sc._load()
    labels = opencc_readings()

    def stands_for(form: str, query: str) -> bool:
        fq = fold_char(query)
        return fold_char(form) == fq or any(fold_char(t) == fq for t in labels.get(form, ()))

    placed_s = keyed_places(simplified_text, sc.SIMPLIFIED)
    places_s = [(ch, key) for _, ch, key in placed_s]
    places_t = keyed(traditional_text, sc.TRADITIONAL)
    a, b, c = (Direction("traditional queries, simplified text", missed=[], false=[]),
               Direction("simplified queries, traditional text", missed=[], false=[]),
               Direction("traditional queries, traditional text (one-to-many forms kept apart)", missed=[], false=[]))
    # A: each simplified form of the simplified text, and each character it stands for
    queries_a = set()
    for at, form, key in placed_s:
        if form not in table:
            continue
        book = printed.get(at) if printed is not None else None
        for t in table[form][1]:
            if t == form:
                continue
            queries_a.add(t)
            if printed is not None and (book is None or fold_char(book) != fold_char(t)):
                a.not_stood_for["unaligned" if book is None else "the form itself" if book == form
                                else "another reading" if fold_char(book) in _folded_readings(form)
                                else "another character"] += 1
                continue
            a.pair(key in sc.query_keys(t), f"{t}→{form}")
    score_finds(sc, a, queries_a, places_s, lambda query, ch: stands_for(ch, query))
    # B: each traditional character of the traditional text, and each simplified form for it
    by_reading: dict[str, list[str]] = {}
    for form, (kind, reads) in table.items():
        for t in reads:
            if t != form:
                by_reading.setdefault(t, []).append(form)
    queries_b = set()
    for ch, key in places_t:
        for form in by_reading.get(fold_char(ch), ()):
            if table[form][0] == "both":   # 后, 于: a traditional character too, taken as written there
                continue
            queries_b.add(form)
            b.pair(key in sc.query_keys(form), f"{form}→{ch}")
    score_finds(sc, b, queries_b, places_t,
                lambda query, ch: stands_for(query, ch) or fold_char(query) == fold_char(ch))
    # C: in a traditional text, 後 must not find 后 (a standard character of its own)
    counts_t = Counter(ch for ch, _ in places_t)
    for form, (kind, reads) in table.items():
        if kind != "both" or len(reads) < 2 or not counts_t.get(form):
            continue
        for t in reads:
            if fold_char(t) == fold_char(form):
                continue
            c.pairs += counts_t[form]
            if sc.text_keys(form) in sc.query_keys(t):
                c.found += counts_t[form]
                if len(c.false) < 20:
                    c.false.append(f"{t}→{form}")
        for t in reads:
            q = sc.query_keys(t)
            for ch, key in places_t:
                if key in q:
                    c.matches += 1
                    if fold_char(ch) != fold_char(t):
                        c.wrong += 1
    return [a, b, c]


# ------------------------------------------------------------- labels from the books


def _folded_readings(form: str) -> set[str]:
    return {fold_char(r) for r in sc.readings(form)}


def _cause(key: str) -> str:
    """How a place found by a query was read (``Direction.wrong_by``): ``'undecided'``, ``'read
    as X'`` for an ambiguous form's reading key, ``'folded'`` for any other key."""
    if sc.reading_of_key(key) is None:
        return "folded"
    reading = sc.key_reading(key)
    return "undecided" if reading is None else f"read as {reading}"


def score_labelled(simplified_text: str, traditional_text: str, pairs: list,
                   same_word: set[frozenset] = frozenset(), layers: bool = True) -> list[Direction]:
    """Script-aware search measured against labels from the books (``script_labels.align``:
    two editions of one book, place by place), not from a converter:

    - ``traditional queries, simplified text``: at each place where the simplified edition
      prints a simplified form (当, 后, 于) and the traditional edition a character that form may
      stand for but not the form itself (當, 後, 於), a search for the traditional edition's
      character must find the place (recall). Precision: of the places these queries find in
      the simplified edition, the share where the traditional edition prints the character
      searched for (後 finding the 后 of 夏后氏 is wrong: the book has 后 there).
    - ``simplified queries, traditional text``: at each place where the simplified edition
      prints a simplified-only form (当, 发; not 后 or 于, which a traditional edition takes as
      written) for the traditional edition's character, a search for that form must find the
      place in the traditional edition. Precision: of the places found, the share where the
      simplified edition prints that form (or leaves the traditional character it stands for).

    ``pairs``: the aligned places (``script_labels.Pair``) of the two texts; keys are computed
    over the passages the index reads (``juan_passages.labelled_runs``: the main text one passage across its notes
    and lines, each note one), each read with its layer (``layers`` False: with none); a traditional
    edition's keys depend on no neighbour (``characters.simplified.text_keys``). ``same_word`` (``word_at_place.variant_table_pairs``): a wrong find whose two
    characters are such a pair is also counted in ``Direction.same_word``."""
    table = sc._load()

    def keys_by_place(text: str, script: str) -> dict[tuple[int, int], str]:
        out = {}
        lines = text.split("\n")
        for layer, places in labelled_runs(text):
            codes = "".join(lines[n][i] for n, i in places)
            out.update(zip(places, sc.text_keys(codes, script, layer if layers else None)))
        return out

    t_plain = re.sub(r"<pb:[^>]*>|^#.*$", lambda m: " " * len(m.group()), traditional_text, flags=re.M)
    keys_s = keys_by_place(simplified_text, sc.SIMPLIFIED)
    keys_t = keys_by_place(t_plain, sc.TRADITIONAL)
    a = Direction("traditional queries, simplified text (labels: the traditional edition)", missed=[], false=[])
    b = Direction("simplified queries, traditional text (labels: the simplified edition)", missed=[], false=[])
    queries_a: set[str] = set()
    queries_b: set[str] = set()
    for p in pairs:
        form, book = p.s.ch, p.t.ch
        if form in table and book != form and fold_char(book) in _folded_readings(form) | {fold_char(form)}:
            queries_a.add(book)
            a.pair(keys_s[(p.s.line, p.s.col)] in sc.query_keys(book),
                   f"{book}→{form}@{p.s.line + 1}:{p.s.col + 1}", distinct=False)
        if form in table and table[form][0] == "simplified" and fold_char(book) in _folded_readings(form):
            queries_b.add(form)
            b.pair(keys_t[(p.t.line, p.t.col)] in sc.query_keys(form),
                   f"{form}→{book}@{p.t.line + 1}:{p.t.col + 1}", distinct=False)
    for q in sorted(queries_a):
        wanted = sc.query_keys(q)
        for p in pairs:
            if keys_s[(p.s.line, p.s.col)] in wanted:
                a.matches += 1
                if not found_as_printed(q, p.t.ch):
                    a.wrong += 1
                    a.same_word += frozenset((p.t.ch, q)) in same_word
                    a.wrong_by[(q, p.t.ch, _cause(keys_s[(p.s.line, p.s.col)]))] += 1
                    line = t_plain.split("\n")[p.t.line]
                    before, after = line[max(0, p.t.col - 3):p.t.col], line[p.t.col + 1:p.t.col + 4]
                    a.named[(q, p.t.ch)] += names_a_character(before, after)
                    same_here = one_word_at(q, p.t.ch, before, after)
                    a.one_word += same_here
                    a.one_word_by[frozenset((q, p.t.ch))] += same_here
                    if len(a.false) < 20:
                        a.false.append(f"{q}→{p.s.ch}({p.t.ch})@{p.s.line + 1}:{p.s.col + 1}")
    for f in sorted(queries_b):
        wanted = sc.query_keys(f)
        ok = _folded_readings(f) | {fold_char(f)}
        for p in pairs:
            if keys_t[(p.t.line, p.t.col)] in wanted:
                b.matches += 1
                if not (p.s.ch == f or fold_char(p.s.ch) in ok):
                    b.wrong += 1
                    b.same_word += frozenset((p.s.ch, f)) in same_word
                    if len(b.false) < 20:
                        b.false.append(f"{f}→{p.t.ch}({p.s.ch})@{p.t.line + 1}:{p.t.col + 1}")
    return [a, b]


# ------------------------------------------------------ held-out texts made simplified


def to_simplified(han: str) -> str:
    """``han`` converted with OpenCC's ``t2s`` (phrases first, as a simplified edition is made);
    when the conversion changes the length (it does not for Han text, but it would break the
    place-by-place labels), each character is converted alone."""
    out = _t2s().convert(han)
    return out if len(out) == len(han) else "".join(_match_key(ch) for ch in han)


@dataclass
class HeldOut:
    """Traditional queries on a held-out text made simplified (``score_held_out``): ``direction``
    (recall and precision as in ``score_labelled``, labels: the original characters), and for
    the ambiguous forms, ``decided``: ``{(form, original character): (read as it, read as
    another, undecided)}``; ``places``: the units read; ``unlabelled``: of those, the places where
    the juan prints a simplified-only form that stands for several characters (参 for 參 or 蔘, 夹
    for 夾 or 裌: a 俗字 that the simplification later adopted), which say no character to label by
    and are left out of the precision."""

    direction: Direction
    decided: dict
    places: int = 0
    unlabelled: int = 0


def score_held_out(paths: list[Path], same_word: set[frozenset] = frozenset(), layers: bool = True,
                   examples: int = 0, passages=None) -> HeldOut:
    """Traditional queries on traditional juans (``paths``, Kanripo mandoku files) converted to
    simplified characters (``to_simplified``), labelled by the characters they were converted
    from. The juans must be left out of the reading counts
    (``build_reading_context.HELD_OUT``). At each place where the conversion
    prints a simplified form for a character it may stand for, a search for the original
    character must find it (recall); of what those searches find, the share whose original is
    the character searched for (precision); a place where the juan prints a simplified-only form
    of several characters (``HeldOut.unlabelled``) is left out. Keys as the index makes them for
    a simplified edition (``characters.simplified.text_keys``), over the passages the index reads
    (``juan_passages.held_out_runs``), each read with its layer (``layers`` False: with none).
    ``same_word`` (``word_at_place.variant_table_pairs``): a wrong find whose two characters (folded) are such
    a pair is also counted in ``Direction.same_word``. ``examples``: how many wrong finds of each
    query, original character and cause ``Direction.examples`` shows with their context (of the
    places read by a reading key, the first in the juans). ``passages``: how a juan's text is cut into
    ``(layer, units)`` passages, ``held_out_runs`` when None (a test gives the index's own)."""
    same_folded = {frozenset(fold_char(c) for c in pair) for pair in same_word}
    table = sc._load()
    d = Direction("traditional queries, simplified text (labels: the original characters)", missed=[], false=[])
    by_key: dict[str, Counter] = {}
    decided: dict[tuple[str, str], list[int]] = {}
    queries: set[str] = set()
    places = unlabelled = 0
    context: dict[tuple[str, str], list[str]] = {}   # (reading key, original character): examples
    naming: Counter = Counter()   # (reading key, original character): places that name a character
    same: Counter = Counter()   # (reading key, printed, the other graph): one word two ways (``one_word_at``)
    for path in paths:
        for layer, orig in (passages or held_out_runs)(path.read_text(encoding="utf-8")):
            simp = to_simplified(orig)
            keys = sc.text_keys(simp, sc.SIMPLIFIED, layer if layers else None)
            places += len(orig)
            for i, (form, book, key) in enumerate(zip(simp, orig, keys)):
                if table.get(book, ("",))[0] == "simplified" and len(table[book][1]) > 1:
                    unlabelled += 1   # a 俗字 the juan prints (参, 夹): it does not say which character
                    continue
                by_key.setdefault(key, Counter())[fold_char(book)] += 1
                if sc.reading_of_key(key) is not None:
                    before, after = orig[max(0, i - 3):i], orig[i + 1:i + 4]
                    naming[(key, fold_char(book))] += names_a_character(before, after)
                    printed = fold_char(book)   # a glyph of the pair's graph (㳺 for 游) as the graph
                    for pair in (*ONE_WORD_APART, *ONE_WORD_SHARED):
                        if printed in pair:
                            other = next(iter(pair - {printed}))
                            same[(key, printed, other)] += one_word_at(other, printed, before, after)
                if examples and sc.reading_of_key(key) is not None:
                    seen = context.setdefault((key, fold_char(book)), [])
                    if len(seen) < examples:
                        seen.append(f"{path.name}: {orig[max(0, i - 8):i]}[{book}]{orig[i + 1:i + 9]}")
                if form not in table or book == form:
                    continue
                if fold_char(book) not in _folded_readings(form) | {fold_char(form)}:
                    continue
                queries.add(book)
                d.pair(key in sc.query_keys(book), f"{book}→{form}")
            for form, book, key in zip(simp, orig, keys):
                if sc.is_ambiguous(form):
                    read = sc.key_reading(key)
                    row = decided.setdefault((form, fold_char(book)), [0, 0, 0])
                    row[0 if read == fold_char(book) else 2 if read is None else 1] += 1
    for q in sorted(queries):
        fq = fold_char(q)
        for key in sc.query_keys(q):
            found = by_key.get(key)
            if found:
                d.matches += sum(found.values())
                for c, m in found.items():
                    if not found_as_printed(q, c):
                        d.wrong += m
                        d.same_word += m if frozenset((c, fq)) in same_folded else 0
                        d.wrong_by[(q, c, _cause(key))] += m
                        d.named[(q, c)] += naming[(key, c)]
                        d.one_word += same[(key, c, q)]
                        d.one_word_by[frozenset((q, c))] += same[(key, c, q)]
                        shown = d.examples.setdefault((q, c, _cause(key)), [])
                        shown.extend(context.get((key, c), ())[:max(0, examples - len(shown))])
    return HeldOut(d, {k: tuple(v) for k, v in decided.items()}, places, unlabelled)
