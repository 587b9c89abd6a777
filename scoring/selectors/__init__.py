"""Reads with logic (HackSoft's selectors): each module owns its joins and returns
rows, dataclasses or querysets the pages and services use. One module a topic:
`results`, `standings_inputs`, `standings`, `schedule`, `sheet`, `matches`, `board`,
`history`, `history_match`, `faults`, `table`, `evening`.
"""
