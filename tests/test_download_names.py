"""The name a download is saved under, from a title or a query that holds a path or characters a
file system refuses (``config.downloads``)."""
import pytest
from django.test import Client

from config.downloads import attachment, file_name

TITLE = "惡</title>]]>&amp;'\\\"題書"
HOSTILE = ("---\ntitle: 惡</title>]]>&amp;'\\\"題書\njuan: 卷一\n---\n"
           + "大射之儀君有命戒射宰戒百官有事於射者射人戒諸公卿大夫射司士戒士射與贊者" * 4 + "\n")


def test_a_name_holding_a_path_or_characters_windows_refuses_is_saved_with_underscores():
    assert file_name("惡</title>]]>&amp;'\\\"題書.tei.xml") == "惡__title_]]_&amp;'__題書.tei.xml"
    assert file_name("../x.csv") == "_x.csv"
    assert file_name("a:b*c?d|e\x07f.csv") == "a_b_c_d_e_f.csv"
    assert file_name("...") == "download"
    assert file_name("禮書綱目_卷十.txt") == "禮書綱目_卷十.txt"
    assert attachment("../x.csv") == 'attachment; filename="_x.csv"'
    # no slash left for quote() to keep: RFC 5987's attr-char has none
    assert attachment("惡</title>.tei.xml") == "attachment; filename*=utf-8''%E6%83%A1__title_.tei.xml"


@pytest.mark.django_db(transaction=True)
def test_an_export_of_a_work_titled_with_a_path_is_named_without_it(tmp_path, search_backend):
    """A work titled 「惡</title>]]>&amp;'\\"題書」 (an imported file's YAML front matter) was exported
    as ``filename*=utf-8''%E6%83%A1%3C/title%3E…``: a slash in the name, which ``curl -OJ`` took as a
    folder and saved as ``title>]]>…``. A query ``a/b`` was a hit list named ``filename="a/b.csv"``."""
    from reader.importers.loader import import_file

    path = tmp_path / "evil.md"
    path.write_text(HOSTILE, encoding="utf-8")
    work = import_file(path).juan.work
    assert work.title == TITLE
    c = Client()
    response = c.get(f"/api/works/{work.pk}/juans/1/export/tei/")
    assert response.status_code == 200
    assert response["Content-Disposition"] == ("attachment; filename*=utf-8''%E6%83%A1__title_%5D%5D_%26amp%3B%27__"
                                               "%E9%A1%8C%E6%9B%B8_%E5%8D%B7%E4%B8%80.tei.xml")
    response = c.get(f"/api/works/{work.pk}/export/maintext/")
    assert "\n---\n大射之儀君有命戒射" in b"".join(response.streaming_content).decode()  # a heavy request: read to its end
    assert response["Content-Disposition"] == ("attachment; filename*=utf-8''%E6%83%A1__title_%5D%5D_%26amp%3B%27__"
                                               "%E9%A1%8C%E6%9B%B8.maintext.txt")
    response = c.get("/api/search/export/csv/", {"q": "a/b"})
    assert b"".join(response.streaming_content).decode() == ("\ufeffwork,juan,section,section_title,layer,before,match,after,url,commentator,"
                                                                       "reading,edition,edition_id,work_id,juan_number\r\n")
    assert response.status_code == 200 and response["Content-Disposition"] == 'attachment; filename="a_b.csv"'
