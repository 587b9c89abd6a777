# Shortcuts for dev.py (which works without make: python3 dev.py COMMAND).
PYTHON ?= python3

.PHONY: run test check worker lock

run:
	$(PYTHON) dev.py run

test:
	$(PYTHON) dev.py test

check:
	$(PYTHON) dev.py check

worker:
	$(PYTHON) dev.py worker

lock:
	$(PYTHON) dev.py lock
