"""An import killed with SIGKILL half-way: each juan is there whole or not at all, and
``check_index --repair`` brings the index back in step."""
import os
import signal
import sqlite3
import subprocess
import sys
import time

from reader.numerals import int_to_chinese
from reader.importers.siku import parse_siku

from .conftest import BASE_DIR, SEED


def _env(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL", "SEARCH_"))}
    env.update(DJANGO_DEBUG="true", DJANGO_SETTINGS_MODULE="config.settings",
               DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}", SEARCH_INDEX_DIR=str(tmp_path / "index"))
    return env


def _manage(env, *args, **kw):
    return subprocess.run([sys.executable, "manage.py", *args], cwd=BASE_DIR, env=env, capture_output=True,
                          text=True, timeout=600, **kw)


def test_sigkill_during_a_large_import(tmp_path):
    env = _env(tmp_path)
    seed = SEED.read_text(encoding="utf-8")
    assert _manage(env, "migrate").returncode == 0
    assert _manage(env, "import_texts", str(SEED)).returncode == 0  # the old 卷十
    folder = tmp_path / "texts"
    folder.mkdir()
    expected = {}
    for n in range(1, 61):  # 60 juans; 卷十 in a new version
        label = "卷" + int_to_chinese(n)
        text = seed.replace("禮書綱目卷十", f"禮書綱目{label}")
        if n == 10:
            text = text.replace("大射之儀君有命戒射", "大射之儀君有命戒射新版")
        (folder / f"j{n:03d}.txt").write_text(text, encoding="utf-8")
        expected[n] = {text.replace("大射之儀君有命戒射新版", "大射之儀君有命戒射") if n == 10 else text, text}
    db = sqlite3.connect(tmp_path / "db.sqlite3", timeout=30)
    process = subprocess.Popen([sys.executable, "manage.py", "import_texts", str(folder)], cwd=BASE_DIR, env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 120
    while time.time() < deadline:  # kill it once a few juans have landed, mid-way
        if db.execute("SELECT count(*) FROM reader_juan").fetchone()[0] >= 8:
            break
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    process.wait()
    juans = db.execute("SELECT id, number FROM reader_juan").fetchall()
    assert 8 <= len(juans) < 61
    for juan_id, number in juans:
        sections = db.execute("SELECT count(*) FROM reader_section WHERE juan_id = ?", (juan_id,)).fetchone()[0]
        notes = db.execute("SELECT count(*) FROM reader_piece p JOIN reader_section s ON p.section_id = s.id "
                           "WHERE s.juan_id = ? AND p.kind IN ('note', 'record_note')", (juan_id,)).fetchone()[0]
        assert (sections, notes) == (45, 328), number
    db.close()
    # Every stored juan is exactly one of the versions of its file: never half of one.
    check = _manage(env, "shell", "--no-imports", "-v", "0", "-c", (
        "from reader.models import Juan\nfrom reader.importers.loader import render_source\n"
        "for j in Juan.objects.order_by('number'): print(j.number, render_source(j).count('新版'), "
        "len(render_source(j)))"))
    assert check.returncode == 0, check.stderr
    for line in check.stdout.split("\n"):
        if line.strip():
            number, new, length = map(int, line.split())
            assert any(len(t) == length and t.count("新版") == new for t in expected[number]), line
    # The index may be behind the killed import; check_index finds and repairs that.
    _manage(env, "check_index", "--repair")
    final = _manage(env, "check_index")
    assert final.returncode == 0, final.stdout + final.stderr
    assert final.stdout.strip().startswith("the index matches the database")
