"""Write a pathological juan: one section made of one very long line (issue 17).

    python3 scripts/long_section.py 2000000 /tmp/long.txt

The seed's first three lines (collection, title line, chapter line), then the seed's fifth
line (main text with four notes) repeated until the line holds at least SIZE bytes of UTF-8,
then the closer 右戒百官 and the seed's last line. With SIZE 2,000,000: one section, 13,676
notes. Import it into a database of its own (it is 禮書綱目 卷十, like the seed).
"""
import sys
from pathlib import Path

SEED = Path(__file__).resolve().parent.parent / "corpus" / "lishu_gangmu_juan10.txt"


def main(size: int, out: str) -> None:
    lines = SEED.read_text(encoding="utf-8").split("\n")
    unit = lines[4]
    body = unit * (size // len(unit.encode()) + 1)
    Path(out).write_text("\n".join(lines[:3] + [body, "右戒百官", "禮書綱目卷十", ""]), encoding="utf-8")


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2])
