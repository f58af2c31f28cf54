"""When Kuo's Appendix-B weights fail: the ends of the record and the posture (notebook 6).

Appendix B neglects the errors of the angles and velocities at which ``A`` and ``b`` are
evaluated, so its weights trust the force-plate rows hundreds of times too much and the
least-squares estimate collapses to the force-plate-only solution. Two things the paper's
benchmark leaves open decide whether that solution is good: whether the filter's ends of
the record are scored, and whether the thigh is exactly vertical. Each test states its
conditions; the figures are those of one seeded batch of 50 realisations (one drive,
noise seed 1), with tolerances of about two binomial or sampling standard deviations.
"""

from __future__ import annotations

import numpy as np
import pytest

from bmc import least_squares as ls
from bmc.models import standing

UPRIGHT = np.radians([86.0, 90.0, 88.0])  # thigh exactly vertical [rad]
N_REAL = 50
ENDS = 3  # frames at each end of the record where the filter keeps extra noise


def _scores(model, posture, margin):
    """Per-realisation overall RMSE [N m] of NE, LS paper, LS propagated; end share."""
    sway = standing.simulate_sway(model, margin=margin, posture=posture)
    meas = standing.measure(sway, marker_noise=0.01, force_noise=0.1, realisations=N_REAL,
                            seed=1)
    args = (model, meas.phi, meas.phid, meas.phidd, meas.grf)
    truth = meas.tau_true
    taus = {"NE": ls.newton_euler(*args).tau,
            "paper": ls.least_squares(*args, ls.paper_covariance(model, meas)).tau,
            "propagated": ls.least_squares(*args, ls.propagated_covariance(model, meas)).tau}
    whole = {k: ls.overall_rmse_by_realisation(v, truth, N_REAL) for k, v in taus.items()}
    sq = meas.split(np.sum((taus["paper"] - truth) ** 2, axis=1))  # (R, N)
    end_share = (sq[:, :ENDS].sum() + sq[:, -ENDS:].sum()) / sq.sum()
    inner = {k: np.sqrt(np.mean(meas.split((v - truth) ** 2)[:, ENDS:-ENDS], axis=(1, 2)))
             for k, v in taus.items()}
    return whole, inner, end_share


def _pooled(x):
    return float(np.sqrt(np.mean(np.square(x))))


@pytest.fixture(scope="module")
def upright_whole(kuo_model):
    """Thigh vertical, no margins: the 4 s record scored whole."""
    return _scores(kuo_model, UPRIGHT, 0.0)


@pytest.fixture(scope="module")
def flexed_whole(kuo_model):
    """The default (knee and hip slightly flexed) posture, no margins."""
    return _scores(kuo_model, None, 0.0)


def test_filter_ends_keep_more_noise():
    """With scipy's default filtfilt padding the first sample keeps 6.9x the interior
    angle-noise variance and 13.6x the velocity-noise variance (the same at the last)."""
    gains = standing.noise_gains(240, 60.0)
    mid = gains[120]
    # exact linear algebra on the filter operators: 1 % covers the rounding of the figures
    np.testing.assert_allclose(gains[0, 0, 0] / mid[0, 0], 6.9, rtol=0.01)
    np.testing.assert_allclose(gains[0, 1, 1] / mid[1, 1], 13.6, rtol=0.01)
    # the last sample: the same angle gain, a velocity gain of 13.3 (the one-sided difference)
    np.testing.assert_allclose(gains[-1, 0, 0] / mid[0, 0], 6.9, rtol=0.01)
    np.testing.assert_allclose(gains[-1, 1, 1] / mid[1, 1], 13.6, rtol=0.03)
    # three samples in, the angle gain is back to the interior value within a few per cent
    assert abs(gains[3, 0, 0] / mid[0, 0] - 1) < 0.05


def test_paper_weights_fail_at_the_record_ends(flexed_whole):
    """Default posture, 4 s scored whole (no margins), 1 cm and 0.1 N, 50 realisations:
    most of the paper-weight squared error sits in the 6 end frames (issue figure 87 %,
    here 94 %); without those frames LS paper beats NE in every realisation."""
    whole, inner, end_share = flexed_whole
    assert end_share > 0.7
    assert np.all(inner["paper"] < 0.7 * inner["NE"])
    # scored whole, the pooled error of LS paper is dominated by the ends (9.9 vs 2.5 N m)
    assert _pooled(whole["paper"]) > 2 * _pooled(inner["paper"])


def test_margins_remove_the_end_failure(kuo_model):
    """Default posture with the notebook's 0.5 s margins: the end frames are not scored,
    and LS paper beats NE in every realisation at 1 cm (ratio about 0.45)."""
    whole, _, end_share = _scores(kuo_model, None, 0.5)
    assert end_share < 0.1  # 6 of 240 frames carry their share (2.5 %), no more
    assert np.all(whole["paper"] < 0.75 * whole["NE"])


def test_paper_weights_fail_with_the_thigh_vertical(upright_whole, flexed_whole):
    """Thigh vertical (86, 90, 88 deg), no margins, 1 cm and 0.1 N, 50 realisations: NE
    pooled 5.76 N m (issue 5.72), LS paper worse than NE in 17 of 50 (issue 19); in the
    flexed posture on the same noise only 2 are lost."""
    whole, _, end_share = upright_whole
    ne, paper = _pooled(whole["NE"]), _pooled(whole["paper"])
    np.testing.assert_allclose(ne, 5.72, rtol=0.05)  # sampling spread of 50 realisations
    assert paper > ne  # issue: 7.34 against 5.72; here 9.0 (heavy-tailed, a few blow-ups)
    lost = int(np.sum(whole["paper"] > whole["NE"]))
    # binomial with p about 0.35: sd 3.4 realisations; 19 +- 2.5 sd
    assert 11 <= lost <= 27, lost
    assert end_share > 0.7
    lost_flexed = int(np.sum(flexed_whole[0]["paper"] > flexed_whole[0]["NE"]))
    assert lost_flexed <= 6 < lost


def test_thigh_vertical_makes_the_force_rows_ill_conditioned(kuo_model):
    """Measured data at 1 cm, 50 realisations, no margins: the force-plate rows of ``A``
    (the system the paper's weights reduce to) have a condition number above 20 (exact
    data never exceed 14.5 in either posture) in 0.5 % of the interior frames with the
    thigh vertical and in none in the flexed posture; at the 6 end frames in 4.0 % against
    0.7 %. (The issue quotes 5.6 % of frames near singular by a criterion it does not
    state.)"""
    def cond(posture):
        sway = standing.simulate_sway(kuo_model, margin=0.0, posture=posture)
        exact, _ = ls.system(kuo_model, sway.phi, sway.phid, sway.phidd, sway.grf)
        assert np.linalg.cond(exact[:, :3]).max() < 15  # well conditioned without noise
        meas = standing.measure(sway, marker_noise=0.01, realisations=N_REAL, seed=1)
        a, _ = ls.system(kuo_model, meas.phi, meas.phid, meas.phidd, meas.grf)
        c = meas.split(np.linalg.cond(a[:, :3]) > 20)
        return c[:, ENDS:-ENDS].mean(), np.concatenate([c[:, :ENDS], c[:, -ENDS:]]).mean()

    (up_inner, up_ends), (flex_inner, flex_ends) = cond(UPRIGHT), cond(None)
    assert up_inner > 0.002 and flex_inner < 0.0005
    assert up_ends > 0.02 > flex_ends


def test_propagated_covariance_is_not_fragile(upright_whole, flexed_whole):
    """In both fragile cases LS with the propagated covariance beats NE in every
    realisation: it knows how noisy the force rows are at the ends and near singularity."""
    for whole, _, _ in (upright_whole, flexed_whole):
        assert np.all(whole["propagated"] < 0.8 * whole["NE"])


def _gain_condition(A, var):
    """Condition number of K_LS = (A^T W^-1 A)^-1 A^T W^-1, the matrix multiplying b in eq. 8."""
    K = ls.weighted_least_squares(A, np.zeros(A.shape[:-1]), var).gain
    s = np.linalg.svd(K, compute_uv=False)
    return s[..., 0] / s[..., -1]


def test_kuos_condition_number_limit_does_not_see_the_failure(kuo_model, flexed_whole):
    """Kuo's safeguard (scale W when the condition number of the matrix multiplying b in
    eq. 8 exceeds about 100) never triggers in the flexed posture scored whole, although
    the paper's weights lose to Newton-Euler there (pooled 9.9 against 5.7 N m): the failing
    frames are well enough conditioned to pass it."""
    sway = standing.simulate_sway(kuo_model, margin=0.0)
    meas = standing.measure(sway, marker_noise=0.01, force_noise=0.1, realisations=N_REAL,
                            seed=1)
    A, _ = ls.system(kuo_model, meas.phi, meas.phid, meas.phidd, meas.grf)
    kappa = _gain_condition(A, np.diagonal(ls.paper_covariance(kuo_model, meas), 0, 1, 2))
    assert kappa.max() < 100  # the notebook prints 90
    whole = flexed_whole[0]
    assert _pooled(whole["paper"]) > 1.5 * _pooled(whole["NE"])


def test_the_condition_number_falls_with_equal_weights(kuo_model):
    """Scaling W towards equal weights (W**s, s from 1 to 0) lowers the condition number of
    the worst frame from 139 to below 10 (it is not monotonic in s: lowest near s = 0.5):
    the safeguard's lever works where it is pulled."""
    sway = standing.simulate_sway(kuo_model, margin=0.0, posture=UPRIGHT)
    meas = standing.measure(sway, marker_noise=0.01, force_noise=0.1, realisations=N_REAL,
                            seed=1)
    A, _ = ls.system(kuo_model, meas.phi, meas.phid, meas.phidd, meas.grf)
    var = np.diagonal(ls.paper_covariance(kuo_model, meas), 0, 1, 2)
    kappa = _gain_condition(A, var)
    worst = int(np.argmax(kappa))
    assert kappa[worst] > 100  # the notebook prints 139 as the largest with the thigh vertical
    scaled = [_gain_condition(A[worst:worst + 1], var[worst:worst + 1] ** s)[0]
              for s in (1.0, 0.5, 0.0)]
    assert scaled[0] == pytest.approx(kappa[worst]) and max(scaled[1:]) < 10
