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


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    try:
        port = int(args[0]) if args else 5000
    except ValueError:
        print(f"usage: python -m scorekeeper.address PORT (got {args[0]!r})", file=sys.stderr)
        return 2
    print("scorekeeper: open this address on a phone in the same network:")
    for url in urls(port):
        print(f"    {url}")
    print(f"    (on this machine: http://127.0.0.1:{port}/)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
