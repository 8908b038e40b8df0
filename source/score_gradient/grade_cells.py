"""The grade cells of score_gradient.ipynb, in notebook order: tools/grade_cells.py copies each into its cell.

A cell starts at a line `# %% <grade_id> (<points> points)` and runs to the next; in the notebook the cells run in
this order in one namespace, so a helper defined by one is there for the next. The imports above the first cell
say where the other names come from there: NumPy, and the student's solution cell (`score_gradient_solution`).
Everything from `### BEGIN HIDDEN TESTS` to `### END HIDDEN TESTS` is stripped from what students receive; this
file itself never leaves source/ (CourseDirectory.ignore in nbgrader_config.py).
"""
import numpy as np

from score_gradient_solution import score_gradient

# %% worked_example_2x2 (1 point)
"""A 2 x 2 case small enough to check by hand."""
A = np.array([[0.5, 0.5], [0.25, 0.75]])
G = np.array([[1.0, 0.0], [0.0, 0.0]])
expected = np.array([[0.25, -0.25], [0.0, 0.0]])
result = score_gradient(A, G)
assert np.allclose(result, expected), f"expected\n{expected}\nbut your function returned\n{result}"
print("The 2 x 2 example is right.")

# %% values_match_reference (3 points)
"""Values match an independent reference for T = 1, 2, 8 and 300, with float64 and float32 inputs."""
score_gradient(np.full((2, 2), 0.5), np.eye(2))
### BEGIN HIDDEN TESTS
def _softmax_rows(E):
    shifted = np.exp(E - np.max(E, axis=1, keepdims=True))
    return shifted / np.sum(shifted, axis=1, keepdims=True)


def _case(T, seed, dtype=np.float64):
    rng = np.random.default_rng(seed)
    A = _softmax_rows(rng.normal(scale=2.0, size=(T, T)))
    return A.astype(dtype), rng.normal(size=(T, T)).astype(dtype)


def _expected(A, G):
    """The reference, in float64 whatever the inputs."""
    A, G = np.asarray(A, dtype=np.float64), np.asarray(G, dtype=np.float64)
    return A * (G - np.einsum("ij,ij->i", A, G)[:, None])


def _through_jacobians(A, G):
    """Row by row through the explicit (T, T) Jacobian of that row: slow, obvious, and independent of the above."""
    out = np.empty_like(A)
    for i in range(A.shape[0]):
        out[i] = (np.diag(A[i]) - np.outer(A[i], A[i])) @ G[i]
    return out


def _as_matrix(out, T):
    got = np.asarray(out)
    assert got.shape == (T, T), (f"for ({T}, {T}) inputs your function returned shape {got.shape}: "
                                 "the result has one entry per score, so it has the shape of A")
    assert got.dtype.kind in "biuf", f"your function returned values of dtype {got.dtype}, not real numbers"
    return got.astype(np.float64)


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
        "the bracket without the factor alpha_ij in front": G - (G * A).sum(axis=1, keepdims=True),
        "minus the right answer": -right,
    }
    for name, candidate in looks_like.items():
        if np.allclose(got, candidate, rtol=1e-6, atol=1e-9):
            return f"it equals {name}"
    return "compare it with the formula on the 2 x 2 example, one cell at a time"


def _right_values(out, A, G, want, rtol=1e-7, atol=1e-12):
    got = _as_matrix(out, A.shape[0])
    if not np.allclose(got, want, rtol=rtol, atol=atol):
        worst = np.max(np.abs(got - want))
        raise AssertionError(f"at T = {A.shape[0]} your values are off by up to {worst:.3g}: "
                             f"{_diagnosis(out, A, G)}")


def _zero_rows_only(got, rows, why):
    """The given rows of the result are zero (else why(how far off they are)), and the other rows are not."""
    off = np.abs(got[rows]).max()
    assert off < 1e-12, why(off)
    others = [i for i in range(got.shape[0]) if i not in rows]
    assert np.abs(got[others]).max() > 1e-6, "your result is zero on ordinary rows too"


for T, seed in ((1, 10), (2, 11), (8, 12), (300, 13)):
    A, G = _case(T, seed)
    want = _expected(A, G)
    if T <= 8:
        assert np.allclose(want, _through_jacobians(A, G)), "the grader's own reference is wrong: tell your teacher"
    _right_values(score_gradient(A, G), A, G, want)
A, G = _case(8, 14, np.float32)
want = _expected(A, G)
_right_values(score_gradient(A, G), A, G, want, rtol=1e-4, atol=1e-6)
### END HIDDEN TESTS

# %% agrees_with_finite_differences (2 points)
"""Agrees with central finite differences of the loss l(E) = sum(G * softmax(E))."""
score_gradient(np.full((2, 2), 0.5), np.eye(2))
### BEGIN HIDDEN TESTS
rng = np.random.default_rng(20)
T, h = 5, 1e-6
E, G = rng.normal(size=(T, T)), rng.normal(size=(T, T))
numeric = np.empty((T, T))
for i in range(T):
    for j in range(T):
        up, down = E.copy(), E.copy()
        up[i, j] += h
        down[i, j] -= h
        numeric[i, j] = (np.sum(G * _softmax_rows(up)) - np.sum(G * _softmax_rows(down))) / (2 * h)
A = _softmax_rows(E)
got = _as_matrix(score_gradient(A, G), T)
gap = np.max(np.abs(got - numeric))
assert gap < 1e-6, (f"nudging each score by {h:g} and watching the loss gives a gradient up to {gap:.3g} away from "
                    f"yours: {_diagnosis(got, A, G)}")
### END HIDDEN TESTS

# %% rows_sum_to_zero (1 point)
"""Every row of the result sums to zero (adding a constant to a row of scores leaves the softmax unchanged)."""
score_gradient(np.full((2, 2), 0.5), np.eye(2))
### BEGIN HIDDEN TESTS
A, G = _case(8, 30)
got = _as_matrix(score_gradient(A, G), 8)
sums = got.sum(axis=1)
assert np.allclose(sums, 0.0, atol=1e-10), (f"each row of your result should sum to 0 but the sums reach "
                                            f"{np.max(np.abs(sums)):.3g}: is the weighted row sum missing, or taken "
                                            "over the wrong axis?")
assert np.abs(got).max() > 1e-6, "your result is zero everywhere, which only happens for special inputs"
### END HIDDEN TESTS

# %% one_hot_rows_give_zero (1 point)
"""A row of A that has closed on one position passes no gradient back to its scores."""
score_gradient(np.full((2, 2), 0.5), np.eye(2))
### BEGIN HIDDEN TESTS
A, G = _case(6, 40)
A[[1, 4]] = 0.0
A[1, 2] = A[4, 0] = 1.0
_zero_rows_only(_as_matrix(score_gradient(A, G), 6), [1, 4], lambda off: (
    f"rows 1 and 4 of A are one-hot, so their rows of the result should be 0, yet they reach {off:.3g}: check that "
    "the weighted row sum uses the weights of the same row"))
### END HIDDEN TESTS

# %% constant_rows_of_G_give_zero (1 point)
"""A row of G with the same value everywhere gives a zero row: the softmax ignores a shift of its row."""
score_gradient(np.full((2, 2), 0.5), np.eye(2))
### BEGIN HIDDEN TESTS
A, G = _case(6, 50)
G[0] = 3.0
G[3] = -1.5
_zero_rows_only(_as_matrix(score_gradient(A, G), 6), [0, 3], lambda off: (
    f"rows 0 and 3 of G are constant, so those rows of the result should be 0, yet they reach {off:.3g}: the "
    "bracket should subtract the row's weighted average of G"))
### END HIDDEN TESTS

# %% inputs_left_untouched (2 points)
"""A and G are the same after the call, and read-only inputs are accepted; the values must be right too."""
score_gradient(np.full((2, 2), 0.5), np.eye(2))
### BEGIN HIDDEN TESTS
A, G = _case(8, 60)
A_before, G_before, want = A.copy(), G.copy(), _expected(A, G)
out = score_gradient(A, G)
assert np.array_equal(A, A_before) and np.array_equal(G, G_before), (
    "your function changed A or G: build the result in a new array (A * (...) makes one) instead of writing "
    "into them with A *= ..., G -= ... or out=A")
_right_values(out, A, G, want)
A.setflags(write=False)
G.setflags(write=False)
try:
    out = score_gradient(A, G)
except ValueError as exc:
    raise AssertionError(f"with read-only inputs your function failed ({exc}): it writes into A or G") from None
_right_values(out, A, G, want)
### END HIDDEN TESTS

# %% returns_float_array_T_by_T (1 point)
"""The result is a NumPy array of floats with shape (T, T), and its values are right."""
score_gradient(np.full((2, 2), 0.5), np.eye(2))
### BEGIN HIDDEN TESTS
A, G = _case(7, 70)
want = _expected(A, G)
out = score_gradient(A, G)
assert isinstance(out, np.ndarray), f"return a NumPy array, not a {type(out).__name__}"
assert out.shape == (7, 7), f"for (7, 7) inputs the result should have shape (7, 7), not {out.shape}"
assert np.issubdtype(out.dtype, np.floating), f"return floats, not {out.dtype}"
_right_values(out, A, G, want)
### END HIDDEN TESTS

# %% no_python_loop (2 points)
"""Works with whole-array operations: no Python loop or comprehension, over cells or rows."""
score_gradient(np.full((2, 2), 0.5), np.eye(2))
### BEGIN HIDDEN TESTS
from classroom import measures

A, G = _case(40, 80)
want = _expected(A, G)
_right_values(score_gradient(A, G), A, G, want)
reasons = measures.python_loops(score_gradient)
assert not reasons, "a Python loop does the work that broadcasting should do: " + "; ".join(reasons)
### END HIDDEN TESTS

# %% no_jacobian_memory (2 points)
"""Peak memory stays a few (T, T) arrays at T = 400: no (T, T, T) Jacobian is built."""
score_gradient(np.full((2, 2), 0.5), np.eye(2))
### BEGIN HIDDEN TESTS
from classroom import measures

T = 400
A, G = _case(T, 90)
want = _expected(A, G)
_right_values(score_gradient(A, G), A, G, want)
extra = measures.peak_extra_bytes(score_gradient, A, G)
limit = 64 * 2 ** 20
assert extra < limit, (f"at T = {T} one call took {extra / 2 ** 20:.0f} MiB beyond its inputs (a (T, T, T) array "
                       f"of floats is {T ** 3 * 8 / 2 ** 20:.0f} MiB; a (T, T) one is {T * T * 8 / 2 ** 20:.1f} MiB): "
                       "avoid building the Jacobian")
### END HIDDEN TESTS
