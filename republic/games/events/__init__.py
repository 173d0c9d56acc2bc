"""The events of a game: one frozen payload type per kind (its class name), named in the past tense, in the
module of the phase whose work records it (``command``, ``maneuver``, ``fire``, ``assault``, ``panic``) or in
``game`` for what belongs to no phase. A payload holds what the action was given (the engine's inputs, the
table's answers, the dice and how they were obtained) and the engine's result with its reasons; the rows it
changed are the event's ``changes``. Names of units and leaders are kept beside their keys: an event says who it
was about by itself. ``payload`` holds what every kind shares and reads a stored event back as its kind."""

# Every phase's kinds are loaded with the package, whichever module of it is imported first, so that ``KINDS``
# knows every kind before an event is read back.
from republic.games.events import assault, command, fire, game, maneuver, panic  # noqa: F401
