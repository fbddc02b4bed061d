"""Marvel Champions uniqueness: the game (state, decks, questions, facts, words) and MarvelCDB's importer."""
