"""Writes (HackSoft's services): keyword-only, typed, one transaction, the rows two
writers could race on locked; refusals are `RuleViolation` codes (worded in
`troefclub.rule_messages`); a standings refresh is queued on commit when results can change.
"""
