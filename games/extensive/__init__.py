"""Extensive-form games with information sets (imperfect information, perfect recall)."""
