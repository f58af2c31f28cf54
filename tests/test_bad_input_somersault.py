"""bmc.models.somersault: bad input refused by name; no hang, no motion beyond its model."""

from __future__ import annotations

import numpy as np
import pytest

from bmc.models.somersault import somersault

VALID = {somersault: {"freq": 50.0}}


def case(func, exc, arg, **bad):
    return func, {**VALID[func], **bad}, exc, arg


CASES = [
    case(somersault, TypeError, "model", model="human"),
    case(somersault, TypeError, "freq", freq="250"),
    case(somersault, TypeError, "speed", speed=True),
    case(somersault, TypeError, "lever", lever="0.1"),
    case(somersault, TypeError, "drift", drift=None),
    case(somersault, TypeError, "rtol", rtol=1e-8j),
    case(somersault, ValueError, "freq", freq=0.0),
    case(somersault, ValueError, "speed", speed=-6.5),
    case(somersault, ValueError, "stiffness", stiffness=np.nan),
    case(somersault, ValueError, "lever", lever=np.inf),
    # implausible launch speeds: 35 gave a contact point 51 m above the bed
    case(somersault, ValueError, "speed", speed=35.0),
    case(somersault, ValueError, "speed", speed=650.0),   # cm/s
    # solver tolerance: NaN hung the integration
    case(somersault, ValueError, "rtol", rtol=np.nan),
    case(somersault, ValueError, "rtol", rtol=0.0),
    case(somersault, ValueError, "rtol", rtol=1.0),
]


@pytest.mark.parametrize(("func", "kwargs", "exc", "arg"), CASES,
                         ids=[f"{c[0].__name__}-{c[3]}-{i}" for i, c in enumerate(CASES)])
def test_bad_input_is_refused_by_name(refuses, func, kwargs, exc, arg):
    refuses(func, kwargs, exc, arg)


def test_speed_in_km_per_hour_is_named():
    with pytest.raises(ValueError, match=r"km/h: pass 9\.722"):
        somersault(speed=35.0)


@pytest.mark.parametrize("speed", [1.0, 4.0, 9.0, 15.0])
def test_plausible_speeds_give_a_finite_motion_that_lands(speed):
    mo = somersault(freq=50.0, speed=speed)
    assert all(np.all(np.isfinite(x)) for x in (mo.q, mo.qd, mo.qdd, mo.contact_force))
    # the flight ends on the bed: the contact point is back near its height at touchdown
    end = mo.model.point(mo.q[-1], *mo.contact_point)
    # m: the last sample is up to 1/50 s before the landing, falling at about 2 * speed
    assert abs(end[1]) < 2 * speed / 50.0 + 0.1
