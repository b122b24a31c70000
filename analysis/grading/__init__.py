"""Grading students' answers with partial credit and diagnoses; problems and class reports."""
