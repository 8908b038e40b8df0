"""The grade cells of score_gradient.ipynb in notebook order, run in one namespace:
tools/write_grade_cells.py copies each, from its `# %% <grade_id> (<points> points)` line to the next, into its cell.
INSTRUCTORS.md says what each check's visible part, hidden tests and `# Only when graded:` line do; the names no cell
defines are the student's answers."""
from score_gradient_solution import by_hand, mean_sizes, score_gradient, score_gradient_size

# %% by_hand_row (2 points)
"""Step 2: the three entries of dl/ds for the row worked by hand."""
import numpy as np

import classroom.checks.exercise as _checks
from classroom.checks import measures

_checks.stderr_as_output()  # under Validate only: it fails a check on any stderr, and the grader does not

### BEGIN HIDDEN TESTS
# The grader's helpers, defined first so that every later check has them whatever fails before it.
def _expected(A, G):
    """The reference, in float64 whatever the inputs."""
    A, G = np.asarray(A, dtype=np.float64), np.asarray(G, dtype=np.float64)
    return A * (G - np.einsum("ij,ij->i", A, G)[:, None])


def _through_jacobians(A, G):
    """Row by row through the explicit (T, T) Jacobian of that row: slow, obvious, and independent of the above."""
    return np.stack([(np.diag(a) - np.outer(a, a)) @ g for a, g in zip(A, G)])


def _diagnosis(got, A, G):
    """Name the mistake a wrong result looks like, when it looks like a common one."""
    A, G = np.asarray(A, dtype=np.float64), np.asarray(G, dtype=np.float64)
    right = _expected(A, G)
    if np.issubdtype(np.asarray(got).dtype, np.integer):
        return "it has an integer dtype, so every fraction was cut off: return floats"
    looks_like = {
        "A * G, without the row sum": A * G,
        "the transpose of the right answer": right.T,
        "a row sum taken down the columns (axis 0) instead of along the rows": A * (G - (G * A).sum(axis=0)),
        "a row sum of G without the weights of A": A * (G - G.sum(axis=1, keepdims=True)),
        "a row sum without keepdims=True, so row j's sum is subtracted down column j": A * (G - (A * G).sum(axis=1)),
        "the backward pass of log-softmax (G - A * G.sum(1, keepdims=True)), not of softmax": G - A * G.sum(1)[:, None],
        "the bracket without the factor alpha_ij in front": G - (G * A).sum(axis=1, keepdims=True),
        "minus the right answer": -right,
    }
    for name, candidate in looks_like.items():
        if np.allclose(got, candidate, rtol=1e-6, atol=1e-9):
            return f"it equals {name}"
    return "compare it with your sum over j on the 2 x 2 example, one cell at a time"


def _right_values(f, A, G, want, rtol=1e-7, atol=1e-12):
    with _checks.at_size(A.shape[0]):
        out = f(A, G)
    got = _checks.as_matrix(out, A.shape[0])
    if not np.allclose(got, want, rtol=rtol, atol=atol):
        worst = np.max(np.abs(got - want))
        raise AssertionError(f"at T = {A.shape[0]} your values are off by up to {worst:.3g}: "
                             f"{_diagnosis(out, A, G)}")
### END HIDDEN TESTS

try:
    by_hand
except NameError:
    raise AssertionError("Step 2 is not answered yet: set by_hand = [..., ..., ...] in its cell") from None
_hand = _checks.three_numbers(by_hand)
print(f"by_hand = {_hand.round(6).tolist()}: three numbers, as asked.")
# Only when graded: whether the three numbers are right.
### BEGIN HIDDEN TESTS
_alpha, _g = np.array([1 / 2, 1 / 3, 1 / 6]), np.array([6.0, 0.0, 12.0])
_chained = (np.diag(_alpha) - np.outer(_alpha, _alpha)) @ _g  # dl/ds_m = sum_j g_j J_jm, and J is symmetric
if not np.allclose(_hand, _chained, rtol=1e-6, atol=1e-9):
    if np.allclose(_hand, _alpha * (1 - _alpha) * _g):
        _why = "you kept only the term j = m of the sum; the terms j != m, each -alpha_j alpha_m g_j, are missing"
    elif abs(_hand.sum()) > 1e-6:
        _why = "the three entries should add up to zero (a shift of every logit of the row changes nothing)"
    else:
        _why = "redo the sum over j for each m, one term at a time, with the two cases of the derivative"
    raise AssertionError(f"by_hand is not right: {_why}")
### END HIDDEN TESTS

# %% worked_example_2x2 (1 point)
"""A 2 x 2 case small enough to check by hand."""
A = np.array([[0.5, 0.5], [0.25, 0.75]])
G = np.array([[1.0, 0.0], [0.0, 0.0]])
expected = np.array([[0.25, -0.25], [0.0, 0.0]])
measures.runs_alone(score_gradient)
result = score_gradient(A, G)
assert np.allclose(result, expected), f"expected\n{expected}\nbut your function returned\n{result}"
print("The 2 x 2 example is right.")

# %% matches_finite_differences (2 points)
"""Agrees with central differences of the loss l(S) = sum(G * softmax(S)), one logit nudged at a time."""
_gap = _checks.nudging_gap(score_gradient, 7)
# Only when graded: the same comparison on an example you have not seen, naming the slip when it is a common one.
### BEGIN HIDDEN TESTS
_gap = max(_gap, _checks.nudging_gap(score_gradient, 20, T=6))
if not _gap < 1e-6:
    raise AssertionError(f"nudging each logit by 1e-6 and watching the loss gives a gradient up to {_gap:.3g} away "
                         f"from yours: {_diagnosis(score_gradient(*_checks.case(6, 15)), *_checks.case(6, 15))}")
### END HIDDEN TESTS
assert _gap < 1e-6, (f"nudging each logit by 1e-6 and watching the loss gives a gradient up to {_gap:.3g} away "
                     "from yours: redo the sum over j of g_ij times the derivative of alpha_ij")
print(f"Agrees with central differences (largest gap {_gap:.1e}).")

# %% values_match_reference (3 points)
"""Values stay right at T = 1, at large T and in float32, judged once they agree with central differences."""
_checks.computes_from_both(score_gradient)
_judged = _checks.nudging_gap(score_gradient, 7) < 1e-6
# Only when graded: the same condition on the hidden example above; then an independent reference, T = 1 to 300.
### BEGIN HIDDEN TESTS
_judged = _judged and _checks.nudging_gap(score_gradient, 20, T=6) < 1e-6
### END HIDDEN TESTS
if _judged:
    _checks.zero_at_T_1(score_gradient)
    print("With T = 1 your gradient is 0, as it must be.")
else:
    print("Not judged: this check depends on matches_finite_differences, which already charges values that disagree "
          "with central differences; once they agree, this one checks T = 1, large T and float32.")
### BEGIN HIDDEN TESTS
for T, seed, tolerances in [(1, 10, ()), (2, 11, ()), (8, 12, ()), (300, 13, ()), (8, 14, (1e-4, 1e-6))] * _judged:
    A, G = _checks.case(T, seed, np.float32 if tolerances else np.float64)  # float32 gets float32's tolerances
    want = _expected(A, G)
    assert T > 8 or np.allclose(want, _through_jacobians(A, G)), "the grader's reference is wrong: tell your teacher"
    _right_values(score_gradient, A, G, want, *tolerances)
### END HIDDEN TESTS

# %% rows_sum_to_zero (1 point)
"""Every row of the result sums to zero (adding a constant to a row of logits leaves the softmax unchanged)."""
def _rows_sum_to_zero(seed):
    got = _checks.as_matrix(score_gradient(*_checks.case(8, seed)), 8)
    sums = got.sum(axis=1)
    assert np.allclose(sums, 0.0, atol=1e-10), (f"each row of your result should sum to 0 but the sums reach "
                                                f"{np.max(np.abs(sums)):.3g}: is the weighted row sum missing, or "
                                                "taken over the wrong axis?")
    assert np.abs(got).max() > 1e-6, "your result is zero everywhere, which only happens for special inputs"


_rows_sum_to_zero(31)
print("Every row sums to zero on an 8 x 8 example.")
# Only when graded: the same on an example you have not seen.
### BEGIN HIDDEN TESTS
_rows_sum_to_zero(30)
### END HIDDEN TESTS

# %% one_hot_rows_give_zero (1 point)
"""A saturated row of A (one weight 1, the rest 0) passes no gradient back to its logits."""
def _one_hot_rows(seed):
    A, G = _checks.case(6, seed)
    A[[1, 4]] = 0.0
    A[1, 2] = A[4, 0] = 1.0
    _checks.zero_rows_only(_checks.as_matrix(score_gradient(A, G), 6), [1, 4], lambda off: (
        f"rows 1 and 4 of A are one-hot, so their rows of the result should be 0, yet they reach {off:.3g}: check "
        "that the weighted row sum uses the weights of the same row"))


_one_hot_rows(41)
print("One-hot rows of A give zero rows, and only they do.")
# Only when graded: the same on an example you have not seen.
### BEGIN HIDDEN TESTS
_one_hot_rows(40)
### END HIDDEN TESTS

# %% constant_rows_of_G_give_zero (1 point)
"""A row of G with the same value everywhere gives a zero row: the softmax ignores a shift of its row."""
def _constant_rows(seed):
    A, G = _checks.case(6, seed)
    G[0] = 3.0
    G[3] = -1.5
    _checks.zero_rows_only(_checks.as_matrix(score_gradient(A, G), 6), [0, 3], lambda off: (
        f"rows 0 and 3 of G are constant, so those rows of the result should be 0, yet they reach {off:.3g}: the "
        "bracket should subtract the row's weighted average of G"))


_constant_rows(51)
print("Constant rows of G give zero rows, and only they do.")
# Only when graded: the same on an example you have not seen.
### BEGIN HIDDEN TESTS
_constant_rows(50)
### END HIDDEN TESTS

# %% inputs_left_untouched (1 point)
"""A and G are the same after the call, and read-only inputs are accepted."""
_checks.computes_from_both(score_gradient)
_checks.leaves_inputs_alone(score_gradient, 61)
print("A and G are unchanged after the call, and read-only inputs work.")
# Only when graded: the same on an example you have not seen.
### BEGIN HIDDEN TESTS
_checks.leaves_inputs_alone(score_gradient, 60)
### END HIDDEN TESTS

# %% returns_float_array_T_by_T (1 point)
"""The result is a NumPy array of floats with shape (T, T)."""
def _is_float_array(T, seed):
    _checks.computes_from_both(score_gradient)
    out = score_gradient(*_checks.case(T, seed))
    assert isinstance(out, np.ndarray), f"return a NumPy array, not a {type(out).__name__}"
    assert out.shape == (T, T), f"for ({T}, {T}) inputs the result should have shape ({T}, {T}), not {out.shape}"
    assert np.issubdtype(out.dtype, np.floating), f"return floats, not {out.dtype}"


_is_float_array(7, 71)
print("Your function returns a (7, 7) array of floats for (7, 7) inputs.")
# Only when graded: the same on an example you have not seen.
### BEGIN HIDDEN TESTS
_is_float_array(7, 70)
### END HIDDEN TESTS

# %% no_python_loop (1 point)
"""Works with whole-array operations: no loop over cells or rows, in Python or in disguise."""
_checks.computes_from_both(score_gradient)
_loops = measures.python_loops(score_gradient)
assert not _loops, "score_gradient should work on whole arrays, with no loop over cells or rows: " + "; ".join(
    _loops)
print("No loop over rows or cells: the Python lines one call runs do not grow with T.")

# %% no_jacobian_memory (1 point)
"""Peak memory stays a few (T, T) arrays: no (T, T, T) Jacobian is built."""
_checks.computes_from_both(score_gradient)
_checks.small_peak(score_gradient, 200, 91, 32 * 2 ** 20, measures.peak_extra_bytes)
print("At T = 200 one call stays far below the size of a (T, T, T) array.")
# Only when graded: the same at T = 400, with the memory measured by the grader outside your process.
### BEGIN HIDDEN TESTS
_checks.small_peak(score_gradient, 400, 90, 64 * 2 ** 20, measures.peak_extra_bytes)
### END HIDDEN TESTS

# %% size_follows_the_definition (2 points)
"""score_gradient_size(Q, K, G, divisor) is the mean of |dl/ds| for the logits s = Q K^T / divisor."""
measures.runs_alone(score_gradient_size, score_gradient)


def _size_follows(T, d_k, seed):
    Q, K, G = _checks.draw(T, d_k, seed)
    for divisor in (1.0, float(np.sqrt(d_k))):
        want = _checks.size_by_definition(score_gradient, Q, K, G.copy(), divisor)
        got = score_gradient_size(Q.copy(), K.copy(), G.copy(), divisor)
        assert np.ndim(got) == 0 and np.isreal(got), f"score_gradient_size should return one number, not {got!r}"
        assert np.isclose(float(got), want, rtol=1e-6, atol=1e-15), (
            f"for d_k = {d_k} and divisor {divisor:g}, score_gradient_size returned {float(got):.6g}, but the mean of "
            f"|score_gradient(A, G)| with A the row softmax of Q K^T / divisor is {want:.6g}")


_size_follows(8, 16, 3)
print("score_gradient_size follows its definition on an 8 x 8 draw with d_k = 16, with and without the divisor.")
# Only when graded: the same on draws you have not seen, at d_k = 4, 64 and 1024, and with logits in the hundreds.
### BEGIN HIDDEN TESTS
for _T, _d_k, _seed in ((8, 4, 101), (8, 64, 102), (12, 1024, 103)):
    _size_follows(_T, _d_k, _seed)
_Q, _K, _G = _checks.draw(8, 64, 104)
_Q[:, 0] = _K[:, 0] = 30.0  # every score of a row grows by 900, which the softmax ignores
_want = _checks.size_by_definition(score_gradient, _Q, _K, _G.copy(), 1.0)
_got = float(score_gradient_size(_Q.copy(), _K.copy(), _G.copy(), 1.0))
assert np.isclose(_got, _want, rtol=1e-6, atol=1e-15), (
    f"with logits near 900 (undivided, every logit of a row shifted alike, which changes no weight), "
    f"score_gradient_size returned {_got:.6g} instead of {_want:.6g}: exp overflows past e^709, so exponentiate each "
    "logit minus its row's largest logit")
### END HIDDEN TESTS

# %% sizes_match_the_measurement (3 points)
"""mean_sizes(d_k, draws, seed) averages score_gradient_size over fresh draws, undivided and divided by sqrt(d_k)."""
measures.runs_alone(mean_sizes, score_gradient_size, score_gradient)
# Depends on part 1 and score_gradient_size: mean_sizes is held to what they give, so their mistakes count once.
for _d_k, _seed in ((8, 1), (512, 2)):
    _got = _checks.two_sizes(mean_sizes, _d_k, 200, _seed)
    _checks.sizes_agree(_got, _checks.own_sizes(score_gradient_size, _d_k, 200, 100 + _seed), (0.5, 0.1), _d_k,
                        "your score_gradient_size averaged over 200 draws made here")
    print(f"d_k = {_d_k}: undivided {_got[0]:.3g}, divided {_got[1]:.3g}, as your score_gradient_size gives.")
_checks.drawn_from_the_seed(mean_sizes, 64, 10, (5, 6))
print("The same seed gives the same sizes, another seed others.")
print("This check depends on part 1 and score_gradient_size: mean_sizes is held to what they give, not charged again.")
# Only when graded: each average near the grader's own (divided 5 %, undivided 25 %), at unseen widths and seeds;
# and averages over 10 draws that vary from seed to seed as much as such averages do.
### BEGIN HIDDEN TESTS
# The grader's measurement, undivided and divided: the mean size and the spread (standard deviation) of one draw's
# size over 2,000 draws of T = 8 (Q, K and G drawn at once from np.random.default_rng(2017)). Measuring costs a grading
# process 0.4 to 0.8 s of CPU time, so it is written here; tests/assignment/test_assignment_grade_cells.py measures again.
_REFERENCE_SIZES = {16: [(0.043681288750689516, 0.014601124569169503), (0.0854757701861078, 0.01202953476216456)],
                    64: [(0.02301759172405143, 0.012593419648282658), (0.08558505102994315, 0.011744465355179291)],
                    256: [(0.01242789722650965, 0.010007720904759857), (0.08518943082106531, 0.01201881604789655)]}


def _measurements(d_k):
    """The grader's measurement, then, only if needed, the student's own score_gradient_size (checked elsewhere)."""
    yield _REFERENCE_SIZES[d_k], "the grader's measurement"
    yield _checks.own_sizes(score_gradient_size, d_k, 400, 2017 + d_k), "your score_gradient_size over 400 draws"


for _d_k, _seed in ((16, 211), (256, 212)):
    _sizes = _checks.two_sizes(mean_sizes, _d_k, 400, _seed)
    _checks.held_to_one(_measurements(_d_k), lambda want, whose: _checks.sizes_agree(_sizes, want, (0.25, 0.05),
                                                                                     _d_k, whose))
_averages = [_checks.two_sizes(mean_sizes, 64, 10, _seed)[1] for _seed in range(300, 308)]
_checks.held_to_one(_measurements(64), lambda want, whose: _checks.spread_as_draws_do(_averages, want[1][1], 10))
### END HIDDEN TESTS
