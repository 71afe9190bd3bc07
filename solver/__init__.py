"""hanabi-solver: the maximum score of perfect-information Hanabi decks."""
__version__ = "0.1.0"
