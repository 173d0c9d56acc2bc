"""The turn log on its own page, a hundred events a page, the newest first."""

from tests.games.conftest import brigade, set_state


def test_a_long_log_is_paged_newest_first(client, demo):
    davis = brigade(demo, "Davis's Brigade")
    for n in range(250):
        set_state(demo, davis, m_hits=n % 4)
    newest = client.get(f"/games/{demo.pk}/log/").content.decode()
    assert "Events 201–250 of 250" in newest and "#250 " in newest and "#200 " not in newest
    assert 'href="?page=2"' in newest and "Later →" not in newest
    first = client.get(f"/games/{demo.pk}/log/?page=1").content.decode()
    assert "Events 1–100 of 250" in first and "#1 " in first and "#101 " not in first


def test_a_page_that_is_not_there_shows_the_last_one(client, demo):
    set_state(demo, brigade(demo, "Davis's Brigade"), m_hits=1)
    for page in ("99", "nonsense", "-1"):
        body = client.get(f"/games/{demo.pk}/log/?page={page}").content.decode()
        assert "#1 " in body
