"""``pip install .`` gives a whole app: the wheel, installed into a fresh virtual environment
away from the checkout, migrates its database, serves pages and static files, and speaks
Swiss German, French and Italian (the compiled catalogs of every language are in it)."""

from __future__ import annotations

import http.client
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from hosting_helpers import free_port, stop, wait_until_up

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = sorted(p.name for p in (ROOT / "scorekeeper" / "translations").iterdir() if p.is_dir())

pytestmark = [pytest.mark.packaging, pytest.mark.slow]


def _run(
    args: list[str], cwd: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, f"{args}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def _source_copy(target: Path) -> Path:
    """The checkout's files (tracked and new, never ignored ones such as .mo or .venv)."""
    listed = _run(["git", "ls-files", "-z", "-co", "--exclude-standard"], cwd=ROOT).stdout.split("\0")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    assert not list(target.rglob("*.mo")), "the copy must not bring compiled catalogs: the build makes them"
    return target


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("git") is None:
        pytest.skip("git is needed to list the checkout's files")
    source = _source_copy(tmp_path_factory.mktemp("source"))
    dist = tmp_path_factory.mktemp("dist")
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(source)])
    (built,) = dist.glob("scorekeeper-*.whl")
    return built


def test_the_wheel_carries_templates_static_migrations_and_catalogs(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {"de_CH", "fr_CH", "it_CH"} <= set(LANGUAGES)
    for lang in LANGUAGES:
        assert f"scorekeeper/translations/{lang}/LC_MESSAGES/messages.mo" in names, lang
    for folder in ("templates", "static", "migrations"):
        shipped = {n for n in names if n.startswith(f"scorekeeper/{folder}/")}
        on_disk = {
            f"scorekeeper/{folder}/{p.relative_to(ROOT / folder).as_posix()}"
            for p in (ROOT / folder).rglob("*")
            if p.is_file() and "__pycache__" not in p.parts
        }
        assert on_disk and on_disk <= shipped, sorted(on_disk - shipped)[:5]
    assert "scorekeeper/gunicorn_conf.py" in names
    package = {  # every file of the package in the checkout: code and package data (JSON tables...)
        f"scorekeeper/{p.relative_to(ROOT / 'scorekeeper').as_posix()}"
        for p in (ROOT / "scorekeeper").rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix not in (".pyc", ".mo")
    }
    assert package <= names, sorted(package - names)[:5]


# A browser's language -> the <html lang> and words its page must have (from the compiled catalogs).
PAGES = {
    "de-CH": ("de-CH", "Jassrunde"),
    "fr-CH,fr;q=0.9": ("fr-CH", "Nouveau cercle"),
    "it-CH,it;q=0.9": ("it-CH", "Nuovo gruppo"),
}


def test_installed_wheel_serves_swiss_german_french_and_italian(wheel: Path, tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", str(venv)])
    bin_dir = venv / "bin"
    _run([str(bin_dir / "python"), "-m", "pip", "install", "-q", str(wheel)])
    work = tmp_path / "elsewhere"  # far from the checkout: only the installed package can be imported
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SCOREKEEPER_", "PYTHON"))}
    env.update(
        DATABASE_URL=f"sqlite:///{work / 'db.sqlite3'}",
        SCOREKEEPER_INSTANCE_PATH=str(work / "instance"),
        FLASK_APP="scorekeeper.app",
    )
    where = _run([str(bin_dir / "python"), "-c", "import scorekeeper; print(scorekeeper.__file__)"], cwd=work, env=env)
    assert where.stdout.strip().startswith(str(venv)), where.stdout
    _run([str(bin_dir / "flask"), "db", "upgrade"], cwd=work, env=env)  # the migrations inside the package

    port = free_port()
    log = work / "gunicorn.log"
    args = [str(bin_dir / "gunicorn"), "-c", "python:scorekeeper.gunicorn_conf", "--workers", "1"]
    args += ["--bind", f"127.0.0.1:{port}", "scorekeeper.app:create_app()"]
    with log.open("wb") as out:
        process = subprocess.Popen(args, cwd=work, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        wait_until_up(port, process, log, "/readyz")
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        for accept, (lang, words) in PAGES.items():
            conn.request("GET", "/", headers={"Accept-Language": accept})
            page = conn.getresponse()
            html = page.read().decode()
            assert page.status == 200
            assert f'<html lang="{lang}">' in html
            assert words in html, html[:800]  # the page in that language, from the compiled catalog
        css = html.split('href="/static/css/app.css', 1)[1].split('"', 1)[0]
        conn.request("GET", "/static/css/app.css" + css)
        static = conn.getresponse()
        assert static.status == 200 and len(static.read()) > 1000
        assert static.getheader("Cache-Control") == "public, max-age=31536000, immutable"
        conn.close()
    finally:
        stop(process)
