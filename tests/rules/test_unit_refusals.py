"""What a unit may not do for its condition, grade or formation (1.4, 2.3, 3.5): the restrictions of a
condition, deploying and recalling skirmishers, and changing formation."""

from dataclasses import replace

import pytest

from republic.rules.errors import RulesInputError
from republic.rules.morale import Restriction
from republic.rules.troops import Formation, Grade
from republic.rules.units import (
    after_formation,
    after_skirmishers,
    formation_refusal,
    restricted,
    skirmisher_limit,
    skirmisher_refusal,
    skirmishers_it_may_set,
)
from tests.rules.unit_states import brigade

# --- what a condition forbids (2.3) ------------------------------------------------------------------


@pytest.mark.parametrize("restriction", list(Restriction))
def test_a_formed_unit_is_never_restricted(restriction):
    assert restricted(brigade(), restriction) == ""


def test_a_restriction_names_the_condition_and_the_rule():
    refusal = restricted(brigade(m_hits=1), Restriction.CHANGE_FORMATION)
    assert "Unformed" in refusal and "may not change formation" in refusal and "2.3" in refusal
    assert restricted(brigade(m_hits=1), Restriction.DEPLOY_SKIRMISHERS) == ""
    assert "will not voluntarily advance" in restricted(brigade(m_hits=4), Restriction.ADVANCE)
    assert restricted(brigade(m_hits=3), Restriction.ADVANCE) == ""


# --- skirmishers (1.4, 2.3, 3.5) ---------------------------------------------------------------------


def test_a_brigade_in_close_order_deploys_its_troop_lists_markers():
    assert skirmisher_limit(brigade(skirmishers_available=2)) == 2


def test_a_brigade_in_open_order_deploys_one_marker_per_combat_base():
    """1.4 (R:269-270)."""
    assert skirmisher_limit(brigade(bases=5, formation=Formation.OPEN_ORDER, skirmishers_available=2)) == 5
    assert (
        skirmisher_limit(brigade(bases=1, bases_start=6, formation=Formation.OPEN_ORDER, skirmishers_available=2)) == 2
    )


def test_a_rattled_brigade_may_set_no_more_markers_than_it_has_out():
    unit = brigade(m_hits=2, skirmishers_available=4, skirmishers_deployed=1)
    assert skirmishers_it_may_set(unit) == 1
    assert skirmishers_it_may_set(replace(unit, m_hits=1)) == 4


def test_an_untrained_brigade_deploys_no_skirmishers():
    """3.5 (R:773-775): trained brigades, Green or better."""
    refusal = skirmisher_refusal(brigade(grade=Grade.UNTRAINED, skirmishers_available=2), 1)
    assert "Untrained" in refusal and "3.5" in refusal


def test_a_rattled_brigade_may_recall_its_markers_but_not_deploy_more():
    unit = brigade(m_hits=2, skirmishers_available=4, skirmishers_deployed=2)
    assert skirmisher_refusal(unit, 1) == ""
    assert skirmisher_refusal(unit, 2) == ""
    refusal = skirmisher_refusal(unit, 3)
    assert "Rattled" in refusal and "may not deploy skirmishers" in refusal and "recall" in refusal
    assert skirmisher_refusal(unit) == refusal


def test_a_brigade_may_not_deploy_more_markers_than_its_limit():
    refusal = skirmisher_refusal(brigade(skirmishers_available=2), 3)
    assert "at most 2" in refusal and "open order" not in refusal
    open_order = skirmisher_refusal(brigade(bases=4, formation=Formation.OPEN_ORDER), 5)
    assert "at most 4" in open_order and "one per combat base in open order" in open_order
    assert skirmisher_refusal(brigade(skirmishers_available=2), 2) == ""


def test_a_brigade_without_markers_is_told_so_and_one_with_markers_is_not():
    assert "No skirmish markers" in skirmisher_refusal(brigade())
    assert skirmisher_refusal(brigade(skirmishers_available=1)) == ""


def test_deploying_skirmishers_sets_the_number_out():
    assert after_skirmishers(brigade(skirmishers_available=3), 2).skirmishers_deployed == 2


def test_deploying_skirmishers_refused_by_the_rules_raises_their_reason():
    with pytest.raises(RulesInputError, match="Rattled: may not deploy skirmishers") as error:
        after_skirmishers(brigade(m_hits=2, skirmishers_available=3), 1)
    assert error.value.field == "deployed"


def test_setting_the_number_already_out_is_refused():
    with pytest.raises(RulesInputError, match="already deployed"):
        after_skirmishers(brigade(skirmishers_available=3, skirmishers_deployed=2), 2)


# --- formation changes (1.4, 2.3) --------------------------------------------------------------------


def test_a_formed_brigade_may_change_formation():
    assert formation_refusal(brigade(), Formation.BRIGADE_COLUMN) == ""
    assert after_formation(brigade(), Formation.BRIGADE_COLUMN).formation is Formation.BRIGADE_COLUMN


def test_a_brigade_already_in_the_formation_is_told_so():
    assert "already in two line" in formation_refusal(brigade(), Formation.TWO_LINE)


@pytest.mark.parametrize("m_hits", [1, 2, 3, 4])
def test_a_brigade_with_m_hits_may_not_change_formation(m_hits):
    unit = brigade(m_hits=m_hits)
    refusal = formation_refusal(unit, Formation.SINGLE_LINE)
    assert unit.condition.value.capitalize() in refusal and "may not change formation (2.3)" in refusal
    with pytest.raises(RulesInputError, match="may not change formation") as error:
        after_formation(unit, Formation.SINGLE_LINE)
    assert error.value.field == "formation"


def test_open_order_must_be_trained():
    """1.4 (R:267-268): Green grade or better."""
    assert "Untrained" in formation_refusal(brigade(grade=Grade.UNTRAINED), Formation.OPEN_ORDER)
    assert formation_refusal(brigade(grade=Grade.GREEN), Formation.OPEN_ORDER) == ""
    assert formation_refusal(brigade(grade=Grade.UNTRAINED), Formation.THREE_LINE) == ""


def test_leaving_open_order_with_more_markers_than_close_order_allows_needs_a_recall_first():
    unit = brigade(formation=Formation.OPEN_ORDER, skirmishers_available=2, skirmishers_deployed=4)
    assert "recall skirmishers to 2 first" in formation_refusal(unit, Formation.TWO_LINE)
    assert formation_refusal(replace(unit, skirmishers_deployed=2), Formation.TWO_LINE) == ""
