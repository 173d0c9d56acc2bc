class RulesInputError(ValueError):
    """Input the rules cannot accept; names the field and the problem so a form or script can show it."""

    def __init__(self, field: str, problem: str):
        self.field = field
        self.problem = problem
        super().__init__(f"{field}: {problem}" if field else problem)
