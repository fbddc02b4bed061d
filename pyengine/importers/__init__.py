"""Importers read public card databases, in the layout a user's own clone has, into the catalog store."""
