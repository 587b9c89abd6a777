"""The pages of play (thin: validate, call one service or selector, render; an htmx
request gets its partial). Public: `public` (competition, matchday, match and game pages),
`board` (the hall display too), `paper` (PDFs, CSV and Excel). Directors: `home`,
`competition_manage`, `matchday_manage`, `match_manage`, `sheet` and `sheet_game` (the
score sheet), `table_director` (the table links and the queue), `history`. The table's
phone: `table` (its page and its queue of rounds) and `offline` (the service worker and
the manifest). `common`: what several
of them share (finding a game from its URL, a match page's content).
"""
