"""The upload page, which creates a game from a YAML, JSON or CSV file or shows the problem at the field, and the
load_demo command, which loads the demo battle and the game master once."""

import io
import json

import pytest
import yaml
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command

from republic.games.models import Game, Unit
from tests.games.scenario_files import BIG_BATTLE, DEMO, HETH, line_of, sheet

# --- the upload page ----------------------------------------------------------------------------------------------


def upload(client, filename: str, content: str, **fields):
    data = {
        "file": SimpleUploadedFile(filename, content.encode("utf-8")),
        "name": "",
        "ground_scale": "medium",
        **fields,
    }
    return client.post("/games/new/", data)


def test_uploading_the_yaml_file_creates_the_game_and_redirects_to_it(client, db):
    response = upload(client, "gettysburg.yaml", DEMO, name="Friday night")
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert game.name == "Friday night" and game.first_attacker.name == "Confederate"
    assert client.get(response["Location"]).status_code == 200


def test_uploading_over_htmx_redirects_the_browser(client, db):
    response = client.post(
        "/games/new/",
        {"file": SimpleUploadedFile("g.json", json.dumps(yaml.safe_load(DEMO)).encode()), "ground_scale": "medium"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200 and response["HX-Redirect"] == f"/games/{Game.objects.get().pk}/"


def test_uploading_a_csv_sheet_creates_the_game_named_after_the_file(client, db):
    response = upload(client, "mcpherson-ridge.csv", sheet(*BIG_BATTLE), ground_scale="large")
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert (game.name, game.ground_scale, game.status) == ("mcpherson-ridge", "large", Game.Status.SETTING_UP)
    assert Unit.objects.brigades().filter(game=game).count() == 4


@pytest.mark.parametrize(
    ("name", "content", "expected"),
    [
        (
            "bad.yaml",
            DEMO.replace("first_attacker: Confederate", "first_attacker: French"),
            f"bad.yaml, line {line_of(DEMO, 'first_attacker')}, first_attacker: no side is called &#x27;French&#x27;",
        ),
        (
            "bad.csv",
            sheet(*BIG_BATTLE[:2], {**BIG_BATTLE[2], "grade": "elite"}, *BIG_BATTLE[3:]),
            "bad.csv, line 4, grade: expected one of",
        ),
        ("blank.yaml", "# nothing yet\n", "blank.yaml, the file is empty"),
        ("empty.csv", "", "The submitted file is empty."),
    ],
)
def test_a_bad_upload_shows_the_error_at_the_field_and_creates_nothing(client, db, name, content, expected):
    response = upload(client, name, content)
    assert response.status_code == 200
    assert Game.objects.count() == 0
    body = response.content.decode()
    field_error = body[body.index('id="id_file_error"') :]
    assert expected in field_error[: field_error.index("</div>")]


def test_names_too_long_for_the_database_are_refused_at_the_field_not_with_an_error_page(client, db):
    text = DEMO.replace("name: Davis's Brigade", "name: " + "D" * 121)
    response = upload(client, "long.yaml", text)
    assert response.status_code == 200 and Game.objects.count() == 0
    assert response.context["upload"].errors["file"] == [
        f"long.yaml, line {line_of(text, 'DDD')}, {HETH}.brigades[1].name: at most 120 characters, got 121"
    ]


def test_an_upload_that_is_not_utf8_text_is_refused_at_the_field(client, db):
    response = client.post(
        "/games/new/", {"file": SimpleUploadedFile("x.yaml", b"\xff\xfe\x00bad"), "ground_scale": "medium"}
    )
    assert response.status_code == 200 and Game.objects.count() == 0
    assert response.context["upload"].errors["file"] == ["The file is not UTF-8 text."]


def test_an_upload_without_a_file_is_refused(client, db):
    response = client.post("/games/new/", {"ground_scale": "medium"})
    assert response.status_code == 200 and Game.objects.count() == 0
    assert "file" in response.context["upload"].errors


# --- load_demo ----------------------------------------------------------------------------------------------------


def test_load_demo_loads_once_creates_the_game_master_once_and_prints_the_way_in(db):
    out = io.StringIO()
    call_command("load_demo", "--host", "127.0.0.1", stdout=out)
    game = Game.objects.get(demo=True)
    first = out.getvalue()
    assert "Loaded the demo battle" in first
    assert f"The demo battle: http://127.0.0.1:8000/games/{game.pk}/" in first
    assert f"Players join it with http://127.0.0.1:8000/join/{game.join_code}/" in first
    assert "Game master sign-in at http://127.0.0.1:8000/accounts/login/ as gm, password " in first
    gm = get_user_model().objects.get(username="gm")
    assert gm.is_superuser and gm.is_staff
    password = first.split("password ", 1)[1].split()[0]
    assert gm.check_password(password)
    again = io.StringIO()
    call_command("load_demo", "--host", "table.local", "--port", "8011", stdout=again)
    assert Game.objects.filter(demo=True).count() == 1 and Game.objects.count() == 1
    assert get_user_model().objects.filter(username="gm").count() == 1
    assert f"The demo battle: http://table.local:8011/games/{game.pk}/" in again.getvalue()
    assert "Loaded" not in again.getvalue() and password not in again.getvalue()
    gm.refresh_from_db()
    assert gm.check_password(password)
