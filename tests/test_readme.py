"""The README's commands work as written on a fresh clone: a management command run without
``DJANGO_DEBUG`` (and without ``DJANGO_SECRET_KEY``) stops with a one-line message
(``config.settings``), so every ``manage.py`` command the README shows sets it."""
import re

from .conftest import BASE_DIR


def _commands(markdown: str) -> list[str]:
    """The shell commands of the README: the lines of its ``sh`` blocks (a line ending in ``\\``
    joined with the next) and its inline code spans that run the virtualenv's Python (not those
    that only name a command, such as ``manage.py import_texts PATH...``)."""
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", markdown, re.S):
        commands += [c.strip() for c in block.replace("\\\n", " ").splitlines() if c.strip()]
    prose = re.sub(r"```.*?```", "", markdown, flags=re.S)
    spans = [" ".join(span.split()) for span in re.findall(r"`([^`]+)`", prose)]  # a span may wrap a line
    commands += [span for span in spans if ".venv/bin/python " in span]
    return commands


def test_every_management_command_of_the_readme_sets_django_debug():
    """The README's import of the whole library (Benchmark) ran ``.venv/bin/python manage.py
    import_texts …`` without ``DJANGO_DEBUG=true``: copied as written, it only printed
    "DJANGO_DEBUG is off and DJANGO_SECRET_KEY is not set"."""
    commands = [c for c in _commands((BASE_DIR / "README.md").read_text(encoding="utf-8")) if "manage.py " in c]
    assert [c.split("manage.py ")[1].split()[0] for c in commands] == ["import_texts", "import_texts", "runserver", "import_texts",
                                                                       "create_account"]
    assert [c for c in commands if not re.match(r"DJANGO_DEBUG=true \.venv/bin/python manage\.py ", c)] == []


def _curl_commands() -> dict[str, list[str]]:
    """Every ``curl`` command of README.md and docs/ (inline code spans and code blocks), by file."""
    found = {}
    for path in [BASE_DIR / "README.md", *sorted((BASE_DIR / "docs").rglob("*.md"))]:
        text = path.read_text(encoding="utf-8")
        spans = [" ".join(s.split()) for s in re.findall(r"`([^`\n]*(?:\n[^`\n]*)?)`", text)]
        blocks = [line for block in re.findall(r"```\w*\n(.*?)```", text, re.S) for line in block.splitlines()]
        commands = [c.strip() for c in spans + blocks if c.strip().startswith("curl ")]
        if commands:
            found[str(path.relative_to(BASE_DIR))] = commands
    return found


def test_every_curl_example_percent_encodes_its_url():
    """A new user ran ``curl 'http://127.0.0.1:8000/api/search/?q=鵠'``: raw UTF-8 in a request line
    is not valid HTTP, and the development server answered "Bad request syntax". Every curl example
    keeps its URL ASCII (percent-encoded) and lets curl encode a Chinese query
    (``-G --data-urlencode``); the README and the API's introduction say so."""
    commands = _curl_commands()
    assert commands == {
        "README.md": ["curl -G --data-urlencode 'q=鵠' http://127.0.0.1:8000/api/search/"],
        "docs/api.md": [
            "curl -G --data-urlencode 'q=鵠' --data-urlencode 'layer=commentary' http://127.0.0.1:8000/api/search/",
            "curl 'http://127.0.0.1:8000/api/search/?q=%E9%B5%A0&layer=commentary'",
        ],
        "docs/guide.md": [
            "curl -L -o juan10.tei.xml http://127.0.0.1:8000/api/works/%E7%A6%AE%E6%9B%B8%E7%B6%B1%E7%9B%AE/juans/10/export/tei/",
        ],
        "docs/reading.md": ["curl -G --data-urlencode 'format=json' http://127.0.0.1:8000/chars/%E4%B8%AA/"],
    }
    for command in [c for cs in commands.values() for c in cs]:
        urls = re.findall(r"https?://\S+", command)
        assert urls and all(url.isascii() for url in urls), command
        assert all(arg.isascii() for arg in re.split(r"--data-urlencode '[^']*'", command)), command


def test_the_tours_simplified_edition_as_the_readme_says(db, search_backend, seed_juan, client):
    """The tour's step that imports a simplified edition, run as the README writes it (its path
    ``../shared/…`` read beside the clone, as the README says), finds what the README says:
    後 finds 36 of the 41 后 of the simplified edition, each hit read as 後, the other 5 those of
    夏后氏; 於 97 of its 133 于; in the traditional seed 後 finds none of its 8 后."""
    import shlex

    from django.core.management import call_command

    from reader.models import Edition

    from .conftest import index_all
    from .test_docs_figures import script_figures, says

    command = next(c for c in _commands((BASE_DIR / "README.md").read_text(encoding="utf-8"))
                   if "yili_shigong_zengzhu_simplified" in c)
    words = shlex.split(command)
    assert words[:4] == ["DJANGO_DEBUG=true", ".venv/bin/python", "manage.py", "import_texts"]
    call_command("import_texts", *[str((BASE_DIR / w).resolve()) for w in words[4:]], verbosity=0)
    index_all(search_backend)
    edition = Edition.objects.get(work__title="仪礼释宫増注")
    assert edition.slug == "仪礼释宫増注" and "字體：簡體 (simplified)" in client.get("/works/仪礼释宫増注/").content.decode()
    assert says("README.md", "It is read as simplified (its page, `/works/仪礼释宫増注/`, says 字體：簡體 (simplified))")
    figures, seed = script_figures(client, edition.slug), script_figures(client, "禮書綱目")
    assert {k: figures[k] for k in ("後", "后", "後 reads", "后 left", "於", "于")} == {
        "後": 36, "后": 41, "後 reads": {"後"}, "后 left": ["夏后氏"] * 5, "於": 97, "于": 133}
    assert (seed["后"], seed["後 reads"], len(seed["后 left"])) == (8, set(), 8)  # 後 finds none of the seed's 后
    assert says("README.md", f"`/search/?q=後` finds in it {figures['後']} of its {figures['后']} 后, each hit saying "
                             f"讀作「後」 (the other {len(figures['后 left'])} are the 后 of 夏后氏), and `/search/?q=於` "
                             f"{figures['於']} of its {figures['于']} 于, while in the traditional 禮書綱目 後 finds none "
                             f"of its {seed['后']} 后")
