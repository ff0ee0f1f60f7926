"""The pathological input, timed: one section made of one very long line.

    flock /work/heavy.lock nice -n 10 .venv/bin/python bench/long_section.py [--size 2000000] [--repeat 3]

Writes the juan (``write_long_juan``: the seed's first three lines, then its fifth line, main
text with four notes, repeated until the line holds at least ``--size`` bytes of UTF-8, then
the closer 右戒百官 and the seed's last line; with 2,000,000 bytes: one section, 13,676 notes;
it is 禮書綱目 卷十, like the seed), imports it into a SQLite database and index of its own in a
temporary folder (page cache off), and asks for each URL of its pages, the API and the
exports through Django's test client (the whole middleware stack, the time budget included,
with ``REQUEST_BUDGET_SECONDS`` as set in the environment), ``--repeat`` times. Prints, per
URL, the status, the size of the answer, the slowest and the fastest wall time and the
pieces rendered (``reader.templatetags.pieces.RENDERED``).
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

BASE = Path(__file__).resolve().parent.parent
SEED = BASE / "corpus" / "lishu_gangmu_juan10.txt"


def write_long_juan(size: int, out: Path) -> None:
    """The seed juan made into one section of at least ``size`` bytes on one line, at ``out``."""
    lines = SEED.read_text(encoding="utf-8").split("\n")
    unit = lines[4]
    body = unit * (size // len(unit.encode()) + 1)
    out.write_text("\n".join(lines[:3] + [body, "右戒百官", "禮書綱目卷十", ""]), encoding="utf-8")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=2_000_000, help="bytes of UTF-8 in the long line")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    args.slug, args.juan = "禮書綱目", 10
    tmp = Path(tempfile.mkdtemp(prefix="bench-long-"))
    write_long_juan(args.size, tmp / "long.txt")
    os.environ.update(DJANGO_DEBUG="true", DATABASE_URL=f"sqlite:///{tmp / 'db.sqlite3'}",
                      SEARCH_INDEX_DIR=str(tmp / "index"), PAGE_CACHE_SECONDS="0", PAGE_CACHE_DIR=str(tmp / "cache"),
                      DJANGO_SETTINGS_MODULE="config.settings")
    for command in (["migrate", "-v", "0"], ["import_texts", str(tmp / "long.txt")]):
        subprocess.run([sys.executable, "manage.py", *command], cwd=BASE, check=True, stdout=subprocess.DEVNULL)
    sys.path.insert(0, str(BASE))
    import django

    django.setup()
    from django.conf import settings
    from django.test import Client

    from reader.models import Juan, Piece
    from reader.templatetags.pieces import RENDERED

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    juan = Juan.objects.get(edition__slug=args.slug, number=args.juan)
    section = juan.sections.order_by("-id").first()
    chars = sum(len(t) for t in Piece.objects.filter(section=section).values_list("text", flat=True))
    print(f"{args.slug} juan {args.juan} section {section.position}: {section.pieces.count()} pieces, "
          f"{chars:,} characters; REQUEST_BUDGET_SECONDS={settings.REQUEST_BUDGET_SECONDS:g}, "
          f"SECTION_PAGE_CHARS={settings.SECTION_PAGE_CHARS}")
    page = f"/works/{quote(args.slug)}/juan/{args.juan}/{section.position}/"
    api = f"/api/editions/{juan.edition_id}/juans/{args.juan}/sections/{section.position}/"
    urls = [page, page + "?hl=" + quote("射"), page + "?hl=" + quote("射") + "&page=2", api, api + "?page=2",
            "/api/search/?q=" + quote("射"), "/search/?q=" + quote("射"), f"/works/{quote(args.slug)}/juan/{args.juan}/",
            f"/works/{quote(args.slug)}/juan/{args.juan}/quotations/", f"/api/editions/{juan.edition_id}/juans/{args.juan}/",
            f"/api/editions/{juan.edition_id}/juans/{args.juan}/export/source/",
            f"/api/editions/{juan.edition_id}/juans/{args.juan}/export/tei/"]
    client = Client()
    worst = 0.0
    for url in urls:
        times = []
        for _ in range(args.repeat):
            before = RENDERED["pieces"]
            start = time.perf_counter()
            response = client.get(url)
            times.append(time.perf_counter() - start)
            rendered = RENDERED["pieces"] - before
        worst = max(worst, max(times))
        print(f"{response.status_code} {len(response.content):>10,} B  max {max(times):7.2f} s  "
              f"min {min(times):7.2f} s  pieces rendered {rendered:>6}  {url}")
    print(f"largest: {worst:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
