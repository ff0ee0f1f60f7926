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
                                                                       "reading,edition,edition_slug,work_key,juan_number,edition_id,work_id,"
                                                                       "work_part,before_stored,match_stored,after_stored,author\r\n")
    assert response.status_code == 200 and response["Content-Disposition"] == 'attachment; filename="a_b.csv"'


def test_a_name_that_reorders_what_a_file_list_shows_names_a_device_or_is_too_long_is_made_saveable():
    """A right-to-left override made ``x\\u202egpj.csv`` show as ``xvsc.jpg`` in a file list; Windows
    refuses ``CON.csv`` (a device); a query of 200 characters made a name of 604 bytes, past the 255
    a file system holds (``curl -OJ``: "File name too long")."""
    assert [file_name(n) for n in ("x\u202egpj.csv", "a\u2066b\u2069\u200f\u2028\x85\ufeff.csv")] == [
        "x_gpj.csv", "a_b_____.csv"]
    assert [file_name(n) for n in ("CON.csv", "nul.tei.xml", "com1", "LPT9 .txt", "CONSOLE.csv", "禮書.csv")] == [
        "_CON.csv", "_nul.tei.xml", "_com1", "_LPT9 .txt", "CONSOLE.csv", "禮書.csv"]
    long = file_name("射" * 200 + ".csv")
    assert (long, len(long.encode())) == ("射" * 83 + ".csv", 253)
    # never inside a gaiji entity or a character: the entity is left out whole
    assert file_name("射" * 80 + "&KR0628;" + "射" * 10 + "_卷十.tei.xml") == "射" * 80 + ".tei.xml"
    assert file_name("a" * 300) == "a" * 255


@pytest.mark.django_db
def test_a_hit_list_of_a_long_query_is_named_within_255_bytes(client, seed_backend):
    query = " OR ".join(["射人戒諸公卿大夫射"] * 15)  # 195 characters, 135 of them Chinese
    response = client.get("/api/search/export/csv/", {"q": query})
    body = b"".join(response.streaming_content).decode()
    assert response.status_code == 200 and body.count("\r\n") > 1
    name = response["Content-Disposition"].removeprefix("attachment; filename*=utf-8''")
    from urllib.parse import unquote
    saved = unquote(name)
    assert len(saved.encode()) <= 255 and saved.endswith(".csv") and saved.startswith("射人戒諸公卿大夫射 OR 射人戒")
