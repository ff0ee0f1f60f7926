"""Build the reference texts of 鄭玄's 注 on the three 禮 that ``reprinted_notes`` credits notes by.

Reads ``../shared/corpus`` (Kanripo, CC BY-SA 4.0) and writes
``reader/importers/mandoku/data/classics/zhengzhu.<book>.txt``: a header of ``#`` lines naming the
source files, their commit and the licence, then one note a line, the characters as the source writes
them (matching folds variants), page breaks, column marks and punctuation dropped.

Sources, each an edition other than the books the rule is measured on (禮書綱目 KR1d0086, 儀禮經傳通解
KR1d0085, the seed's 禮書綱目 卷十):

* 儀禮 (``zhengzhu.yili``): 儀禮 鄭氏注 (四部叢刊) KR1d0026: each note's small print, the notes a
  printed line cuts joined (small print that runs on from one ``(…)`` to the next with no full-size
  character between), cut before its first ``○``/``〇`` (陸德明's readings the edition appends).
* 儀禮, a second text (``zhengzhu.yili.judou``): 儀禮鄭註句讀 KR1d0038, 卷一 to 卷十七 (files 001–017),
  read the same way: 張爾岐's own remarks follow 鄭注 in the same small print after ``○`` and are cut
  with it (the 四部叢刊 text lacks or words otherwise some of 鄭注, 大射's among them).
* 周禮 (``zhengzhu.zhouli``): 周禮 鄭氏註 (四部叢刊) KR1d0002, read the same way.
* 禮記 (``zhengzhu.liji``): no edition of the corpus prints the 禮記 with 鄭注 whole (禮記正義 KR1d0061
  is a 單疏本); 欽定禮記義疏 KR1d0068 quotes it under 鄭氏康成曰 in its 正義/存疑/通論 entries: each
  quotation's full-size text from 鄭氏康成曰 to the next ``　`` (the next man quoted), a new entry, the
  classic (a line printed flush), the next man named with 氏 and 曰 (孔氏穎達曰) or the file's end, its small print (the 義疏's own remarks) dropped.

Usage: ``.venv/bin/python scripts/build_commentaries.py [--corpus ../shared/corpus]``.
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR / "scripts"))
from build_classics import LICENCE, OUT, commit_of  # noqa: E402  (one header form and commit lookup)

PB = re.compile(r"<pb:[^>]*>")
PUNCT = re.compile(r"[，。：；「」『』、？！《》（）－*¶〓#=\-\s.0-9A-Za-z/]")
#: The readings 陸德明's 音義 adds at a note's end in the 四部叢刊 editions.
READINGS = re.compile(r"[○〇].*")
#: Where a 鄭氏康成曰 quotation of 欽定禮記義疏 opens, and the labels that open an entry.
ZHENG = "鄭氏康成曰"
ENTRY = re.compile(r"^(正義|存疑|通論|餘論|辨正|總論|案|謹案|附錄|附録)")
#: The next man an entry quotes (孔氏穎達曰, 陳氏澔曰), where no ``　`` parts him from 鄭玄.
NEXT_MAN = re.compile(r"[^\u3000(]{1,2}氏[^\u3000(]{1,3}曰.*")


def lines_of(path: Path) -> list[str]:
    """The printed lines of a mandoku file after its header: page breaks and ¶ dropped."""
    return [PB.sub("", line).rstrip("¶") for line in path.read_text(encoding="utf-8").splitlines()
            if not line.startswith("#") and not line.startswith("<pb:")]


def clean(text: str) -> str:
    """``text`` without punctuation, column marks, whitespace and numbering."""
    return PUNCT.sub("", text)


def sbck_notes(path: Path) -> list[str]:
    """The notes of a 四部叢刊 edition's juan: each run of small print with no full-size character
    between its parts is one note, cut before its readings (``READINGS``)."""
    body = "".join(lines_of(path))
    notes, current, pos = [], [], 0
    for m in re.finditer(r"\(([^()]*)\)", body):
        if current and clean(body[pos:m.start()]):
            notes.append("".join(current))
            current = []
        current.append(m.group(1))
        pos = m.end()
    if current:
        notes.append("".join(current))
    return [t for t in (clean(READINGS.sub("", n)) for n in notes) if t]


def yishu_quotes(path: Path) -> list[str]:
    """The 鄭氏康成曰 quotations of a juan of 欽定禮記義疏 (module docstring)."""
    out, current = [], None
    for line in lines_of(path):
        raw = line.lstrip("\u3000")
        flush = raw == line
        full = re.sub(r"\([^()]*\)?", "", re.sub(r"^[^()]*\)", "", raw))
        if current is not None and (flush or ENTRY.match(full)):
            out.append(current)
            current = None
        while full:
            if current is None:
                at = full.find(ZHENG)
                if at < 0:
                    break
                full, current = full[at + len(ZHENG):], ""
            cut = full.find("\u3000")
            if cut < 0:
                current += full
                break
            out.append(current + full[:cut])
            current, full = None, full[cut:]
    if current is not None:
        out.append(current)
    return [t for t in (clean(NEXT_MAN.sub("", q)) for q in out) if t]


def write(name: str, title: str, source: str, folder: str, commit: str, files: list[Path],
          notes: list[str]) -> None:
    """Write ``data/classics/<name>.txt``: header (title, source, commit, files, licence, how built),
    then one note a line."""
    header = [
        f"# {title}",
        f"# Source: {source}, Kanripo {folder} (https://github.com/kanripo/{folder}), commit {commit},",
        f"#   files {files[0].name} … {files[-1].name} ({len(files)}).",
        f"# {LICENCE}",
        "# Built by scripts/build_commentaries.py: one note a line; page breaks, column marks and",
        "# punctuation dropped; characters as the source writes them (matching folds variants).",
    ]
    (OUT / f"{name}.txt").write_text("\n".join(header + notes) + "\n", encoding="utf-8")
    print(f"{name}: {len(notes):,} notes, {sum(map(len, notes)):,} characters from {len(files)} files")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=BASE_DIR.parent / "shared" / "corpus")
    corpus = ap.parse_args().corpus
    for name, title, source, folder, reader in (
            ("zhengzhu.yili", "鄭玄's 注 on 儀禮 (reprinted notes are credited by it)", "儀禮 鄭氏注 (四部叢刊)",
             "kanripo/KR1d0026", sbck_notes),
            ("zhengzhu.yili.judou", "鄭玄's 注 on 儀禮, a second text (reprinted notes are credited by it)",
             "儀禮鄭註句讀 (WYG)", "kanripo/KR1d0038", sbck_notes),
            ("zhengzhu.zhouli", "鄭玄's 注 on 周禮 (reprinted notes are credited by it)", "周禮 鄭氏註 (四部叢刊)",
             "kanripo/KR1d0002", sbck_notes),
            ("zhengzhu.liji", "鄭玄's 注 on 禮記, as 欽定禮記義疏 quotes it under 鄭氏康成曰", "欽定禮記義疏 (WYG)",
             "kanripo-jingbu/KR1d0068", yishu_quotes)):
        files = sorted((corpus / folder).glob("*_[0-9][0-9][0-9].txt"))
        if folder.endswith("KR1d0038"):  # 卷一–卷十七: the 儀禮; 000 is the front matter, 018– the 監本正誤
            files = [f for f in files if 1 <= int(f.stem[-3:]) <= 17]
        notes = [n for f in files for n in reader(f)]
        write(name, title, source, folder.split("/")[1], commit_of(corpus, folder.split("/")[1]), files, notes)


if __name__ == "__main__":
    main()
