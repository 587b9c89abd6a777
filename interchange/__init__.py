"""Import and export of the interchange format `troefclub-competition/1` (DESIGN.md,
docs/interchange.md).

`competition_import(data=…)` reads one parsed JSON document into the database, all or
nothing: it runs in one transaction and raises `InterchangeError(place, message)` on the
first problem, so nothing is saved. `competition_export(competition=…)` gives the same
format back: importing a file and exporting the competition returns the file (up to the
order of keys in objects). `document_parse(raw=…)` reads the bytes of a file strictly.

Places name objects the way a director reads them: `competition`, `competition, rules`,
`clubs[3]` (1-based positions), `players[p07]`, `teams[t01]`, `entries`, `matchday 2`,
`matchday 2, match kampoe-toppers` (the home and away entry keys), `…, game table 3` (with
`sitting 2` in front of the table when the match's games use more than one sitting),
`…, round 5`, `matchday 2, match kampoe-toppers, forfeit`, `deductions[1]`, `squads[kampoe]`.

The modules, in the order an import uses them:

- `constants`: the format's name, limits, object keys and the defaults of optional keys;
- `errors`: `InterchangeError` and the wording of places and rule violations;
- `values`: reading the file (`document_parse`) and its values, with their places;
- `document`: the parsed document's values;
- `parse` and `parse_schedule`: the document checked before anything is written
  (`document_check`);
- `importer`: `competition_import`, which writes the rows; `load`: its bulk writer of the
  results;
- `exporter`: `competition_export`.
"""
