"""A section's name is its corrected reading's, on its page and in the API alike: after a layer
correction of part of its first piece of the classic (decision 0061) and text corrections, the page's
<title> read 「父母遊遊遊遊有方…」 but the API's ``name`` (section and juan JSON) 「父母在不逺遊遊遊…」, the
characters made commentary still in it. Both read the overlay's parts (``JuanOverlay.rows``:
``corrections.receivers.corrected_runs`` for ``reader.citation.section_openings``)."""
import re

from django.test import Client

from corrections.workflow import accept, propose
from reader.importers.loader import import_file
from reader.models import Juan, Piece

from .conftest import SHARED
from .test_corrections import account

FILE = SHARED / "corpus" / "kanripo-jingbu" / "KR1h0007" / "KR1h0007_004.txt"


def test_the_page_title_and_the_api_name_read_the_corrected_parts(db):
    juan = import_file(FILE).juan
    juan = Juan.objects.select_related("work", "edition").get(pk=juan.pk)
    piece = Piece.objects.get(section__juan=juan, section__position=3, text__startswith="子曰父母在不逺遊遊必有方")
    contributor, editor = account("cn", "contributor"), account("en", "editor")
    at = dict(section=3, piece=piece.position, reason="r")

    def names():
        page = Client().get("/works/KR1h0007/juan/4/3/").content.decode()
        title = re.search(r"<title>([^<]*)</title>", page).group(1)
        section = Client().get(f"/api/editions/{juan.edition_id}/juans/4/sections/3/").json()
        whole = Client().get(f"/api/editions/{juan.edition_id}/juans/4/").json()
        listed = next(s for c in whole["chapters"] for s in c["sections"] if s["position"] == 3)
        return title, section["name"], listed["name"]

    before = names()
    accept(propose(contributor, juan, kind="text", start=10, end=11, replacement="遊遊", **at), editor, reason="是")
    accept(propose(contributor, juan, kind="layer", start=4, end=7, new_layer="commentary", **at), editor, reason="是")
    after = names()
    # 在不逺 (characters 5-7) made commentary, 有 made 遊遊: the classic reads 子曰父母 遊遊必遊遊方
    page = " · 論語注疏（四庫全書・文淵閣本）卷四 · 經注閱讀"
    assert before == ("子曰父母在不逺遊…" + page, "子曰父母在不逺遊…", "子曰父母在不逺遊…")
    assert after == ("子曰父母遊遊必遊…" + page, "子曰父母遊遊必遊…", "子曰父母遊遊必遊…")
