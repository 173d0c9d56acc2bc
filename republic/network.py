"""Where this machine can be reached by the phones of a club's network, and where a request came from."""

import ipaddress
import socket

import psutil
from django.conf import settings
from django.http import HttpRequest


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


def client_address(request: HttpRequest) -> str | None:
    """The address a request came from, as the game master's sign-in counts wrong passwords by it. Behind the proxy
    that ends TLS every phone reaches the server from the proxy's address, so for a request from a proxy the
    settings name (``TRUSTED_PROXIES``) it is the last address in X-Forwarded-For: the one that proxy saw, which it
    adds after whatever the phone itself sent. From anywhere else the header is the sender's own word and is not
    read: a forged one would let a phone pass for another or escape its lockout."""
    remote = request.META.get("REMOTE_ADDR")
    if remote not in settings.TRUSTED_PROXIES:
        return remote
    forwarded = [hop.strip() for hop in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if hop.strip()]
    try:
        return str(ipaddress.ip_address(forwarded[-1]))
    except (IndexError, ValueError):
        return remote
