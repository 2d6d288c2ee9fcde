"""Print the address(es) a phone on the same network opens: ``python -m scorekeeper.address PORT``.

The local IP is found with the UDP-connect trick: connecting a UDP socket only
picks the outgoing interface, no packet is sent. Falls back to 127.0.0.1.
"""

from __future__ import annotations

import socket
import sys

# Public addresses used only to pick a route; nothing is sent to them.
_PROBES = (("192.0.2.1", 9), ("10.255.255.255", 1), ("8.8.8.8", 53))


def local_ips() -> list[str]:
    """The machine's LAN addresses (IPv4), best first; ``["127.0.0.1"]`` when there is none."""
    found: list[str] = []
    for host, port in _PROBES:
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            s.connect((host, port))
            ip = s.getsockname()[0]
        except OSError:
            continue
        finally:
            s.close()
        if ip and not ip.startswith(("127.", "0.")) and ip not in found:
            found.append(ip)
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            ip = str(info[4][0])
            if not ip.startswith(("127.", "0.")) and ip not in found:
                found.append(ip)
    except OSError:
        pass
    return found or ["127.0.0.1"]


def urls(port: int) -> list[str]:
    return [f"http://{ip}:{port}/" for ip in local_ips()]


def lan_url(port: int) -> str:
    """The address phones open (the first one printed), without the trailing slash."""
    return urls(port)[0].rstrip("/")


def main(argv: list[str] | None = None) -> int:
    """Print the addresses; with ``--lan-url`` only the first, as the value of SCOREKEEPER_LAN_URL.

    ``make run`` prints the addresses, then starts gunicorn with ``SCOREKEEPER_LAN_URL``
    set to the first of them, so a page opened at 127.0.0.1 on the laptop still shows
    links and QR codes that a phone can open.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    only_url = "--lan-url" in args
    args = [a for a in args if a != "--lan-url"]
    try:
        port = int(args[0]) if args else 5000
    except ValueError:
        print(f"usage: python -m scorekeeper.address [--lan-url] PORT (got {args[0]!r})", file=sys.stderr)
        return 2
    if only_url:
        print(lan_url(port))
        return 0
    print("scorekeeper: open this address on a phone in the same network:")
    for url in urls(port):
        print(f"    {url}")
    print(f"    (on this machine: http://127.0.0.1:{port}/; its links and QR codes still show the first address)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
