"""Lists that cite places in several editions of one work ask no query per row for their
editions' names (``Edition.cited_name``, ``Edition.several``: one count query per edition
object unless ``reader.models.count_siblings`` set it): the lists of proposals asked for with
one row and with five, a span's parallels with its three places, the queries counted (django's
assertNumQueries), on the seed and both Kanripo copies of 禮書綱目 卷十 (three editions of one
work). The quotation map and a section's parallels list other works' places only, and count
their editions' editions the same way (``collation.quotations``, ``collation.parallels``)."""
from django.test import Client

from corrections.workflow import propose
from reader.models import Piece

from .test_corrections import account
from .test_editions import _three_editions, three  # noqa: F401 - the fixtures

#: Each list of proposals, who reads it, and the queries it asks, whether it lists one row or five.
LISTS = {"/corrections/mine/": ("contributor", 7), "/corrections/notes/": ("contributor", 7),
         "/corrections/": ("editor", 12)}  # the queue names each place as the form counts it: 3 queries (name_places)
#: The three editions as the lists name them, after the work's title.
NAMES = ("禮書綱目（欽定四庫全書・純文字本）", "禮書綱目（四庫全書・文淵閣本）", "禮書綱目（四庫全書・文淵閣本・原字）")


def named(page: str) -> list[str]:
    return [name for name in NAMES if name in page]


class TestOnTheThreeEditions:
    def test_the_lists_of_proposals_ask_as_many_queries_for_five_rows_as_for_one(self, three, django_assert_num_queries):
        """/corrections/mine/, /corrections/notes/ and the queue with proposals on one edition, then on
        all three (five rows): the same queries, each row naming its edition."""
        seed, kr, wyg = three
        people = {"contributor": account("cq", "contributor"), "editor": account("eq", "editor")}

        def add(juans, at):
            for i, juan in enumerate(juans):
                piece = next(p.position for p in Piece.objects.filter(section__juan=juan, section__position=1)
                             .order_by("position") if len(p.text) > 10)
                for kind, text in (("text", "〇"), ("private_note", "記")):
                    propose(people["contributor"], juan, kind=kind, section=1, piece=piece, start=at + i,
                            end=at + i + 1, replacement=text, reason="r" if kind == "text" else "")

        def pages(rows: int) -> dict[str, list[str]]:
            out = {}
            for url, (who, queries) in LISTS.items():
                client = Client()
                client.force_login(people[who])
                with django_assert_num_queries(queries):
                    page = client.get(url).content.decode()
                assert page.count("卷十 §1") == rows  # the queue's headings set no space after （…）
                out[url] = named(page)
            return out

        add([kr], 0)
        assert pages(1) == {url: ["禮書綱目（四庫全書・文淵閣本）"] for url in LISTS}
        add([seed, wyg, kr, seed], 1)
        assert pages(5) == {url: list(NAMES) for url in LISTS}

    def test_a_span_s_parallels_name_each_edition_with_one_query_for_them_all(self, three, django_assert_num_queries):
        """/parallels/?text= lists every place of the span, each edition named: the span's three
        places (one an edition) ask the candidates' juans, sections and pieces, the sections
        kept, and their editions' counts of editions in one query (``count_siblings``)."""
        client = Client()
        with django_assert_num_queries(5):
            page = client.get("/parallels/", {"text": "大射之儀君有命戒射宰戒百官有事於射者射人戒諸公卿"}).content.decode()
        assert page.count("同 24 字") == 3 and [page.count(f"{name} 卷十") for name in NAMES] == [1, 1, 1]
