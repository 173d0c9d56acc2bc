"""Setting up a game: the games list, and the game master's admin (editable while setting up, read-only once
play has begun; events never editable)."""

import json

import pytest
from django.test import Client
from django.urls import reverse

from republic.games.ledger import snapshot
from republic.games.models import Command, Event, Game, Leader, Side, Unit, setup_of
from republic.games.scenario import create_game, parse_scenario
from republic.games.scenario_csv import CSV_COLUMNS
from republic.games.steps.walk import advance
from republic.scenarios import DEMO_SCENARIO
from tests.games.conftest import battery, brigade, set_state, state_matches_events, summary

DEMO = DEMO_SCENARIO.read_text(encoding="utf-8")


@pytest.fixture
def setting_up(db) -> Game:
    """The demo order of battle, waiting for the sides to choose the first attacker."""
    return create_game(parse_scenario(DEMO.replace("first_attacker: Confederate\n", "")), "Table two")


def change_url(obj) -> str:
    return reverse(f"admin:games_{obj._meta.model_name}_change", args=[obj.pk])


def form_data(response, **changes) -> dict:
    """The admin change form as drawn (its fields and inline formsets), with some fields changed: what a browser
    would post back."""
    data = {}

    def take(form):
        for name, field in form.fields.items():
            value = field.prepare_value(form[name].value())
            if value is None or value is False:
                continue
            data[form.add_prefix(name)] = "on" if value is True else value

    take(response.context["adminform"].form)
    for inline in response.context["inline_admin_formsets"]:
        take(inline.formset.management_form)
        for form in inline.formset.forms:
            take(form)
    for name, value in changes.items():
        if value is None:
            data.pop(name, None)
        else:
            data[name] = value
    return data


# --- the games list -----------------------------------------------------------------------------------------------


def test_the_games_list_shows_each_game_and_the_upload_form_with_the_csv_columns(client, demo, setting_up):
    page = client.get("/").content.decode()
    assert f'href="/games/{demo.pk}/"' in page and f'href="/games/{setting_up.pk}/"' in page
    assert "Confederate vs Union" in page and "setting up" in page and "in progress" in page
    assert 'enctype="multipart/form-data"' in page and 'name="file"' in page
    for column in CSV_COLUMNS:
        assert f"<code>{column}</code>" in page, column


def test_the_games_list_links_the_admin_for_staff_only(admin_client, demo):
    assert "/admin/" not in Client().get("/").content.decode()
    assert 'href="/admin/"' in admin_client.get("/").content.decode()


# --- the admin: lists, filters, search ----------------------------------------------------------------------------


@pytest.mark.parametrize("model", [Game, Side, Command, Leader, Unit, Event])
def test_every_admin_list_loads_filters_by_game_and_searches(admin_client, demo, setting_up, model):
    set_state(demo, brigade(demo, "Davis's Brigade"), m_hits=1)
    url = reverse(f"admin:games_{model._meta.model_name}_changelist")
    assert admin_client.get(url).status_code == 200
    if model is Game:
        response = admin_client.get(url, {"status__exact": "setting_up"})
        assert list(response.context["cl"].result_list) == [setting_up]
        assert list(admin_client.get(url, {"q": "Table two"}).context["cl"].result_list) == [setting_up]
        return
    response = admin_client.get(url, {"game__id__exact": demo.pk})
    assert response.status_code == 200
    rows = list(response.context["cl"].result_list)
    assert rows and all(row.game_id == demo.pk for row in rows)
    assert len(rows) == model.objects.filter(game=demo).count()
    term = {Side: "Union", Command: "Heth", Leader: "Heth", Unit: "Davis", Event: "Davis"}[model]
    found = list(admin_client.get(url, {"q": term, "game__id__exact": demo.pk}).context["cl"].result_list)
    searched = {
        Side: lambda r: r.name,
        Command: lambda r: r.name,
        Leader: lambda r: r.name + r.command.name,
        Unit: lambda r: r.name,
        Event: summary,
    }[model]
    assert found and all(term in searched(row) for row in found)
    assert model is Event or len(found) < len(rows)


def test_the_admin_needs_a_staff_sign_in(demo):
    response = Client().get(change_url(brigade(demo, "Davis's Brigade")))
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


# --- events: read-only --------------------------------------------------------------------------------------------


def test_events_are_shown_but_never_added_changed_or_deleted(admin_client, demo):
    davis = brigade(demo, "Davis's Brigade")
    set_state(demo, davis, m_hits=2)
    event = Event.objects.get(game=demo)
    listing = admin_client.get(reverse("admin:games_event_changelist"), {"game__id__exact": demo.pk})
    assert listing.context["cl"].list_display[:5] == ("seq", "kind", "summary", "provisional", "printed_chart")
    body = listing.content.decode()
    assert "CorrectionMade" in body and "Correction: Davis&#x27;s Brigade: M hits 2 (Rattled)" in body
    assert reverse("admin:games_event_add") not in body
    assert admin_client.get(reverse("admin:games_event_add")).status_code == 403
    page = admin_client.get(change_url(event))
    assert page.status_code == 200 and page.context["has_change_permission"] is False
    assert 'name="_save"' not in page.content.decode()
    admin_client.post(change_url(event), {"payload": "{}", "kind": "Nothing"})
    event.refresh_from_db()
    assert (summary(event), event.kind) == ("Correction: Davis's Brigade: M hits 2 (Rattled)", "CorrectionMade")
    assert admin_client.post(reverse("admin:games_event_delete", args=[event.pk]), {"post": "yes"}).status_code == 403
    assert "delete_selected" not in admin_client.get(reverse("admin:games_event_changelist")).context[
        "cl"
    ].model_admin.get_actions(listing.wsgi_request)
    assert Event.objects.filter(pk=event.pk).exists()


# --- a game under way: read-only, and saying so -------------------------------------------------------------------


@pytest.mark.parametrize(
    "pick",
    [
        lambda g: g,
        lambda g: g.sides.get(name="Union"),
        lambda g: Command.objects.get(game=g, name="Heth's Division"),
        lambda g: Leader.objects.get(game=g, name="Henry Heth"),
        lambda g: brigade(g, "Davis's Brigade"),
        lambda g: battery(g, "Garnett's Battalion"),
    ],
    ids=["game", "side", "command", "leader", "brigade", "battery"],
)
def test_a_game_in_progress_is_read_only_in_the_admin_and_says_why(admin_client, demo, pick):
    obj = pick(demo)
    page = admin_client.get(change_url(obj))
    assert page.status_code == 200
    body = page.content.decode()
    assert page.context["has_change_permission"] is False and 'name="_save"' not in body
    assert "is under way (status in progress" in body and "would bypass the event log" in body
    before = snapshot(demo)
    response = admin_client.post(change_url(obj), {"name": "Renamed", "m_hits": "3", "status": "setting_up"})
    assert response.status_code == 403
    model = type(obj)
    if model is not Game:
        assert (
            admin_client.post(
                reverse(f"admin:games_{model._meta.model_name}_delete", args=[obj.pk]), {"post": "yes"}
            ).status_code
            == 403
        )
        assert model.objects.filter(pk=obj.pk).exists()
    assert snapshot(demo) == before
    assert state_matches_events(demo)


def test_a_finished_game_and_a_game_with_events_are_read_only_too(admin_client, demo, setting_up):
    with_events = setting_up
    set_state(with_events, brigade(with_events, "Archer's Brigade"), m_hits=1)
    assert (
        admin_client.get(change_url(brigade(with_events, "Archer's Brigade"))).context["has_change_permission"] is False
    )
    Game.objects.filter(pk=demo.pk).update(status=Game.Status.FINISHED)
    page = admin_client.get(change_url(brigade(demo, "Davis's Brigade")))
    assert page.context["has_change_permission"] is False and "status finished" in page.content.decode()


def test_the_game_page_still_changes_a_game_in_progress_after_an_admin_visit(admin_client, demo):
    davis = brigade(demo, "Davis's Brigade")
    admin_client.get(change_url(davis))
    admin_client.post(f"/games/{demo.pk}/units/{davis.pk}/m_plus/", {"version": demo.version})
    davis.refresh_from_db()
    assert davis.m_hits == 1 and state_matches_events(demo)


def test_no_new_rows_can_be_attached_to_a_game_in_progress(admin_client, demo):
    heth = Command.objects.get(game=demo, name="Heth's Division")
    response = admin_client.post(
        reverse("admin:games_unit_add"),
        {
            "division": heth.pk,
            "name": "Extra",
            "order": 99,
            "grade": "green",
            "kind": "infantry",
            "bases_start": 3,
            "bases": 3,
            "formation": "two_line",
            "skirmishers_available": 0,
            "skirmishers_deployed": 0,
            "m_hits": 0,
            "p_hits_turn": 0,
            "base_hits_turn": 0,
            "functions_used": "[]",
        },
    )
    assert response.status_code == 200
    assert "division" in response.context["adminform"].form.errors
    assert not Unit.objects.filter(name="Extra").exists()
    side_form = admin_client.get(reverse("admin:games_side_add")).context["adminform"].form
    assert demo not in side_form.fields["game"].queryset


# --- a game being set up: editable, and its setup snapshot follows ------------------------------------------------


def test_a_brigade_of_a_game_being_set_up_is_edited_and_the_setup_follows(admin_client, setting_up):
    archer = brigade(setting_up, "Archer's Brigade")
    page = admin_client.get(change_url(archer))
    assert page.context["has_change_permission"] is True and "under way" not in page.content.decode()
    response = admin_client.post(change_url(archer), form_data(page, grade="crack", bases_start="5", bases="5"))
    assert response.status_code == 302, response.context["adminform"].form.errors
    archer.refresh_from_db()
    assert (archer.grade, archer.bases_start, archer.bases, archer.game_id) == ("crack", 5, 5, setting_up.pk)
    setting_up.refresh_from_db()
    assert setup_of(setting_up)[archer.key]["grade"] == "crack"
    assert setup_of(setting_up) == snapshot(setting_up) and state_matches_events(setting_up)


def test_a_brigade_is_refused_more_bases_than_it_started_with(admin_client, setting_up):
    archer = brigade(setting_up, "Archer's Brigade")
    page = admin_client.get(change_url(archer))
    response = admin_client.post(change_url(archer), form_data(page, bases="9"))
    assert response.status_code == 200 and "bases" in response.context["adminform"].form.errors
    archer.refresh_from_db()
    assert archer.bases == 4


def test_a_brigade_added_while_setting_up_joins_its_division_game_and_setup(admin_client, setting_up):
    heth = Command.objects.get(game=setting_up, name="Heth's Division")
    form = admin_client.get(reverse("admin:games_unit_add")).context["adminform"].form
    assert set(form.fields["division"].queryset) == set(Command.objects.filter(game=setting_up, level="division"))
    response = admin_client.post(
        reverse("admin:games_unit_add"),
        {
            "division": heth.pk,
            "name": "Lane's Brigade",
            "order": 99,
            "grade": "green",
            "kind": "infantry",
            "bases_start": 5,
            "bases": 5,
            "formation": "two_line",
            "skirmishers_available": 0,
            "skirmishers_deployed": 0,
            "m_hits": 0,
            "p_hits_turn": 0,
            "base_hits_turn": 0,
        },
    )
    assert response.status_code == 302, response.context["adminform"].form.errors
    lane = Unit.objects.get(name="Lane's Brigade")
    assert lane.game == setting_up and lane.division == heth
    setting_up.refresh_from_db()
    assert lane.key in setup_of(setting_up) and state_matches_events(setting_up)


def test_a_command_and_its_leaders_inline_are_edited_while_setting_up(admin_client, setting_up):
    heth = Command.objects.get(game=setting_up, name="Heth's Division")
    page = admin_client.get(change_url(heth))
    assert page.status_code == 200
    [leaders] = page.context["inline_admin_formsets"]
    assert [f.instance.name for f in leaders.formset.forms] == ["Henry Heth"]
    data = form_data(page, orders="hold", **{"leaders-0-rating": "2"})
    response = admin_client.post(change_url(heth), data)
    assert response.status_code == 302
    heth.refresh_from_db()
    assert heth.orders == "hold" and str(heth.leader.value) == "E2"
    setting_up.refresh_from_db()
    assert setup_of(setting_up)[f"leader:{heth.leader.pk}"]["rating"] == 2 and state_matches_events(setting_up)


def test_a_command_cannot_serve_under_another_sides_command_or_a_lower_level(admin_client, setting_up):
    heth = Command.objects.get(game=setting_up, name="Heth's Division")
    union_corps = Command.objects.get(game=setting_up, name="I Corps")
    page = admin_client.get(change_url(heth))
    response = admin_client.post(change_url(heth), form_data(page, parent=str(union_corps.pk)))
    assert response.status_code == 200 and "parent" in response.context["adminform"].form.errors
    page = admin_client.get(change_url(heth))
    response = admin_client.post(change_url(heth), form_data(page, level="corps"))
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["level"] == ["a corps cannot serve under a corps (2.1)"]
    heth.refresh_from_db()
    assert heth.parent.name == "Third Corps" and heth.level == "division"


def test_a_game_being_set_up_is_edited_with_its_sides_inline(admin_client, setting_up):
    page = admin_client.get(change_url(setting_up))
    assert page.status_code == 200
    assert set(page.context["adminform"].form.fields["first_attacker"].queryset) == set(setting_up.sides.all())
    union = setting_up.sides.get(name="Union")
    index = [f.instance for f in page.context["inline_admin_formsets"][0].formset.forms].index(union)
    data = form_data(page, name="Table two, Friday", **{f"sides-{index}-players": "Ann, Bob"})
    response = admin_client.post(change_url(setting_up), data)
    assert response.status_code == 302
    setting_up.refresh_from_db()
    union.refresh_from_db()
    assert setting_up.name == "Table two, Friday" and union.players == "Ann, Bob"
    assert setup_of(setting_up)[f"side:{union.pk}"]["players"] == "Ann, Bob" and state_matches_events(setting_up)


def test_deleting_a_unit_while_setting_up_takes_it_out_of_the_setup(admin_client, setting_up):
    guns = battery(setting_up, "Garnett's Battalion")
    response = admin_client.post(reverse("admin:games_unit_delete", args=[guns.pk]), {"post": "yes"})
    assert response.status_code == 302
    setting_up.refresh_from_db()
    assert guns.key not in setup_of(setting_up) and state_matches_events(setting_up)


def test_play_starts_from_the_edited_setup(client, admin_client, setting_up):
    archer = brigade(setting_up, "Archer's Brigade")
    page = admin_client.get(change_url(archer))
    admin_client.post(change_url(archer), form_data(page, m_hits="2"))
    confederate = setting_up.sides.get(name="Confederate")
    client.post(
        f"/games/{setting_up.pk}/act/first-attacker/game-{setting_up.pk}/",
        {"version": setting_up.version, "side": confederate.pk, "how": "agreed"},
    )
    setting_up.refresh_from_db()
    assert setting_up.status == Game.Status.IN_PROGRESS
    advance(setting_up, None, "test")
    setting_up.refresh_from_db()
    assert setting_up.step == "rally" and state_matches_events(setting_up)
    assert json.dumps(setup_of(setting_up)[archer.key]["m_hits"]) == "2"
    assert admin_client.get(change_url(archer)).context["has_change_permission"] is False


def test_a_game_cannot_be_put_in_progress_without_a_first_attacker_or_an_impossible_turn(admin_client, setting_up):
    page = admin_client.get(change_url(setting_up))
    response = admin_client.post(change_url(setting_up), form_data(page, status="in_progress", player_turn="3"))
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert "first_attacker" in errors and errors["player_turn"] == ["A game turn has player turns 1 and 2."]
    setting_up.refresh_from_db()
    assert setting_up.status == Game.Status.SETTING_UP


def test_a_row_stays_in_its_own_game(admin_client, setting_up):
    other = create_game(parse_scenario(DEMO.replace("first_attacker: Confederate\n", "")), "Table three")
    archer = brigade(setting_up, "Archer's Brigade")
    theirs = Command.objects.get(game=other, name="Heth's Division")
    page = admin_client.get(change_url(archer))
    response = admin_client.post(change_url(archer), form_data(page, division=str(theirs.pk)))
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["division"] == [
        "Heth's Division is in another game: a row stays in its own game."
    ]
    archer.refresh_from_db()
    assert archer.division.game == setting_up


def test_a_command_with_commands_under_it_keeps_its_side(admin_client, setting_up):
    third = Command.objects.get(game=setting_up, name="Third Corps")
    page = admin_client.get(change_url(third))
    response = admin_client.post(change_url(third), form_data(page, side=str(setting_up.sides.get(name="Union").pk)))
    assert response.status_code == 200 and "side" in response.context["adminform"].form.errors
