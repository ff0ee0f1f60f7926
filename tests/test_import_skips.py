"""A Kanripo file with a header and no text is skipped with a notice; the rest imports."""
import shutil
from io import StringIO

import pytest
from django.core.management import call_command

from reader.models import Juan

from .conftest import SHARED

JINGBU = SHARED / "corpus" / "kanripo-jingbu"


def test_a_header_only_file_is_skipped_with_a_notice(tmp_path, empty_transactional_db):
    folder = tmp_path / "KR1a0007"
    folder.mkdir()
    for name in ("KR1a0007_ext.txt", "KR1a0007_001.txt"):
        shutil.copy(JINGBU / "KR1a0007" / name, folder / name)
    out, err = StringIO(), StringIO()
    call_command("import_texts", str(folder), stdout=out, stderr=err)
    assert f"skipped {folder / 'KR1a0007_ext.txt'}:19:1: no text: the file has a header but no main text" in err.getvalue()
    assert "1 works, 1 juans" in out.getvalue() and "1 files without text skipped" in out.getvalue()
    assert "rejected" not in out.getvalue() + err.getvalue()
    assert list(Juan.objects.values_list("source_name", flat=True)) == ["KR1a0007_001.txt"]
