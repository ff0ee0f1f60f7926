#!/usr/bin/env python3
"""Build the character lookup table ``characters/data/chars.tsv.gz`` (and ``characters/data/ATTRIBUTION-chars.md``).

Clicking a character on a reading page shows its Mandarin reading, a short English
definition and its variant forms; ``characters/dictionary.py`` serves them from this table.

Usage::

    .venv/bin/python characters/scripts/build_char_table.py [--data DIR] [--corpus DIR ...] [--out DIR]

``--data`` defaults to ``../shared/data`` (see its README.md): ``unihan/Unihan_Readings.txt.bz2``
(kMandarin, kDefinition, kHanyuPinyin), ``unihan/Unihan_Variants.txt.bz2`` (kTraditionalVariant,
kSimplifiedVariant, kSemanticVariant, kZVariant) and the CJKVI tables in ``variants/``
(``twedu-variants.txt``, ``radical-variants.txt``, ``hydzd-variants.txt``, and ``non-cognates.txt``, which
keeps pairs apart). The classes of
the search's folding table (``characters/data/fold.tsv``, read through ``characters.folding``) add
the variants that search already treats as one character.

Rows: every character Unihan gives a kMandarin or kDefinition, plus every character
(not ASCII, not white space, not a control character) of the corpus folders
(``--corpus``, default ``../shared/corpus`` and the project's ``corpus/``), with or
without data. The output is deterministic: sorted rows and a gzip stream without a
timestamp or file name, so a rebuild from the same sources gives the same bytes.

Format (UTF-8, TAB-separated, one row per character, sorted by code point)::

    CHAR  MANDARIN  OTHER_READINGS  DEFINITION  STANDARD  TRADITIONAL  SIMPLIFIED  VARIANTS  RELATIONS

MANDARIN and OTHER_READINGS (漢語大字典 readings from kHanyuPinyin not in kMandarin)
are space-separated pinyin; STANDARD (正字: the character search folds it to, itself for a
standard character; ``characters.folding``),
TRADITIONAL, SIMPLIFIED and VARIANTS (異體: its other forms) are strings of characters,
one code point each, without separators. RELATIONS says, for each of the VARIANTS, which
sources join it to the character, from the character's side (``乃:moe< 及:hydzd<`` on 弓's row):
``fold`` (search treats them as one character), ``moe>`` / ``moe<`` (the MOE 異體字字典 lists
the variant under the character / the character under the variant, its 正字), ``hydzd>`` /
``hydzd<`` (漢語大字典, the same), ``radical`` (a radical's variant shape), ``unihan``
(kSemanticVariant), ``unihan-z`` (kZVariant). A pair that CJKVI's ``non-cognates.txt`` calls
two characters of one shape (同型異字: 弓 and 𢎗) is not related, unless search folds them.
"""
from __future__ import annotations

import argparse
import bz2
import collections
import gzip
import io
import re
import sys
import unicodedata
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(PROJECT_ROOT))
from characters.scripts import rare_merges  # noqa: E402  (pure Python, beside this script)
from characters.scripts.source_tables import MIT_LICENCE, cjkvi_fields  # noqa: E402

DEFAULT_DATA = PROJECT_ROOT.parent / "shared" / "data"
DEFAULT_CORPORA = [PROJECT_ROOT.parent / "shared" / "corpus", PROJECT_ROOT / "corpus"]
DEFAULT_OUT = PROJECT_ROOT / "characters" / "data"

#: Most variant forms listed for one character (the nearest sources first).
MAX_VARIANTS = 24

_CP = re.compile(r"U\+([0-9A-Fa-f]{4,6})")
_SPACE = re.compile(r"\s+")


def is_char(s: str) -> bool:
    """One code point that is not ASCII, white space or a control/unassigned character."""
    return len(s) == 1 and ord(s) > 0x7F and not s.isspace() and unicodedata.category(s) not in ("Cc", "Cn", "Cs")


def is_compat(ch: str) -> bool:
    """A CJK compatibility ideograph (U+F900..U+FAFF, U+2F800..U+2FA1F)."""
    return 0xF900 <= ord(ch) <= 0xFAFF or 0x2F800 <= ord(ch) <= 0x2FA1F


def clean(text: str) -> str:
    """One line of text for a TSV field: no tabs or newlines."""
    return _SPACE.sub(" ", text).strip()


def read_unihan(path: Path, fields: set[str]) -> dict[str, dict[str, str]]:
    """``{char: {field: value}}`` for the given Unihan fields."""
    out: dict[str, dict[str, str]] = collections.defaultdict(dict)
    with bz2.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("#") or not line.strip():
                continue
            cp, field, value = line.rstrip("\n").split("\t", 2)
            if field in fields:
                out[chr(int(cp[2:], 16))][field] = value
    return out


def unihan_targets(value: str) -> list[str]:
    """The characters named by a Unihan variant field (``U+8AAC<kMatthews U+8BF4``)."""
    return [chr(int(m.group(1), 16)) for m in _CP.finditer(value)]


def hanyu_pinyin(value: str) -> list[str]:
    """Readings of a kHanyuPinyin value (``10506.100:shè,yè,yì 10507.010:shí``), in order."""
    out: list[str] = []
    for entry in value.split():
        _, _, readings = entry.partition(":")
        for r in readings.split(","):
            if r and r not in out:
                out.append(r)
    return out


def read_cjkvi(path: Path) -> list[tuple[str, str, str]]:
    """``A,RELATION,B`` rows of a CJKVI table, single characters only."""
    with path.open(encoding="utf-8") as fh:
        return [(a, rel, b) for a, rel, b in cjkvi_fields(fh) if is_char(a) and is_char(b)]


def corpus_chars(folders: list[Path]) -> set[str]:
    """Every character of every text file under ``folders``, counted by
    ``rare_merges.count_corpus`` (a file that is not UTF-8, an archive such as
    ``kanripo-scale.tar.xz``, is skipped whole, not read as bytes)."""
    return {c for c in rare_merges.count_corpus(folders) if is_char(c)}


def fold_classes() -> tuple[dict[str, str], dict[str, list[str]]]:
    """The search's folding table: ``char -> canonical`` and ``canonical -> members``."""
    sys.path.insert(0, str(PROJECT_ROOT))
    from characters import folding  # pure Python, no Django

    canon: dict[str, str] = {}
    with folding.TABLE_PATH.open(encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("#") or not line.strip():
                continue
            ch = line.split("\t", 1)[0]
            if len(ch) == 1:
                canon[ch] = folding.fold_char(ch)
    members: dict[str, list[str]] = collections.defaultdict(list)
    for ch, c in sorted(canon.items()):
        if ch != c:
            members[c].append(ch)
    return canon, members


def build(data: Path, corpora: list[Path]) -> tuple[list[list[str]], dict]:
    readings = read_unihan(data / "unihan" / "Unihan_Readings.txt.bz2", {"kMandarin", "kDefinition", "kHanyuPinyin"})
    variants = read_unihan(data / "unihan" / "Unihan_Variants.txt.bz2",
                           {"kTraditionalVariant", "kSimplifiedVariant", "kSemanticVariant", "kZVariant"})
    vdir = data / "variants"
    twedu = read_cjkvi(vdir / "twedu-variants.txt")      # REGULAR,twedu/variant,VARIANT
    radical = read_cjkvi(vdir / "radical-variants.txt")  # PROPER,cjkvi/radical-variant,VARIANT
    hydzd = [r for r in read_cjkvi(vdir / "hydzd-variants.txt") if r[1] == "hydzd/variant"]  # PROPER,..,VARIANT
    canon, members = fold_classes()

    standard: dict[str, list[str]] = collections.defaultdict(list)   # variant -> its standard forms
    var: dict[str, list[str]] = collections.defaultdict(list)        # char -> its variant forms
    # (char, variant) -> the relations that join them, from the char's side (``RELATIONS``)
    why: dict[tuple[str, str], list[str]] = collections.defaultdict(list)
    # CJKVI's non-cognates (同型異字): two characters a table may relate by shape, not one character
    apart = {frozenset((a, b)) for a, _, b in read_cjkvi(vdir / "non-cognates.txt")}

    def add(d: dict, key: str, value: str, relation: str = "") -> None:
        if value == key:
            return
        if relation and relation != "fold" and frozenset((key, value)) in apart and canon.get(key, key) != canon.get(value, value):
            return
        if value not in d[key]:
            d[key].append(value)
        if relation and relation not in why[key, value]:
            why[key, value].append(relation)

    # nearest first: the search's own classes, then the MOE table, radical variants, Unihan, 漢語大字典
    # 正字 is what search folds the character to, the decided data (characters.folding): a
    # standard character's 正字 is itself; the MOE table's and the radical list's other
    # relations (弓 under 乃, 王 under 玉, 夨 as the form of 大 inside 吳) are variants only
    for ch, c in canon.items():
        if ch != c:
            add(standard, ch, c)
            for m in [c] + members[c]:
                add(var, ch, m, "fold")
        for m in members.get(ch, []):
            add(var, ch, m, "fold")
    for regular, _, variant in twedu:
        add(var, regular, variant, "moe>")
        add(var, variant, regular, "moe<")
    for proper, rel, variant in radical:
        if rel == "cjkvi/radical-variant":
            add(var, proper, variant, "radical")
            add(var, variant, proper, "radical")
    for ch, fields in sorted(variants.items()):
        for field in ("kSemanticVariant", "kZVariant"):
            for v in unihan_targets(fields.get(field, "")):
                relation = "unihan-z" if field == "kZVariant" else "unihan"
                add(var, ch, v, relation)
                add(var, v, ch, relation)
    for proper, _, variant in hydzd:
        add(var, proper, variant, "hydzd>")
        add(var, variant, proper, "hydzd<")

    wanted = {c for c, f in readings.items() if "kMandarin" in f or "kDefinition" in f}
    in_corpus = corpus_chars(corpora)
    rows = []
    for ch in sorted(wanted | in_corpus, key=ord):
        f = readings.get(ch, {})
        mandarin = f.get("kMandarin", "").split()
        others = [r for r in hanyu_pinyin(f.get("kHanyuPinyin", "")) if r not in mandarin]
        v = variants.get(ch, {})
        trad = [t for t in unihan_targets(v.get("kTraditionalVariant", "")) if t != ch]
        simp = [s for s in unihan_targets(v.get("kSimplifiedVariant", "")) if s != ch]
        std = standard.get(ch) or [ch]
        # compatibility ideographs are encoding duplicates, not forms a reader meets as variants
        vs = [x for x in var.get(ch, []) if x not in std and x not in trad and x not in simp
              and not is_compat(x)][:MAX_VARIANTS]
        relations = " ".join(f"{x}:{','.join(why[ch, x])}" for x in vs if why.get((ch, x)))
        rows.append([ch, " ".join(mandarin), " ".join(others), clean(f.get("kDefinition", "")),
                     "".join(std), "".join(trad), "".join(simp), "".join(vs), relations])
    info = {"unihan": len(wanted), "corpus": len(in_corpus), "corpus_only": len(in_corpus - wanted),
            "corpus_without_data": sorted(c for c in in_corpus if not readings.get(c) and not standard.get(c))}
    return rows, info


HEADER = """\
# characters/data/chars.tsv.gz -- character lookup table (reading, definition, variant forms).
# Generated by characters/scripts/build_char_table.py; do not edit by hand. Sources and licences:
# characters/data/ATTRIBUTION-chars.md (Unicode Han Database: Unicode License; CJKVI variants: MIT).
# Columns: CHAR MANDARIN OTHER_READINGS DEFINITION STANDARD TRADITIONAL SIMPLIFIED VARIANTS RELATIONS
"""


def render(rows: list[list[str]]) -> bytes:
    text = HEADER + "".join("\t".join(r) + "\n" for r in rows)
    buf = io.BytesIO()
    # mtime=0 and no file name: the same rows give the same bytes
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, mtime=0, compresslevel=9) as gz:
        gz.write(text.encode("utf-8"))
    return buf.getvalue()


ATTRIBUTION = """\
# Attribution: characters/data/chars.tsv.gz

`chars.tsv.gz`, the table behind the character lookup on reading pages (`/chars/<char>/`),
is generated by `characters/scripts/build_char_table.py` from the following data. The derived table is
distributed with the project under the terms of these licences.

## Unicode Han Database (Unihan)

Unihan 15.0 (Debian package unicode-data 15.0.0-1): `Unihan_Readings.txt` (kMandarin,
kDefinition, kHanyuPinyin) and `Unihan_Variants.txt` (kTraditionalVariant,
kSimplifiedVariant, kSemanticVariant, kZVariant).

Copyright © 1991-2022 Unicode, Inc. Distributed under the Unicode License
(https://www.unicode.org/license.txt; terms of use https://www.unicode.org/terms_of_use.html).

## CJKVI variants database

github.com/cjkvi/cjkvi-variants, commit e4f1da248c9737a243f9930b5dc497cef5d5ae16 —
`twedu-variants.txt` (異體字 → 正字 of the Taiwan Ministry of Education 異體字字典),
`radical-variants.txt`, `hydzd-variants.txt` (漢語大字典 variants), `non-cognates.txt` (同型異字:
pairs of one shape that are two characters, not listed as variants).

MIT licence. Copyright (c) 2014 CJKVI Database.

## The search's folding table

The variant classes of `characters/data/fold.tsv` (sources and licences in
`characters/data/ATTRIBUTION.md`: CJKVI, irg kVariants, Unihan, OpenCC).

## MIT licence text (CJKVI)

""" + MIT_LICENCE


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA, help=f"source data (default: {DEFAULT_DATA})")
    ap.add_argument("--corpus", type=Path, action="append",
                    help="corpus folder whose characters must all have a row (repeatable; default: "
                         + ", ".join(map(str, DEFAULT_CORPORA)) + ")")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"output directory (default: {DEFAULT_OUT})")
    args = ap.parse_args(argv)

    rows, info = build(args.data, args.corpus or DEFAULT_CORPORA)
    data = render(rows)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "chars.tsv.gz").write_bytes(data)
    (args.out / "ATTRIBUTION-chars.md").write_bytes(ATTRIBUTION.encode("utf-8"))
    print(f"wrote {args.out / 'chars.tsv.gz'} ({len(data):,} bytes, {len(rows):,} rows) and ATTRIBUTION-chars.md")
    print(f"Unihan characters with a reading or definition: {info['unihan']:,}; corpus characters: "
          f"{info['corpus']:,} ({info['corpus_only']:,} not among them)")
    none = info["corpus_without_data"]
    print(f"corpus characters with neither a reading nor a standard form: {len(none):,}: {''.join(none[:60])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
