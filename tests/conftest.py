from hypothesis import settings

# Property tests run the same examples on every machine: a red build means a real counterexample,
# reproducible by anyone, never a lucky draw.
settings.register_profile("republic", derandomize=True, deadline=None, max_examples=200)
settings.load_profile("republic")
