"""The battle report of a game: each side's strength over the turns, its losses by division, the leaders lost, the
routs and panics, and the largest assaults (``walk``), and the charts that draw the strength (``charts``)."""
