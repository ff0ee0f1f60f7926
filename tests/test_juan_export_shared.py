"""A juan's export is made once however many requests ask for it at once (``api.juan_exports.made_export``,
``config.kept_work``): 30 simultaneous cold JSON exports of a juan of 2.7 MB each built the whole juan,
and a server of 351 MB took 1.3 GB (bench/juan_exports.py measures it). The computation is held on an
event, not timed."""
import threading

from django.test import Client

from api import juan_exports

URL = "/api/works/{work}/juans/10/export/json/"


def test_requests_asking_at_once_for_a_juans_export_share_one_making(seed_juan, monkeypatch, settings):
    settings.REQUEST_BUDGET_SECONDS = 60
    entered, calls, real_answer, real_joined = [], [], juan_exports.JUAN_EXPORTS.answer, juan_exports.joined
    everyone_asked = threading.Event()

    def answer(*args, **kwargs):
        entered.append(1)
        if len(entered) == 3:
            everyone_asked.set()
        return real_answer(*args, **kwargs)

    def joined(chunks):
        calls.append(1)
        everyone_asked.wait(30)  # made while the three requests wait for it
        return real_joined(chunks)

    monkeypatch.setattr(juan_exports.JUAN_EXPORTS, "answer", answer)
    monkeypatch.setattr(juan_exports, "joined", joined)
    started = juan_exports.JUAN_EXPORTS.started
    answers = []
    url = URL.format(work=seed_juan.work_id)

    def ask():
        response = Client().get(url)
        answers.append((response.status_code, response.content))

    askers = [threading.Thread(target=ask) for _ in range(3)]
    for asker in askers:
        asker.start()
    for asker in askers:
        asker.join()
    alone = Client().get(url)  # kept: made no more
    assert [status for status, _ in answers] == [200, 200, 200] and alone.status_code == 200
    assert len({content for _, content in answers} | {alone.content}) == 1
    assert (calls, juan_exports.JUAN_EXPORTS.started) == ([1], started + 1)
    assert alone["Content-Disposition"] == "attachment; filename*=utf-8''%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE_%E5%8D%B7%E5%8D%81.json"
    # another kind is another file, made once for itself
    assert Client().get(url.replace("/json/", "/source/")).status_code == 200 and calls == [1, 1]


def test_without_a_budget_a_juans_export_is_made_in_the_request(client, seed_juan, monkeypatch):
    """No budget (a command's request, the tests): made in the request and not kept, as a
    quotation map is."""
    started = juan_exports.JUAN_EXPORTS.started
    first = client.get(URL.format(work=seed_juan.work_id))
    assert first.status_code == 200 and first.content == client.get(URL.format(work=seed_juan.work_id)).content
    assert juan_exports.JUAN_EXPORTS.started == started
