"""One valid input per mechanic, as JSON-shaped data: shown by ``resolve --list`` so a script writer can
start from something that resolves, and used by the tests as seeds for bad-input fuzzing."""

EXAMPLES: dict[str, dict[str, object]] = {
    "first_attacker": {"first_side": "Union", "second_side": "Confederate", "first_roll": 7, "second_roll": 4},
    "turn_sequence": {
        "game_turn": 1,
        "player_turn": 1,
        "step": "rally",
        "first_attacker": "Confederate",
        "other_side": "Union",
    },
    "morale": {"m_hits": 2, "new_m_hits": 3, "cause": "fire"},
    "charge_disorder": {"m_hits": 1, "used_charge_bonus": True},
    "rally": {
        "grade": "green",
        "m_hits": 2,
        "roll": 6,
        "division_leader": "P0",
        "division_leader_distance": 3,
        "bases_at_start": 4,
        "bases_now": 3,
    },
    "hors_de_combat": {"roll": [5, 5], "base_hits_within_4": 2},
    "leader_replacement": {"rank": "division", "leader": "E2", "name": "Heth"},
    "maneuver": {"grade": "green", "roll": 3, "m_hits": 0, "division_commander": "E"},
    "movement_allowance": {
        "kind": "infantry",
        "grade": "veteran",
        "formation_changes": 1,
        "charge_bonus": True,
        "obstacles_crossed": ["stone_wall"],
    },
    "battery_functions": {"functions": ["move", "unlimber"], "limbered": True},
    "terrain_effects": {"feature": "heavy_forest", "kind": "artillery"},
    "leader_move": {"rally_step": True, "scale": "large"},
    "mount": {"kind": "cavalry_mounted", "mount": False, "m_hits": 0},
    "forced_move": {"move": "Rt", "horse": True, "already_moved": "F"},
    "blocked_forced_move": {"move": "Re", "m_hits": 2},
    "skirmish_blocks": {
        "blocks": [
            {"blocker": "a", "grade": "veteran", "target": "x", "roll": 7},
            {"blocker": "b", "grade": "green", "target": "x", "roll": 3},
        ]
    },
    "skirmish_attack": {"grade": "veteran", "range": 3, "roll": 8},
    "skirmisher_degrade": {"grade": "veteran", "b_hits": 1},
    "artillery_fire": {"battery": "m_sb", "range": 6, "roll": 9, "enfilade": True},
    "artillery_hits": {"rolled": "3M 3B", "main": {"bases": 2, "m_hits": 1}, "tandem": {"bases": 4}},
    "saved_fire": {"moved_this_turn": False, "m_hits": 1},
    "assault_column": {"attacker_kind": "infantry", "defender_kind": "cavalry_dismounted", "defender_in_cover": True},
    "assault_round": {
        "attacker": {"roll": 8, "units": [{"grade": "veteran", "bases": 4}]},
        "defender": {"roll": 3, "units": [{"grade": "average", "bases": 4}]},
    },
    "assault_losses": {
        "units": [
            {"id": "iron", "kind": "infantry", "grade": "average", "bases": 4, "m_hits": 4},
            {"id": "battery", "kind": "artillery", "grade": "veteran", "bases": 1},
        ],
        "hits": "3P 1B",
        "natural_m": 1,
    },
    "passage_of_lines": {"passers": [{"m_hits": 4, "move": "Rt", "distance": 2}], "grade": "green"},
    "supporting_brigade": {"grade": "veteran", "bases": 4, "supporting_bases": 1, "primary_move": "Re"},
    "break_off": {"grade": "average", "m_hits": 2},
    "bridging_hits": {"assaults": ["2M 2P", "3M 2P"]},
    "assault_follow_up": {"result": "may_breakthrough", "kind": "infantry", "move": "carry", "used_bonus": True},
    "local_breakthrough": {"rounds_resolved": 0, "used_bonus": True},
    "panic": {"grade": "average", "panic_hits": 4, "out_of_town": True},
    "division_panic_test": {
        "units": [
            {"id": "a", "grade": "veteran", "bases": 4, "condition": "demoralized", "already_moved": "F"},
            {"id": "b", "grade": "green", "bases": 3},
        ],
        "internal_roll": 4,
    },
    "panic_phase": {
        "divisions": [
            {"id": "heth", "internal": True, "units": [{"id": "a", "grade": "green", "bases": 4}]},
            {"id": "pender", "units": [{"id": "b", "grade": "veteran", "bases": 4}]},
        ],
        "adjoining": [{"first": "heth", "second": "pender"}],
        "rolls": [
            {"division": "heth", "trigger": "internal", "roll": 2},
            {"division": "pender", "trigger": "adjoining", "roll": 6},
        ],
    },
    "demoralized_panic_test": {"grade": "green", "panic_hits": 4, "bases": 3},
}
