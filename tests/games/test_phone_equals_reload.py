"""After a player's own action his phone shows what a reload of the page shows: the step's panel, its counts, the
work left, the step bar and the version every form carries. The playthrough's two game turns are played from one
phone, every action sent as htmx sends it from where the form is on the phone's screen (a step row, the step's
panel, the step bar), each answer swapped in as htmx swaps it, and the screen held against a fresh reload after
every action; and played again with plain posts, whose answer is the page itself."""

from republic.games.models import Event
from tests.games.assault_helpers import declare_data, units
from tests.games.phone_screen import NS, Screen, seen
from tests.games.playthrough_game_turn_1 import confederate_turn_1, union_turn_1
from tests.games.playthrough_game_turn_2 import confederate_turn_2, union_turn_2
from tests.games.playthrough_table import Table


def same_screen(phone: dict, reload: dict) -> list[str]:
    """Where the phone's screen differs from the reload's. The phone may show fewer rows than a reload (a row whose
    work is done is taken away, and "Show more" is not pressed for it); those it shows are the reload's first ones,
    and the work left is the same."""
    differences = [
        f"{name}: phone {phone[name]!r} != reload {reload[name]!r}"
        for name in phone
        if name != "rows" and phone[name] != reload[name]
    ]
    if phone["rows"] != reload["rows"][: len(phone["rows"])]:
        differences.append(f"rows: phone {phone['rows']!r} != reload {reload['rows']!r}")
    return differences


def typed_names(live) -> list:
    """The text boxes a name would be typed into (an input suggesting from a list): none, every unit is picked."""
    return [e for e in live.iter() if e.tag in (f"{NS}datalist",) or (e.tag == f"{NS}input" and e.get("list"))]


class PhoneTable(Table):
    """The playthrough's players on one phone: every form sent from the phone's screen as htmx sends it."""

    def __init__(self, client, game):
        super().__init__(client, game)
        self.screen = Screen(client, self.url())
        self.actions = 0
        self.picked = 0  # the pickers the phone's screen showed, after each action

    def post(self, tail: str, data: dict, htmx: bool = False, events: int = 1) -> Event:
        before = self.version
        self.screen.post(self.url(tail), data)
        after = self.version
        assert after == before + events, f"{tail} recorded {after - before} events: {self.screen.seen()['error']}"
        differences = same_screen(self.screen.seen(), seen(self.screen.drawn()))
        assert not differences, f"after {tail}:\n" + "\n".join(differences)
        assert not typed_names(self.screen.live), f"after {tail}: a text box for a name"
        self.picked += sum(1 for e in self.screen.live.iter(f"{NS}fieldset") if "pick" in e.get("class", "").split())
        self.actions += 1
        return self.game.events.get(seq=after)


def test_after_every_action_of_two_game_turns_the_phone_shows_what_a_reload_shows(client, demo):
    t = PhoneTable(client, demo)
    confederate_turn_1(t)
    union_turn_1(t)
    confederate_turn_2(t)
    union_turn_2(t)
    assert t.actions > 60
    assert t.picked  # units were chosen on the phone's screen, by tap


def test_a_second_assault_declared_after_closing_the_first_from_its_card_is_accepted(client, game):
    """The declaration form sits in the step's panel: the answer to closing an assault from its card brings it
    at the game's new version, so the phone's next declaration is not refused as stale though nobody else acted."""
    davis, cutler, archer, iron = units(
        game, "Davis's Brigade", "Cutler's Brigade", "Archer's Brigade", "Iron Brigade (Meredith)"
    )
    screen = Screen(client, f"/games/{game.pk}/")
    url = f"/games/{game.pk}/act/declare-assault/game-{game.pk}/"
    screen.post(url, declare_data(game, [(davis, "all_out")], [(cutler, "all_out")]))
    first = Event.objects.get(game=game, kind="AssaultDeclared").seq
    screen.post(f"/games/{game.pk}/act/end-assault/assault-{first}/", {})
    assert Event.objects.filter(game=game, kind="AssaultEnded").count() == 1
    screen.post(url, declare_data(game, [(archer, "all_out")], [(iron, "all_out")]))
    assert Event.objects.filter(game=game, kind="AssaultDeclared").count() == 2, screen.seen()["error"]
    assert same_screen(screen.seen(), seen(screen.drawn())) == []
