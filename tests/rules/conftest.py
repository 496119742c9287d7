"""What the rules tests share: a refusal caught and checked to name the right seat."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.rules.core import RuleError


def refused(named: int | None, call: Any, /, *args: Any, **kwargs: Any) -> RuleError:
    """The RuleError ``call`` raises, checked to name the seat ``named`` (None: no seat)."""
    with pytest.raises(RuleError) as info:
        call(*args, **kwargs)
    assert info.value.seat == named
    return info.value
