from flask.testing import FlaskClient

from scorekeeper.game.rulesets import Variant
from web_helpers import create_circle, fill_evening, start_evening


def test_three_full(client: FlaskClient) -> None:
    w, v = create_circle(client)
    ev = start_evening(client, w, Variant.THREE)
    fill_evening(client, ev, Variant.THREE)
    r = client.get(ev)
    assert r.status_code == 200
    open("/tmp/three_full.html", "w").write(r.text)
