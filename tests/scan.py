"""An independent plain scan of a seed-form file, by layer, for checking search counts.

Written from the file's form with regular expressions, sharing no code with the parser
or the index: if both agree, neither has lost a hit.
"""
import re

NOTE = re.compile(r"【([^】]*)】")


def layers_of(raw: str) -> dict[str, list[str]]:
    """Passages of the seed juan's body by layer: text (main text per line, notes cut out),
    note, record (record text per line, notes cut out), record_note, title."""
    lines = raw.lstrip("\ufeff").replace("\r\n", "\n").split("\n")
    header, chapter, body = lines[:2], lines[2], lines[3:-1]
    out = {"text": [], "note": [], "record": [], "record_note": [], "title": chapter.split(" ")}
    for line in body:
        if line.startswith("右"):
            title, _, record = line[1:].partition(" ")
            out["title"].append("右" + title)
            if record:
                out["record"].append(NOTE.sub("", record))
                out["record_note"].extend(NOTE.findall(record))
            continue
        if line.startswith("經【"):
            out["title"].append("經")
            line = line[1:]
        out["text"].append(NOTE.sub("", line))
        out["note"].extend(NOTE.findall(line))
    return out


def scan_count(passages: list[str], phrase: str) -> int:
    """Non-overlapping occurrences of ``phrase`` in the passages, as ``str.count`` counts."""
    return sum(p.count(phrase) for p in passages)
