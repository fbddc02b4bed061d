"""Lord of the Rings TCG uniqueness: the game (state, questions, facts, words) and GEMP's card importer."""
