"""Reads for the player, koppel and club pages (issue 10): one module a page (`players`,
`koppels`, `clubs`) and what they share (`history`).
"""
