"""A game recorded before brigades and batteries became one table of units and events became typed: the
migration carries its rows, its setup snapshot and its events' changes across, so the state still equals the
setup plus the events, the log keeps its words, the event knows what it is about, and it can still be undone."""

import json

from tests.databases import fresh_database, manage

BEFORE = """
from django.db import connection
from django.db.migrations.loader import MigrationLoader

apps = MigrationLoader(connection).project_state(("games", "0001_initial")).apps
Game, Side, Command, Leader, Brigade, Battery, Event = (apps.get_model("games", name) for name in (
    "Game", "Side", "Command", "Leader", "Brigade", "Battery", "Event"))
UNTRACKED = {"id", "game_id", "setup", "version", "created", "updated"}

game = Game.objects.create(name="Old table", scenario="Old", chart_version="republic-1.0-provisional",
                           status="in_progress", version=1)
side = Side.objects.create(game=game, name="Union")
game.first_attacker = side
game.save()
division = Command.objects.create(game=game, side=side, level="division", name="1st Division")
Leader.objects.create(game=game, command=division, name="Wadsworth", leader_class="E", rating=1)
brigade = Brigade.objects.create(game=game, division=division, name="Iron Brigade", order=1, grade="crack",
                                 bases_start=7, bases=7, skirmishers_available=2)
battery = Battery.objects.create(game=game, division=division, name="Hall's Battery", order=2, grade="veteran",
                                 battery_type="m_rifle", damage=1)
setup = {}
for key, model in (("game", Game), ("side", Side), ("command", Command), ("leader", Leader),
                   ("brigade", Brigade), ("battery", Battery)):
    for row in model.objects.all():
        setup[f"{key}:{row.pk}"] = {f.attname: getattr(row, f.attname) for f in model._meta.concrete_fields
                                    if f.attname not in UNTRACKED}
game.setup = setup
game.save()
Brigade.objects.filter(pk=brigade.pk).update(bases=6, retreated=True, forced_move="Re")
Command.objects.filter(pk=division.pk).update(p4_event=True)
Event.objects.create(game=game, seq=1, kind="CorrectionMade", game_turn=1, player_turn=1, step="messages",
                     summary="Correction: Iron Brigade removes a base (now 6 bases)", changes=[
    {"model": "brigade", "id": brigade.pk, "field": "bases", "before": 7, "after": 6},
    {"model": "brigade", "id": brigade.pk, "field": "retreated", "before": False, "after": True},
    {"model": "brigade", "id": brigade.pk, "field": "forced_move", "before": "", "after": "Re"},
    {"model": "command", "id": division.pk, "field": "p4_event", "before": False, "after": True}])
print(game.pk)
"""

AFTER = """
import json
from republic.games.ledger import replay, snapshot, undo_last
from republic.games.models import Event, Game, Unit, setup_of
from republic.games.text.describe import describe

game = Game.objects.get(pk=GAME)
event = Event.objects.get(game=game, seq=1)
current, rebuilt = snapshot(game), replay(game)
found = {
    "units": sorted((u.name, u.kind, u.bases, u.bases_start, u.battery_type, u.damage, u.forced_move, u.retreated)
                    for u in Unit.objects.filter(game=game)),
    "setup": sorted(key.split(":")[0] for key in setup_of(game)),
    "kind": event.kind,
    "words": describe(event),
    "changes": sorted((c["model"], c["field"]) for c in event.changes),
    "state_is_setup_plus_events": all(rebuilt[k] == {f: current[k][f] for f in rebuilt[k]} for k in current),
    "p4": Unit.objects.get(game=game, name="Iron Brigade").division.p4_event,
    "about": event.about,
    "iron": Unit.objects.get(game=game, name="Iron Brigade").pk,
}
undo_last(game, None, "test")
found["bases_after_undo"] = Unit.objects.get(game=game, name="Iron Brigade").bases
print(json.dumps(found))
"""


def test_a_game_recorded_before_the_units_table_is_carried_across(tmp_path):
    with fresh_database(tmp_path) as database:
        manage(database, "migrate", "games", "0001_initial", "-v0")
        game = int(manage(database, "shell", "-v0", "-c", BEFORE).split()[-1])
        manage(database, "migrate", "-v0")
        found = json.loads(manage(database, "shell", "-v0", "-c", AFTER.replace("GAME", str(game))).splitlines()[-1])
    assert found["units"] == [
        ["Hall's Battery", "artillery", 1, 1, "m_rifle", 1, "", False],
        ["Iron Brigade", "infantry", 6, 7, "", 0, "Re", True],
    ]
    assert found["setup"] == ["command", "game", "leader", "side", "unit", "unit"]
    assert (found["kind"], found["words"]) == ("EarlierRecord", "Correction: Iron Brigade removes a base (now 6 bases)")
    assert found["changes"] == [["unit", "bases"], ["unit", "forced_move"]]
    assert found["state_is_setup_plus_events"] and found["p4"] is False
    assert found["bases_after_undo"] == 7
    assert found["about"] == [f"unit:{found['iron']}"]  # what the event is about, worked out as it is migrated
