"""The chart reference page: every table of the shipped chart with each cell's provenance."""

import re

import pytest

from republic.charts import shipped_chart


@pytest.mark.django_db
def test_chart_page_shows_every_table_and_marks_provisional_cells(client):
    response = client.get("/chart/")
    assert response.status_code == 200
    page = response.content.decode()
    for table in shipped_chart().tables.values():
        assert f'id="{table.name}"' in page
    assert 'class="is-provisional"' in page
    assert "R:1714-1719" in page  # a confirmed cell shows its source


def test_the_page_uses_vendored_assets_not_a_cdn(client):
    page = client.get("/chart/").content.decode()
    assert "/static/vendor/htmx/htmx.min.js" in page
    assert "/static/vendor/bootstrap/bootstrap.min.css" in page
    # no script, sheet or image from another host (a word test would meet "cdn" in a random security token)
    assert not re.search(r'(?:src|href)="(?:https?:)?//', page)
