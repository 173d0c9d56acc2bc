from republic.games.phases.handler import StepHandler  # noqa: F401

STEPS: dict = {}
urls: list = []
