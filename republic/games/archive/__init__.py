"""A whole game saved as one JSON file and loaded again into a fresh game (``export``, ``load``)."""
