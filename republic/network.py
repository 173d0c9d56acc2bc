"""Where this machine can be reached by the phones of a club's network."""

import ipaddress
import socket

import psutil


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses on its networks, loopback and link-local left out: what a phone on the same
    Wi-Fi types to reach the server."""
    found = []
    for interface in psutil.net_if_addrs().values():
        for address in interface:
            if address.family != socket.AF_INET:
                continue
            ip = ipaddress.ip_address(address.address)
            if not (ip.is_loopback or ip.is_link_local):
                found.append(address.address)
    return sorted(set(found))


def served_at(host: str, port: int) -> str:
    """The address to open, for a server bound to ``host``: bound to every interface, the first of the machine's
    network addresses, since 0.0.0.0 is no address a phone can open."""
    if host in ("", "0.0.0.0", "::"):
        host = next(iter(lan_addresses()), "127.0.0.1")
    return f"http://{host}:{port}"
