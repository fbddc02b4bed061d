"""What the card games share, a module per part as each game has them: state (a table's instances and state),
reader (catalogs, hypothetical cards, instances and decks read alike), facts, words and search (the bases of those
parts), game (the base of a card game's assembly)."""
