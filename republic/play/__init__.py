"""The game's decisions over the rules: for each step of the turn, pure functions over the engine's values (the
units' states, the leaders and what this turn recorded) say what is due, what a side may do now and what an
action changes. No Django: ``republic.games.steps`` reads the state, asks here and writes the answer."""
