"""Gunicorn settings of every deployment: ``gunicorn -c python:scorekeeper.gunicorn_conf ...``.

Used by ``make run``, the systemd unit in docs/DEPLOY.md and the tests. Binding,
workers and threads stay on the command line.

- The access log redacts tokens (``scorekeeper.accesslog``).
- Gunicorn itself trusts no ``X-Forwarded-*`` header (its default trusts them from
  127.0.0.1): the app's ``PROXY_HOPS`` (werkzeug's ProxyFix) decides, in one place.
- A request whose body gunicorn could not skip is answered with ``Connection: close``
  (see ``pre_request``).
- No control socket (see ``control_socket_disable``).
- A listening socket per worker, so both serve a proxy's few long connections (``reuse_port``).
- What a worker loaded at its start is frozen out of the garbage collector's way (see
  ``post_worker_init``).
"""

from __future__ import annotations

import gc
from typing import Any

logger_class = "scorekeeper.accesslog.RedactingLogger"
forwarded_allow_ips = ""
secure_scheme_headers: dict[str, str] = {}
# Gunicorn 25+ opens a control socket at one fixed path per user ($HOME/.gunicorn/gunicorn.ctl),
# which two instances on one host (a test run beside `make run`) would fight over; systemd and
# `make run` steer gunicorn with signals. (Older gunicorns ignore the unknown setting.)
control_socket_disable = True
# A listening socket per worker (SO_REUSEPORT): the kernel spreads new connections over the
# workers. With one shared socket, the worker that wakes first accepts a burst of connections, and
# a proxy's few long kept-alive connections (its upstream pool) stay with it: one worker served
# them while the other idled (bench/web.py --proxy measures both).
reuse_port = True

# Gunicorn reuses a kept-alive connection only after skipping the part of a request
# body the app did not read, and it skips at most 64 KiB (gunicorn.http.parser's
# _DRAIN_MAX_BYTES); past that it closes the connection although its answer (a 413,
# say) already said "keep-alive", and the client's next request on it fails. An app
# cannot send "Connection: close" itself (gunicorn drops hop-by-hop headers), so a
# request announcing a body this large, or of unknown length, is marked to close:
# its answer says so and the client opens a new connection.
DRAIN_LIMIT = 64 * 1024


def must_close(headers: list[tuple[str, str]]) -> bool:
    """Whether a request with these headers could leave more body than gunicorn skips."""
    for name, value in headers:
        upper = name.upper()
        if upper == "CONTENT-LENGTH":
            try:
                if int(value) >= DRAIN_LIMIT:
                    return True
            except ValueError:
                return True
        elif upper == "TRANSFER-ENCODING" and "chunked" in value.lower():
            return True
    return False


def pre_request(worker: Any, req: Any) -> None:
    if must_close(req.headers):
        req.must_close = True


def post_worker_init(worker: Any) -> None:
    """Once the worker has loaded the app: move everything alive now (modules, classes, the
    app, its templates' machinery: some 150 000 objects) into the collector's permanent
    generation. They live as long as the worker anyway; without this, the first read of a
    large circle (tens of thousands of new objects) sets off a full collection that walks
    all of them (some 70 ms on a 2-core machine, docs/DECISIONS.md, History). Garbage left
    by the start is collected first; everything made later is collected as before."""
    gc.collect()
    gc.freeze()
