"""A query whose SQL is made once per process (republic/prepared.py) reads what the queryset it stands for reads,
with any keys, and makes its SQL only once."""

import pytest
from django.db.models import Q
from django.db.models.sql import compiler
from django.http import Http404

from republic.games.models import Game, Leader, Unit
from republic.games.scenario import create_game, parse_scenario
from republic.prepared import prepared
from republic.scenarios import DEMO_SCENARIO
from tests.club_battle import club_scenario
from tests.games.conftest import set_state


@pytest.fixture
def games(db) -> list[Game]:
    return [
        create_game(parse_scenario(DEMO_SCENARIO.read_text(encoding="utf-8"))),
        create_game(parse_scenario(club_scenario(60)), "club"),
    ]


@pytest.fixture
def written(monkeypatch) -> list[str]:
    """The SQL each query's compiler writes, in order."""
    made: list[str] = []
    write = compiler.SQLCompiler.as_sql

    def counted(self, *args, **kwargs):
        sql = write(self, *args, **kwargs)
        made.append(sql[0])
        return sql

    monkeypatch.setattr(compiler.SQLCompiler, "as_sql", counted)
    return made


def side_units(game: int, m_hits: int, side: int):
    return Unit.objects.filter(game=game, m_hits__gte=m_hits).of_side(side).in_play().in_battle_order()


def test_a_prepared_query_reads_what_its_queryset_reads_with_any_keys_and_writes_its_sql_once(
    games, written, django_assert_num_queries
):
    asked = [(game.pk, m_hits, side.pk) for game in games for side in game.sides.all() for m_hits in (0, 1, 3)]
    expected = {keys: [(unit, unit.division.name) for unit in side_units(*keys)] for keys in asked}
    kept = prepared(side_units)
    before = len(written)
    found = {keys: [(unit, unit.division.name) for unit in kept(*keys)] for keys in asked}
    # with the keys, then with each set of markers, at the first call; never again
    assert len(written) - before == 3
    assert found == expected and sum(map(len, found.values())) > 60
    with django_assert_num_queries(1):  # each unit's division read with it, as the queryset reads it
        assert {unit.division.name for unit in kept(*asked[0])}


def test_a_prepared_query_of_columns_and_of_a_condition_on_a_key_reads_alike(games, written):
    names = prepared(lambda game, kind_pk: Unit.objects.filter(game=game).filter(Q(pk=kind_pk) | Q(bases__gt=6)))
    columns = prepared(lambda game: Unit.objects.filter(game=game).order_by("pk").values_list("pk", "name"))
    for game in games:
        first = Unit.objects.filter(game=game).order_by("pk").first()
        assert first is not None
        expected = Unit.objects.filter(game=game).filter(Q(pk=first.pk) | Q(bases__gt=6))
        assert names(game.pk, first.pk) == list(expected) and first in names(game.pk, first.pk)
        assert columns(game.pk) == list(Unit.objects.filter(game=game).order_by("pk").values_list("pk", "name"))
    assert names(games[0].pk, -5) == list(Unit.objects.filter(game=games[0], bases__gt=6))


def test_a_prepared_query_s_rows_as_the_database_gives_them_are_its_rows_and_its_sql_is_written_once(games, written):
    columns = prepared(lambda game, bases: Unit.objects.filter(game=game, bases__gte=bases).values_list("pk", "name"))
    columns.rows(games[0].pk, 1)
    before = len(written)
    for game in games:
        for bases in (1, 5):
            found = [tuple(row) for row in columns.rows(game.pk, bases)]
            expected = list(Unit.objects.filter(game=game, bases__gte=bases).values_list("pk", "name"))
            assert found == expected and found
    assert len(written) - before == 4  # only the expected querysets'
    # one that is not kept (its argument a list) reads as its queryset, and one that can match nothing reads nothing
    some = prepared(lambda pks: Unit.objects.filter(pk__in=pks).order_by("pk").values_list("pk"))
    pks = list(Unit.objects.order_by("pk").values_list("pk", flat=True)[:2])
    assert [tuple(row) for row in some.rows(pks)] == [(pk,) for pk in pks] and len(pks) == 2
    assert some.rows([]) == []


def test_a_query_whose_sql_changes_with_its_keys_is_never_kept_and_reads_right(games, written):
    by_side = prepared(lambda game, side: Unit.objects.filter(game=game).of_side(side if side > 0 else None))
    game = games[0]
    side = game.sides.first()
    assert side is not None
    assert by_side(game.pk, 0) == [] and by_side(game.pk, side.pk) == list(Unit.objects.filter(division__side=side))
    before = len(written)
    assert by_side(game.pk, side.pk) and len(written) > before  # written again: never kept
    # an argument that is neither a whole number nor a name (a list, a game) is run as the queryset it stands for
    assert prepared(lambda pks: Game.objects.filter(pk__in=pks))([game.pk, 0]) == [game]
    assert prepared(lambda game: Unit.objects.filter(game=game))(game) == list(game.units.all())


def test_the_queries_every_request_runs_keep_their_sql_on_this_database(games):
    from republic.games import dispatches, ledger
    from republic.games.ledger import this_turn, turn_events
    from republic.games.models import Event, Seat, battle
    from republic.games.steps import base
    from republic.games.steps.assaults.state import _CHOOSABLE, choosable
    from republic.games.steps.base import current
    from republic.games.steps.division_panic import _AS_TESTED_ROWS, _DIVISIONS
    from republic.games.steps.move.state import _ATTACKING, _HELPFUL, _PASSING, helpful_leaders
    from republic.games.views import access, answers, lookup

    game = games[0]
    assert lookup.game_or_404(game.pk) == game
    with pytest.raises(Http404):
        lookup.game_or_404(game.pk + 1000)
    with pytest.raises(Http404):  # a number no key column holds, as an address may carry it
        lookup.game_or_404(10**30)
    seat = Seat.objects.create(game=game, side=game.sides.first(), name="Ann")
    assert dispatches.dispatch_context(True, None, game)["dispatches"] == []
    assert dispatches.dispatch_context(False, seat, game)["dispatches"] == []
    set_state(game, game.units.first(), m_hits=1)
    event = Event.objects.filter(game=game).first()
    assert event is not None and answers._event(event.pk, game.pk) == [event] and answers._event(event.pk, 0) == []
    again = Game.objects.get(pk=game.pk)
    assert again._sides == list(game.sides.all()) and again._sides[0].game is again
    assert [g.letter for g in answers._WITH_LETTER(game.pk, seat.pk)] == [None]
    assert [g.letter for g in answers._WITH_LETTER(game.pk, None)] == [None]
    unit = game.units.first()
    assert current(unit.pk) == unit and current(unit.pk).division == unit.division
    with pytest.raises(Unit.DoesNotExist):
        current(0)
    assert turn_events(game, ["messages", "rally"]) == list(
        this_turn(game.pk, game.game_turn, game.player_turn, ("messages", "rally"))
    )
    assert ledger._THIS_TURN(game.pk, 40_000, 1, ("rally",), ()) == []  # a turn past a small column's range
    assert access._SEAT(seat.pk, game.pk) == [seat] and access._SEAT(seat.pk, 0) == []
    assert access._SEAT(seat.pk, game.pk)[0].side == seat.side
    side = game.sides.first()
    assert [pk for pk, _, _ in _ATTACKING(game.pk, side.pk)] == list(
        Unit.objects.filter(game=game).of_side(side).in_play().in_battle_order().values_list("pk", flat=True)
    )
    assert dict(_PASSING(game.pk, side.pk)) == dict(
        Unit.objects.filter(game=game).of_side(side).may_fire().values_list("pk", "division_id")
    )
    assert helpful_leaders(game, side) == list(
        Leader.objects.filter(game=game).of_side(side).in_action().energetic_or_proficient()
    )
    assert helpful_leaders(game, side)[0].command.side == side
    assert sorted(row[0] for row in _AS_TESTED_ROWS.rows(game.pk)) == sorted(game.units.values_list("pk", flat=True))
    assert len(_DIVISIONS(game.pk)) == game.commands.filter(level="division").count() > 1
    for side in game.sides.all():
        in_order = Unit.objects.filter(game=game).of_side(side).in_play().in_battle_order()
        assert list(choosable(game)[side.pk].units) == in_order.choices() and in_order.exists()
    # none of them fell back to building and writing its SQL at every call
    kept = (lookup._game, dispatches._all_letters, dispatches._letters_of, answers._event, answers._WITH_LETTER)
    kept += (battle._SIDES, base._CURRENT, ledger._THIS_TURN, access._SEAT)
    kept += (_ATTACKING, _PASSING, _HELPFUL, _AS_TESTED_ROWS, _DIVISIONS, _CHOOSABLE)
    assert all(query.made and None not in query.made.values() for query in kept)
