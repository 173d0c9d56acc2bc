"""Every form and input of the app fuzzed: each form the pages and their opened rows draw at every step of the turn
sequence, posted with its fields kept, dropped, swapped for wrong values (dice no d10 shows, words, 100 kB, nothing,
unicode, another game's ids, a stale version) or joined by fields it never had, over htmx and plainly; the home
page's scenario upload, the join page, the defenders' messages, the end of a game and every page's query string.

No answer is a server error; an answer that recorded no event changed nothing (no row of the game, no row count);
one that recorded an event left the rows the setup plus the events; and a refusal says what was wrong."""

import re
from typing import Any

from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import resolve, reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase

from republic.games.models import Command, Dispatch, Game, Leader, Seat, Unit
from republic.games.pieces import Piece
from republic.games.uploads import SCENARIO_MOST
from republic.scenarios import DEMO_SCENARIO
from tests.devices import master_device, seated_device
from tests.games.conftest import HTMX, at_step
from tests.games.fuzz_table import (
    HUGE,
    RECORD_NOTHING,
    WRONG,
    Drawn,
    checked,
    demo_game,
    games_at_every_step,
    messages_of,
    url_name,
    whole_state,
)
from tests.page_forms import Form, as_sent, forms_of

# a file past the scenario's limit, nested past any scenario (as YAML and as JSON), names with a NUL or an escape
ODD_FILES = [
    b"- 1\n" * (SCENARIO_MOST // 4 + 1),
    b"sides: " + b"[" * 1000 + b"]" * 1000,
    b"[" * 100_000 + b"]" * 100_000,
    DEMO_SCENARIO.read_bytes().replace(b"name: Henry Heth", b'name: "Henry\\0Heth"'),
    DEMO_SCENARIO.read_bytes().replace(b"name: Union", b'name: "Union\\x1b"'),
    DEMO_SCENARIO.read_bytes().replace(b"skirmishers: 1}", b"skirmishers: 500}", 1),
]
# what a query may hold that no number is, though Python's isdigit() says it is: superscripts, other scripts' digits
NOT_DIGITS = ["²", "٣", "¹²", "1²", "９"]
FUZZ = settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
OWNED = {"unit_id": "unit", "leader_id": "leader", "division_id": "command"}  # an address's id, by its kind


def kind(key: str, named: str) -> str:
    """The kind of unit, leader or division an address's part names, or ""."""
    piece = Piece.of(named) if key == "piece" else None
    return OWNED.get(key) or (piece.kind if piece and piece.kind in OWNED.values() else "")


wrong = st.one_of(st.sampled_from(WRONG), st.text(max_size=30), st.integers().map(str))


class FormsFuzzed(TestCase):
    """Each example runs in a transaction rolled back after it: every example meets the games as set up here."""

    drawn: list[Drawn]
    kinds: dict[str, list[Drawn]]  # the forms by the action they send to: a division page's many do not crowd out
    foreign: dict[str, list[int]]

    @classmethod
    def setUpTestData(cls) -> None:
        master = master_device()
        cls.drawn = games_at_every_step(master)
        cls.kinds = {}
        for drawn in cls.drawn:
            cls.kinds.setdefault(url_name(drawn.form.action), []).append(drawn)
        other = demo_game()
        cls.foreign = {
            "unit": list(Unit.objects.filter(game=other).values_list("pk", flat=True)),
            "leader": list(Leader.objects.filter(game=other).values_list("pk", flat=True)),
            "command": list(Command.objects.filter(game=other).values_list("pk", flat=True)),
        }

    def setUp(self) -> None:
        self.master = master_device()

    def foreign_ids(self) -> st.SearchStrategy[str]:
        ids = [pk for pks in self.foreign.values() for pk in pks]
        return st.sampled_from(ids).flatmap(lambda pk: st.sampled_from([str(pk), f"unit:{pk}", f"unit-{pk}"]))

    @st.composite
    def filled(draw: Any, self: "FormsFuzzed", form: Form) -> dict[str, Any]:
        data: dict[str, Any] = dict(as_sent(form))
        for name, found in form.named().items():
            way = draw(st.sampled_from(["keep", "keep", "choose", "wrong", "foreign", "drop"]))
            options = [f.value for f in found if f.kind in ("checkbox", "radio")] or found[0].options
            if way == "choose" and options:
                data[name] = draw(st.sampled_from(options))
            elif way == "wrong":
                data[name] = draw(wrong)
            elif way == "foreign":
                data[name] = draw(self.foreign_ids())
            elif way == "drop":
                data.pop(name, None)
        if form.buttons:
            name, value = draw(st.sampled_from(form.buttons))
            data[name] = value
        data.update(draw(st.dictionaries(st.text(min_size=1, max_size=12), wrong, max_size=2)))
        return data

    @FUZZ
    @given(st.data())
    def test_a_form_filled_anyhow_never_fails_and_a_refusal_changes_nothing(self, data: Any) -> None:
        drawn = data.draw(st.sampled_from(self.kinds[data.draw(st.sampled_from(sorted(self.kinds)))]))
        sent = data.draw(self.filled(drawn.form))
        htmx = data.draw(st.booleans())
        _, said, recorded = checked(self.master, drawn.form.action, sent, htmx, drawn.form.target)
        # a refusal says why; only an action that records nothing when it works may answer without a word
        assert recorded or said or url_name(drawn.form.action) in RECORD_NOTHING, (drawn.form.action, sent)

    @settings(FUZZ, max_examples=60)
    @given(st.data())
    def test_an_address_naming_another_games_unit_leader_or_division_is_not_found(self, data: Any) -> None:
        owned = [
            (d, key) for d in self.drawn for key, named in resolve(d.form.action).kwargs.items() if kind(key, named)
        ]
        drawn, key = data.draw(st.sampled_from(owned))
        found = resolve(drawn.form.action)
        of = kind(key, found.kwargs[key])
        pk = data.draw(st.sampled_from(self.foreign[of]))
        # a step's action names its piece ('unit-12'); an older address its number
        action = reverse(
            f"games:{found.url_name}", kwargs={**found.kwargs, key: pk if key in OWNED else Piece(of, pk).name}
        )
        response, said, _ = checked(self.master, action, as_sent(drawn.form), data.draw(st.booleans()))
        assert response.status_code == 404 and "Not Found" in said, (action, response.status_code)

    def test_a_die_no_d10_shows_is_named_and_changes_nothing(self) -> None:
        dice = [(d, f.name) for d in self.drawn for f in d.form.fields if (f.minimum, f.maximum) == ("1", "10")]
        # the dice of every step that rolls in these games, not of one form
        assert {url_name(d.form.action) for d, _ in dice} >= {
            "rally",
            "first-attacker-roll",
            "passing-fire",
            "artillery-fire",
            "check-leader",
            "assault-round",
            "panic-test",
        }
        for (drawn, name), face in zip(dice, ["0", "11", "-1", "x"] * len(dice), strict=False):
            for htmx in (True, False):
                sent = {**as_sent(drawn.form), name: face, "roll": "typed"}
                _, said, _ = checked(self.master, drawn.form.action, sent, htmx, drawn.form.target)
                assert "A d10 shows 1 to 10." in said or "A d10 shows a whole number, 1 to 10." in said, said

    def test_roll_for_me_with_a_die_typed_is_refused_naming_it_in_every_form_that_rolls(self) -> None:
        dice = [(d, f.name) for d in self.drawn for f in d.form.fields if (f.minimum, f.maximum) == ("1", "10")]
        assert len({url_name(d.form.action) for d, _ in dice}) >= 7
        for (drawn, name), face in zip(dice, ["3", "10", "x"] * len(dice), strict=False):
            for htmx in (True, False):
                sent = {**as_sent(drawn.form), name: face, "roll": "app"}
                _, said, recorded = checked(self.master, drawn.form.action, sent, htmx, drawn.form.target)
                assert not recorded and f"You chose {face} on this die, so the app did not roll" in said, (name, said)

    def test_a_stale_or_missing_version_is_refused_with_the_reason(self) -> None:
        # the forms complete as drawn, once their dice are typed: the version is all that is wrong with them
        complete = [d for d in self.drawn if all(f.kind in ("hidden", "number") for f in d.form.fields)]
        assert len({url_name(d.form.action) for d in complete}) >= 10
        for drawn in complete:
            # going back to the latest event has nothing to take back: going back to the start has
            action = re.sub(r"/back/\d+/$", "/back/0/", drawn.form.action)
            dice = {f.name: f.value or "5" for f in drawn.form.fields if f.kind == "number"}
            # the button tapped, where the form's choice is its buttons (the skirmish markers out)
            sent = {**as_sent(drawn.form), **dict(drawn.form.buttons[:1]), **dice, "roll": "typed"}
            name = next(f.name for f in drawn.form.fields if f.name.endswith("version"))
            ahead = {**sent, name: str(int(str(sent[name])) + 5)}
            _, said, _ = checked(self.master, action, ahead, True, drawn.form.target)
            assert "The game moved on since this page was drawn: nothing was changed." in said, (action, said)
            missing = {k: v for k, v in sent.items() if k != name}
            _, said, _ = checked(self.master, action, missing, False)
            assert "The form was incomplete: nothing was changed." in said, (action, said)

    def test_every_form_drawn_sends_to_an_address_of_the_app(self) -> None:
        assert len(self.kinds) >= 30  # nearly every action of the app is drawn somewhere in these games
        # a defending battery's passing fire row drew a movement allowance form with no address
        assert {d.form.action for d in self.drawn if not d.form.action} == set()
        assert all(url_name(d.form.action) for d in self.drawn)
        assert "passing-fire" in {url_name(d.form.action) for d in self.drawn}


class InputsFuzzed(TestCase):
    """The inputs beside the step forms: the upload, the join page, messages, the end of a game, query strings."""

    @classmethod
    def setUpTestData(cls) -> None:
        cls.game_id = demo_game().pk

    def setUp(self) -> None:
        self.master = master_device()
        self.game = Game.objects.get(pk=self.game_id)

    @settings(FUZZ, max_examples=40)
    @given(
        content=st.one_of(
            st.binary(max_size=200), st.text(max_size=200).map(str.encode), st.sampled_from([HUGE.encode(), *ODD_FILES])
        ),
        name=st.sampled_from(["battle.yaml", "battle.csv", "battle.json", "battle", "x.CSV"]),
        fields=st.dictionaries(st.sampled_from(["name", "ground_scale", "extra"]), wrong, max_size=3),
    )
    def test_a_scenario_upload_of_anything_is_refused_naming_its_problem(self, content: bytes, name: str, fields):
        before = whole_state(None)
        upload = SimpleUploadedFile(name, content)
        response = self.master.post("/games/new/", {"file": upload, **fields})
        assert response.status_code == 200  # nothing here is a scenario: the form comes back with the reason
        assert whole_state(None) == before
        assert messages_of(response.content.decode())

    def test_a_good_upload_still_makes_a_game(self) -> None:
        upload = SimpleUploadedFile("demo.yaml", DEMO_SCENARIO.read_bytes())
        response = self.master.post("/games/new/", {"file": upload, "name": "é✓北", "ground_scale": "medium"})
        assert response.status_code == 302 and Game.objects.filter(name="é✓北").exists()

    def test_a_file_that_is_not_text_is_named_so(self) -> None:
        response = self.master.post(
            "/games/new/", {"file": SimpleUploadedFile("b.yaml", b"\xff\xfe\x00"), "ground_scale": "medium"}
        )
        assert "The file is not UTF-8 text." in messages_of(response.content.decode())

    @settings(FUZZ, max_examples=40)
    @given(name=wrong, seat=st.one_of(wrong, st.sampled_from(["side-", "command-", "side-0"])), htmx=st.booleans())
    def test_a_join_with_anything_takes_no_seat_unless_it_names_one(self, name: str, seat: str, htmx: bool) -> None:
        before = Seat.objects.count()
        response = Client().post(
            f"/join/{self.game.join_code}/", {"name": name, "seat": seat}, **(HTMX if htmx else {})
        )
        assert response.status_code == 400 and Seat.objects.count() == before
        assert messages_of(response.content.decode())

    @settings(FUZZ, max_examples=25)
    @given(text=st.one_of(wrong, st.text(max_size=200)), recipient=wrong, htmx=st.booleans())
    def test_a_message_of_anything_is_sent_whole_or_not_at_all(self, text: str, recipient: str, htmx: bool) -> None:
        game = at_step(self.game, "messages")
        sender, friend = seated_device(game, "Union", "Sender"), seated_device(game, "Union", "Friend")
        assert friend is not None
        to = Seat.objects.filter(game=game, name="Friend").get().pk
        for chosen in (recipient, str(to)):
            before = Dispatch.objects.count()
            _, said, _ = checked(
                sender, f"/games/{game.pk}/messages/", {"dispatch-recipient": chosen, "dispatch-text": text}, htmx
            )
            sent = Dispatch.objects.count() - before
            assert sent in (0, 1)
            if sent:
                assert Dispatch.objects.latest("pk").text == text.strip() and chosen == str(to)
            else:
                assert "Nothing was sent." in said, said

    @settings(FUZZ, max_examples=40)
    @given(winner=st.one_of(wrong, st.just("draw")), note=wrong, version=st.one_of(wrong, st.just("now")))
    def test_an_end_of_anything_ends_the_game_only_with_a_result(self, winner: str, note: str, version: str) -> None:
        sent = {"winner": winner, "note": note, "version": str(self.game.version) if version == "now" else version}
        response, said, _ = checked(self.master, f"/games/{self.game.pk}/end/", sent)
        ended = Game.objects.get(pk=self.game.pk).over
        assert response.status_code == (302 if ended else 200)
        assert ended or said, said

    @settings(FUZZ, max_examples=60)
    @given(
        tail=st.sampled_from(["", "rows/", "poll/", "log/", "units/", "seats/qr.svg", "assault/1/column/", "end/"]),
        query=st.dictionaries(
            st.sampled_from(["since", "letter", "after", "page", "shown", "open", "close", "code", "paper", "x"]),
            st.one_of(wrong, st.sampled_from(NOT_DIGITS)),
            max_size=3,
        ),
        htmx=st.booleans(),
    )
    def test_a_page_asked_for_with_any_query_answers(self, tail: str, query: dict[str, str], htmx: bool) -> None:
        before = whole_state(self.game.pk)
        response = self.master.get(f"/games/{self.game.pk}/{tail}", query, **(HTMX if htmx else {}))
        assert response.status_code in (200, 204, 400, 404)
        if response.status_code == 400:  # a parameter it cannot read: named, with what it takes
            assert re.search(r"\?\w+= takes ", messages_of(response.content.decode()))
        assert whole_state(self.game.pk) == before

    @given(name=st.sampled_from(["shown", "after", "since", "page"]), value=st.sampled_from(NOT_DIGITS))
    def test_a_query_number_in_digits_python_reads_but_int_refuses_is_400(self, name: str, value: str) -> None:
        tail = {"after": "rows/", "since": "poll/", "page": "log/"}.get(name, "")
        response = self.master.get(f"/games/{self.game.pk}/{tail}", {name: value}, **HTMX)
        assert response.status_code == 400
        assert f"?{name}= takes a whole number" in messages_of(response.content.decode())

    @settings(FUZZ, max_examples=20)
    @given(query=st.dictionaries(st.text(max_size=8), wrong, max_size=3))
    def test_the_chart_and_the_home_page_answer_any_query(self, query: dict[str, str]) -> None:
        for device in (self.master, Client()):
            assert device.get("/chart/", query).status_code == 200
            assert device.get("/", query).status_code == 200


def test_the_forms_a_page_draws_are_found(client, demo):
    forms = forms_of(client.get(f"/games/{demo.pk}/").content.decode())
    assert any(url_name(f.action) == "next_step" for f in forms)
