"""Template tags of the pages (``{% load board %}``)."""
