"""What the phone benchmarks (offline.py, entry.py) share: the app on a fresh SQLite file,
migrated, and an evening of four to open in Chromium."""

from __future__ import annotations

from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"


def bench_app(db_file: Path, **config: Any) -> Any:
    """The app on ``db_file`` (migrated); ``config`` adds to the bench's settings."""
    import flask_migrate

    from scorekeeper.app import create_app

    app = create_app({"SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{db_file}", **config})
    with app.app_context():
        flask_migrate.upgrade(directory=str(ROOT / "migrations"))
    return app


def bench_evening(app: Any, variant: str, request_id: str) -> str:
    """A new circle's evening of Anna, Beat, Cla and Dora in ``variant``: its slate's path."""
    from scorekeeper.game.rulesets import Variant, default_ruleset
    from scorekeeper.services import circles, evenings

    with app.app_context():
        circle, write, _view = circles.create_circle("Berghaus")
        ev = evenings.start_evening(
            circle,
            ruleset=default_ruleset(Variant(variant)),
            player_names=["Anna", "Beat", "Cla", "Dora"],
            first_dealer=0,
            request_id=request_id,
        )
        return f"/c/{write}/e/{ev.public_id}"
