"""Time the requests of issue 17's pathological input: one section made of one very long line.

    python3 scripts/long_section.py 2000000 /tmp/long.txt
    export DJANGO_DEBUG=true DATABASE_URL=sqlite:////tmp/long.sqlite3 SEARCH_INDEX_DIR=/tmp/long-index \\
           PAGE_CACHE_SECONDS=0 PAGE_CACHE_DIR=/tmp/long-cache
    .venv/bin/python manage.py migrate && .venv/bin/python manage.py import_texts /tmp/long.txt
    flock /work/heavy.lock nice -n 10 .venv/bin/python scripts/measure_long_section.py [--repeat 3]

Each URL is asked for through Django's test client (the whole middleware stack, the time
budget included, with ``REQUEST_BUDGET_SECONDS`` as set in the environment), ``--repeat``
times; the script prints, per URL, the status, the size of the answer, the slowest and the
fastest wall time and the pieces rendered (``reader.templatetags.reading.RENDERED``).
"""
import argparse
import os
import sys
import time
from pathlib import Path
from urllib.parse import quote

BASE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--slug", default="禮書綱目")
    parser.add_argument("--juan", type=int, default=10)
    args = parser.parse_args(argv)

    import django

    django.setup()
    from django.conf import settings
    from django.test import Client

    from reader.models import Juan, Piece
    from reader.templatetags.reading import RENDERED

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
