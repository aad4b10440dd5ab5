"""Copies of the domain's frozen records with some fields changed, as dataclasses.replace makes them."""

from __future__ import annotations

from domain.core import generated_copiers

# A state is copied on every event it folds: copy functions compiled for each record type set its
# slots directly, where dataclasses.replace passes every field through `__init__` again.
replace = generated_copiers.replace
