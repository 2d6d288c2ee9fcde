"""The circle's data through the pages: export (JSON, CSV), restore an upload into a new
circle, delete for good after two questions."""

from __future__ import annotations

import io
import json
import re
from typing import Any

import pytest
from flask.testing import FlaskClient
from shared_helpers import flashes, hidden
from web_helpers import create_circle, fill_evening, start_evening

from scorekeeper.game.rulesets import Variant
from scorekeeper.history import export
from scorekeeper.history.sample import sample_circle
from scorekeeper.models import utcnow


@pytest.fixture
def app_config() -> dict[str, Any]:
    return {"WTF_CSRF_ENABLED": True, "IMPORT_MAX_BYTES": 2 * 1024 * 1024}


def _restore(client: FlaskClient, data: bytes, name: str = "export.json") -> Any:
    page = client.get("/restore").text
    return client.post(
        "/restore",
        data={**hidden(page, "/restore"), "file": (io.BytesIO(data), name)},
        content_type="multipart/form-data",
    )


def test_export_then_restore_through_the_pages(client: FlaskClient) -> None:
    circle, view = create_circle(client, "Sternen")
    evening = start_evening(client, circle, Variant.THREE)
    fill_evening(client, evening, Variant.THREE)
    page = client.get(evening).text
    if "/cuts/draw" in page:  # a tie to cut: the cut closes the evening
        client.post(f"{evening}/cuts/draw", data=hidden(page, "/cuts/draw"))
    assert "/reopen" in client.get(evening).text  # over with its last cell (and cut)
    page = client.get(f"{circle}/data").text
    assert "Download the export (JSON)" in page
    resp = client.get(f"{circle}/export.json")
    assert resp.status_code == 200 and resp.headers["Content-Disposition"].startswith("attachment;")
    doc = json.loads(resp.data)
    assert doc["format"] == "scorekeeper-circle" and len(doc["evenings"]) == 1
    csv_ = client.get(f"{circle}/export.csv")
    assert csv_.data.startswith("\ufeff".encode()) and csv_.data.count(b"\r\n") == 31
    for path in ("/data", "/export.json", "/export.csv", "/delete"):
        assert client.get(view + path).status_code == 403  # onlookers cannot take the data away

    restored = _restore(client, resp.data)
    assert restored.status_code == 200, flashes(restored.text)
    assert "Restored from the export file" in restored.text
    new_write = re.search(r'id="write-link"[^>]*value="https?://[^/]+(/c/[^"]+)"', restored.text)
    assert new_write
    old_page, new_page = client.get(circle).text, client.get(new_write.group(1)).text
    old_history = re.search(r'<ul class="list history">.*?</ul>', old_page, re.S)
    new_history = re.search(r'<ul class="list history">.*?</ul>', new_page, re.S)
    assert old_history and new_history
    strip = re.compile(r'href="[^"]*"')
    assert strip.sub("", new_history.group(0)) == strip.sub("", old_history.group(0))


def test_a_large_file_restores_and_a_bad_one_is_refused(client: FlaskClient) -> None:
    big = export.dumps(sample_circle(5, evenings=60, players=6), utcnow()).encode()
    assert len(big) > 256 * 1024  # above the pages' usual limit
    assert _restore(client, big).status_code == 200
    for data, words in (
        (b"\x89PNG", "not readable JSON"),
        (b'{"format": "scorekeeper-circle", "version": 1}', "damaged"),
        (b'{"a": 1}', "not a scorekeeper export"),
    ):
        resp = _restore(client, data)
        assert resp.status_code == 422
        assert any(words in f for f in flashes(resp.text)), flashes(resp.text)
    page = client.get("/restore").text
    resp = client.post("/restore", data={**hidden(page, "/restore")}, content_type="multipart/form-data")
    assert resp.status_code == 422 and any("Choose the export file" in f for f in flashes(resp.text))
    resp = client.post("/restore", data={"file": (io.BytesIO(big), "x.json")}, content_type="multipart/form-data")
    assert resp.status_code == 422 and any("Nothing was written" in f for f in flashes(resp.text))  # no CSRF


def test_delete_is_asked_twice_and_leaves_nothing(client: FlaskClient) -> None:
    circle, view = create_circle(client, "Sternen")
    start_evening(client, circle, Variant.THREE)
    first = client.get(f"{circle}/delete").text
    assert "Download the export (JSON) first" in first and "Continue to delete" in first
    second = client.get(f"{circle}/delete/confirm").text
    assert "type its name" in second
    wrong = client.post(f"{circle}/delete/confirm", data={**hidden(second, "/delete/confirm"), "name": "Sterne"})
    assert wrong.status_code == 422 and any("exactly" in f for f in flashes(wrong.text))
    assert client.get(circle).status_code == 200
    done = client.post(f"{circle}/delete/confirm", data={**hidden(second, "/delete/confirm"), "name": "sternen"})
    assert done.status_code == 200 and "has been erased" in done.text
    assert client.get(circle).status_code == 410  # its links say the circle was deleted
    assert client.get(view).status_code == 410
    assert "This circle was deleted" in client.get(view).text


@pytest.mark.parametrize(
    ("name", "header"),
    [
        ("scorekeeper-sternen-2026-12-01.json", 'attachment; filename="scorekeeper-sternen-2026-12-01.json"'),
        (
            "scorekeeper-zürich-2026-12-01.csv",
            'attachment; filename="scorekeeper-zurich-2026-12-01.csv"; '
            "filename*=UTF-8''scorekeeper-z%C3%BCrich-2026-12-01.csv",
        ),
        ("中文.json", "attachment; filename=\"download.json\"; filename*=UTF-8''%E4%B8%AD%E6%96%87.json"),
        ("中文", "attachment; filename=\"download\"; filename*=UTF-8''%E4%B8%AD%E6%96%87"),
        ('a"; b\\c.png', "attachment; filename=\"a-b-c.png\"; filename*=UTF-8''a%22%3B%20b%5Cc.png"),
    ],
)
def test_a_file_name_in_any_script_is_one_header_every_client_reads(name: str, header: str) -> None:
    from scorekeeper.downloads import content_disposition

    made = content_disposition(name)
    assert made == header and made.isascii()
