"""Developer tools kept outside the wheel."""
