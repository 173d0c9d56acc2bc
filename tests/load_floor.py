"""The server's own work a request, measured after the load's runs (tests/load.py) or alone (``main``): devices, each
on a kept-alive connection, ask the app's web manifest; after a load, as many as its goal run had, at the goal run's
rate of requests. The manifest's answer reads no session, no database and no template, so what the server spends on
it is granian's and Django's work alone (its access log included, as in the goal run): the part of the goal run's
processor a request that no change to what the app draws can take away.

locust is imported where the devices are made, not with this module: it patches the standard library for gevent
when imported, and the tests read this module's arithmetic."""

import random
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tests.load import Cpu

ADDRESS = "/manifest.webmanifest"
SETTLE_SECONDS = 5.0  # after the devices are all asking, before the measure begins


def floor(address: str, devices: int, rate: float, seconds: float, cpu: "Cpu") -> tuple[int, int, tuple[float, ...]]:
    """``devices`` devices asking the manifest at ``rate`` requests a second in all, each at a moment of its own,
    measured for ``seconds``: the requests answered, those failed, and the cores used (``cpu.cores``: the server,
    the devices, the machine, PostgreSQL)."""
    import gevent
    from locust import FastHttpUser, constant, task
    from locust.env import Environment

    every = devices / rate

    class Asker(FastHttpUser):
        wait_time = constant(0)
        fixed_count = devices

        def on_start(self) -> None:
            gevent.sleep(random.uniform(0, every))

        @task
        def ask(self) -> None:
            started = time.monotonic()
            with self.client.get(ADDRESS, name="manifest", catch_response=True) as answer:
                if answer.status_code != 200:
                    answer.failure(f"status {answer.status_code}")
            gevent.sleep(max(0.0, every - (time.monotonic() - started)))

    environment = Environment(user_classes=[Asker], host=address)
    runner = environment.create_local_runner()
    runner.start(devices, spawn_rate=min(devices, 100))  # locust warns above 100 a second
    try:
        gevent.sleep(every + SETTLE_SECONDS)
        environment.stats.reset_all()
        before = cpu.sample()
        gevent.sleep(seconds)
        after = cpu.sample()
        total = environment.stats.total
        return total.num_requests - total.num_failures, total.num_failures, cpu.cores(before, after)
    finally:
        runner.quit()


def server_ms_per_request(cores: float, seconds: float, requests: int) -> float:
    """The processor time of the server (master and workers together) per request it served, in ms."""
    return cores * seconds / max(1, requests) * 1000


def own_work_line(
    answered: int, failed: int, seconds: float, devices: int, server_cores: float, whole_ms: float | None = None
) -> str:
    """The line the load prints: the server's own work a request, beside the goal run's ``whole_ms`` a request when
    there was one, and what is left of that to the app."""
    asked = answered + failed
    own_ms = server_ms_per_request(server_cores, seconds, asked)
    line = (
        f"the server's own work: {own_ms:.1f} ms a request ({server_cores:.2f} cores) for an answer that reads "
        f"nothing, {asked} asked at {asked / seconds:.0f} a second by {devices} devices on kept-alive connections, "
        f"{failed} failed"
    )
    if whole_ms is None:
        return line
    app_ms = max(0.0, whole_ms - own_ms)
    return f"{line}; of the goal run's {whole_ms:.1f} ms a request, {app_ms:.1f} ms is the app's reading and drawing"


def main() -> int:
    """``python -m tests.load_floor``: the server's own work alone, on a fresh SQLite file (or DATABASE_URL's
    PostgreSQL under .ci/with-postgres): FLOOR_DEVICES [400] devices at FLOOR_RATE [133] requests a second, the
    rate of a convention's 400 phones polling every 3 s, for LOAD_FLOOR_SECONDS [60]; LOAD_WORKERS and
    LOAD_THREADS set the server's processes and threads as in tests/load.py."""
    import shutil
    import tempfile
    from pathlib import Path

    from tests import load
    from tests.databases import fresh_database, manage

    devices = int(load.env_number("FLOOR_DEVICES", 400))
    rate = load.env_number("FLOOR_RATE", 133)
    seconds = load.env_number("LOAD_FLOOR_SECONDS", 60)
    folder = Path(tempfile.mkdtemp(prefix="republic-floor-"))
    try:
        with fresh_database(folder) as database:
            manage(database, "migrate", "--noinput", "-v0")
            with load.serving(database, folder) as (address, cpu):
                answered, failed, cores = floor(address, devices, rate, seconds, cpu)
        print(f"{own_work_line(answered, failed, seconds, devices, cores[0])}; the machine {cores[2]:.2f} cores")
        return 1 if failed else 0
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    import sys

    sys.exit(main())
