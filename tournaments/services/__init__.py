"""Writes of the registry and the calendar that read no result: entries, deductions, squads,
and the locks every competition write takes first.
"""
