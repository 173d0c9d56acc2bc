"""A club chart kept by an earlier version of the app, before every cell was held to its table's span, with a cell
today's checks refuse (a NaN): every page of a game on it says which chart and which cell, never a server error."""

from republic.charts import checksum_of
from republic.games.models import ClubChart, Game
from republic.games.models.charts import forget_loaded
from tests.chart_files import BAD_CELLS, chart_text
from tests.devices import seated_device
from tests.games.conftest import HTMX


def test_a_game_on_a_kept_chart_that_todays_checks_refuse_says_so_on_every_page(client, demo):
    text = chart_text(BAD_CELLS["nan-in-a-grid"][0], name="Old club chart")
    kept = ClubChart.objects.create(name="Old club chart", version="2024", checksum=checksum_of(text), text=text)
    Game.objects.filter(pk=demo.pk).update(chart_checksum=kept.checksum, chart_version=kept.version)
    forget_loaded()
    phone = seated_device(demo, "Union")
    for device in (client, phone):
        response = device.get(f"/games/{demo.pk}/")
        body = response.content.decode()
        assert response.status_code == 503, body[:300]
        assert "This game&#x27;s chart cannot be read" in body and "Old club chart (2024)" in body
        assert "today&#x27;s checks refuse it" in body
    answer = client.post(f"/games/{demo.pk}/next/", {"version": demo.version}, **HTMX)
    assert answer.status_code == 503 and "Old club chart (2024)" in answer.content.decode()
