"""What the artillery form asks of the target that only the table sees (4.3, 4.5): where the three deep bases line
up at point blank, how many bases of a covered brigade the fire is at, and the targets of a compound fire, of
different kinds or two batteries within 1" fired at as one."""

from republic.games.models import Event
from republic.rules.fire_results import FireHits
from tests.games.conftest import (
    at_step,
    battery,
    brigade,
    fresh,
    last,
    opened_row,
    payload,
    set_state,
    state_matches_events,
    summary,
)
from tests.games.test_artillery_fire import fire


def test_at_point_blank_the_form_asks_where_the_three_deep_bases_line_up(client, demo):
    """R:1099-1104: at 1½" the deep target counts only if the three bases line up within 4", not out to 5½"."""
    game = at_step(demo, "artillery_fire")
    pegram, napoleons = battery(game, "Pegram's Battalion (rifles)"), battery(game, "Pegram's Battalion (Napoleons)")
    iron = brigade(game, "Iron Brigade (Meredith)")
    assert "Asked only for a deep target at point blank" in opened_row(client, game, pegram)
    unasked = fire(client, game, pegram, iron.key, rng="1.5", deep_target="on").content.decode()
    assert "give the range to where the fire enters the third base" in unasked and "within 4&quot;" in unasked
    assert not Event.objects.filter(game=game, kind="ArtilleryFired").exists()
    fire(client, fresh(game), pegram, iron.key, rng="1.5", deep_target="on", deep_range="5.5")
    beyond = payload(last(game, "ArtilleryFired"))
    assert not any(s.label.startswith("Deep Target") for s in beyond.result.shifts)
    assert any("no deep target" in note for note in beyond.result.notes) and beyond.inputs.deep_range == 5.5
    fire(client, fresh(game), napoleons, iron.key, rng="1.5", deep_target="on", deep_range="3.5")
    inside = payload(last(game, "ArtilleryFired"))
    assert any(s.label.startswith("Deep Target") for s in inside.result.shifts)


def test_fire_at_the_uncovered_bases_of_a_covered_brigade_takes_no_cover_shift_and_no_b_on_its_covered_bases(
    client, demo
):
    """R:1132-1136: the battery fires without cover modifiers at the uncovered portion, and the bases still in cover
    may not receive base hits from that fire."""
    game = at_step(demo, "artillery_fire")
    pegram, iron = battery(game, "Pegram's Battalion (rifles)"), brigade(game, "Iron Brigade (Meredith)")
    fire(client, game, pegram, iron.key, rng="3", cover="medium", uncovered_bases="1", printed="2M 3B")
    fired = payload(last(game, "ArtilleryFired"))
    assert not any("Cover" in s.label for s in fired.result.shifts)
    assert fired.hits == (FireHits(iron.key, m=2, b=1, marker_b=0),) and fired.shared.unassigned_b == 2
    too_many = fire(client, fresh(game), battery(game, "Garnett's Battalion"), iron.key, uncovered_bases="40")
    assert f"the target has {iron.bases} bases, not 40" in too_many.content.decode()


def test_a_compound_target_takes_no_open_order_minus_two_unless_every_target_is_in_open_order(client, demo):
    """R:1199-1201: targets of different kinds take the modifiers most favourable to the battery."""
    set_state(demo, brigade(demo, "Iron Brigade (Meredith)"), formation="open_order")
    game = at_step(demo, "artillery_fire")
    pegram, iron, cutler = (
        battery(game, "Pegram's Battalion (rifles)"),
        brigade(game, "Iron Brigade (Meredith)"),
        brigade(game, "Cutler's Brigade"),
    )
    fire(client, game, pegram, iron.key, rng="3", tandem=cutler.key)
    fired = payload(last(game, "ArtilleryFired"))
    assert not fired.inputs.open_order and fired.inputs.waived == ("open_order",)
    assert not any(m.label == "At open order" for m in fired.result.modifiers)
    fire(client, fresh(game), battery(game, "Garnett's Battalion"), iron.key, rng="3")
    assert payload(last(game, "ArtilleryFired")).inputs.open_order  # alone, it is an open order target


def test_two_enemy_batteries_within_an_inch_are_fired_at_as_one_and_share_its_hits(client, demo):
    """R:1201-1203: enemy batteries within 1" of each other may be one compound target."""
    game = at_step(demo, "artillery_fire")
    pegram, hall, calef = (
        battery(game, "Pegram's Battalion (rifles)"),
        battery(game, "2nd Maine Light, Battery B (Hall)"),
        battery(game, "2nd U.S., Battery A (Calef)"),
    )
    iron = brigade(game, "Iron Brigade (Meredith)")
    refused = fire(client, game, pegram, iron.key, rng="3", compound=calef.key).content.decode()
    assert "Only two enemy batteries within 1&quot; of each other are one compound target." in refused
    fire(client, fresh(game), pegram, hall.key, rng="3", compound=calef.key, printed="2M 1B")
    event = last(game, "ArtilleryFired")
    fired = payload(event)
    assert fired.compound.unit == calef.key
    assert fired.hits == (FireHits(hall.key, m=1, b=1, marker_b=0), FireHits(calef.key, m=1, b=0, marker_b=0))
    assert "at 2nd Maine Light, Battery B (Hall) and 2nd U.S., Battery A (Calef) as one" in summary(event)
    assert state_matches_events(game)
