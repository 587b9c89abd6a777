"""The printed sheets (reportlab): a game's score sheet with its table link's QR code
(`sheets`), a matchday's pairing sheet (`pairings`), and what both draw with (`drawing`).
"""
