"""The forms of play: the score sheet (`sheet`), the table phone (`table`), the director's
schedule and matchday pages (`schedule`), a club match's lineup and forfeit (`match`); the
version token every form of a write carries (`seen`).
"""
