"""An error that echoes what a client sent shows no control or direction character as it is
(``config.api_errors.shown``): ``?with=%E2%80%AE`` put a raw U+202E RIGHT-TO-LEFT OVERRIDE in
the layer check's 400, which turned the rest of the message round on the reader's screen. One
place reads every error body of the API (``ApiErrorsMiddleware``); the pages' echoes call
``shown`` themselves. A key written as a number that is no id is said to be no id."""
import pytest

from config.api_errors import shown

from .test_juan_layer_check import pair  # noqa: F401  (論語注疏 卷四 and its reference, stored)


def test_shown_writes_controls_and_direction_characters_as_code_points():
    assert shown("a\u202eb\u2066c\u200bd\x01e\x85f\ufeff鵠") == "a<U+202E>b<U+2066>c<U+200B>d<U+0001>e<U+0085>f<U+FEFF>鵠"
    assert shown("射侯 (no 'x')") == "射侯 (no 'x')"


def test_the_layer_check_echoes_a_direction_control_as_its_code_point(pair, client):
    response = client.get(f"/api/editions/{pair.edition_id}/juans/4/layer-check/?with=%E2%80%AE")
    assert (response.status_code, response.json()) == (400, {"with": [
        "「<U+202E>」不是論語注疏之經的他本（可核對：KR1h0005）（not an edition of the classic of 論語注疏: <U+202E>）"]})
    assert "\u202e" not in response.content.decode()
    page = client.get("/works/KR1h0007/juan/4/layers/?with=%E2%80%AE")
    assert page.status_code == 400 and "\u202e" not in page.content.decode()
    assert "「&lt;U+202E&gt;」不是論語注疏之經的他本（可核對：KR1h0005）" in page.content.decode()


def test_every_api_error_is_read_so_whoever_wrote_it(seed_juan, client):
    """The search's own message (``q`` too long), a 404 of a path, a slug: each echo shown."""
    response = client.get("/api/editions/\u202eKR1/")
    assert (response.status_code, response.json()) == (404, {"detail": "沒有此版本：<U+202E>KR1（no edition with this slug）"})
    response = client.get("/api/search/", {"q": "也", "sort": "x\u2067"})
    assert (response.status_code, response.json()) == (400, {"sort": [
        "沒有「x<U+2067>」這種排序 (unknown sort 'x<U+2067>'; choose from text, relevance, after, before)"]})


@pytest.mark.parametrize("key, detail", [
    ("-1", "沒有此版本：-1，編號為從 1 起的整數（no edition '-1': an id is a whole number from 1 in ASCII digits, and no "
           "edition has this slug）"),
    ("１", "沒有此版本：１，編號為從 1 起的整數（no edition '１': an id is a whole number from 1 in ASCII digits, and no "
          "edition has this slug）"),
    ("0", "沒有此版本：/api/editions/0/juans/4/（no edition at /api/editions/0/juans/4/）"),
    ("999999", "沒有此版本：/api/editions/999999/juans/4/（no edition at /api/editions/999999/juans/4/）"),
    ("KR9z9999", "沒有此版本：KR9z9999（no edition with this slug）")])
def test_a_number_that_is_no_id_is_said_to_be_no_id(seed_juan, client, key, detail):
    """``/api/editions/-1/…`` said "no edition with this slug" of a number."""
    response = client.get(f"/api/editions/{key}/juans/4/")
    assert (response.status_code, response.json()) == (404, {"detail": detail})
