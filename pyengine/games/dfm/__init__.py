"""Duel for Middle-earth: Allies: the game (a timeline of actions, questions, facts, words) and written games."""
