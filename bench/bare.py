"""The bare Flask route ``bench/web.py`` compares the app with: one small JSON answer.

Served by gunicorn with the app's settings (``-c python:scorekeeper.gunicorn_conf``, 2 workers x 4 threads).
"""

from __future__ import annotations

from flask import Flask

app = Flask(__name__)


@app.get("/v")
def version() -> dict[str, int]:
    return {"version": 7}
