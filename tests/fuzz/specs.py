"""All strategies (importing registers them) and the callables exempt from fuzzing."""

from __future__ import annotations

import specs_core  # noqa: F401

#: Public callables that are never called with arguments of a user's, and why.
EXEMPT = {
    "bmc.reactions.Trial": "a typing.Protocol (what motion_reactions accepts), never called",
    "bmc.least_squares.Measured": "a typing.Protocol (what the covariances accept), never "
                                  "called",
}
import specs_formulations  # noqa: F401,E402
import specs_models  # noqa: F401,E402
import specs_serving  # noqa: F401,E402
