"""Unit tests of the helper package's plumbing: argument validation, the softmax, text tables."""
import math

import numpy as np
import pytest

from attention_lesson import as_curve, as_rows, as_width, as_widths, format_table, softmax_rows
from attention_lesson.arguments import as_by_divisor


class TestSoftmaxRows:
    def test_matches_the_definition_on_a_small_row(self):
        e = np.array([0.0, math.log(2.0), math.log(5.0)])  # exp gives 1, 2, 5
        np.testing.assert_allclose(softmax_rows(e), [1 / 8, 2 / 8, 5 / 8])

    def test_each_row_of_a_matrix_is_shared_out_on_its_own(self):
        E = np.array([[0.0, 0.0], [0.0, math.log(3.0)]])
        np.testing.assert_allclose(softmax_rows(E), [[0.5, 0.5], [0.25, 0.75]])

    def test_large_scores_do_not_overflow(self):
        w = softmax_rows([1000.0, 999.0])
        assert np.all(np.isfinite(w))
        np.testing.assert_allclose(w, [1 / (1 + math.exp(-1)), math.exp(-1) / (1 + math.exp(-1))])

    def test_a_common_shift_changes_nothing(self):
        e = np.array([0.3, -1.2, 2.0])
        np.testing.assert_allclose(softmax_rows(e + 7.5), softmax_rows(e))

    def test_input_is_not_written_into(self):
        e = np.array([[1.0, 2.0, 3.0]])
        before = e.copy()
        softmax_rows(e)
        np.testing.assert_array_equal(e, before)


class TestChecks:
    @pytest.mark.parametrize("bad, message", [
        ([[[1.0]]], "scores must be a 1-D or 2-D array"),
        ([], "at least one value"),
        ([1.0, float("nan")], "must be finite"),
        ([1.0, float("inf")], "must be finite"),
        ("abc", "must be numbers"),
        ([[1.0, 2.0], [3.0]], "must be numbers"),
    ])
    def test_bad_scores_name_the_argument_and_the_fault(self, bad, message):
        with pytest.raises((ValueError, TypeError), match=message):
            as_rows(bad)

    def test_the_argument_name_appears_in_the_error(self):
        with pytest.raises(ValueError, match="^weights must be finite"):
            as_rows([np.nan], "weights")

    def test_softmax_rejects_bad_input_clearly(self):
        with pytest.raises(ValueError, match="logits must be finite"):
            softmax_rows([0.0, np.nan])

    @pytest.mark.parametrize("bad", [0, -4, 2.5, float("nan"), True, "64", None])
    def test_bad_widths(self, bad):
        with pytest.raises((ValueError, TypeError), match="d_k must be"):
            as_width(bad)

    @pytest.mark.parametrize("good", [1, 64, 64.0, np.int64(1024)])
    def test_good_widths(self, good):
        assert as_width(good) == int(good) and isinstance(as_width(good), int)


class TestCurves:
    def test_a_good_curve_comes_back_as_floats(self):
        curve = as_curve([1, 2, 3], "typical", 3, per="width", positive=True)
        assert curve.dtype == float and curve.tolist() == [1.0, 2.0, 3.0]

    @pytest.mark.parametrize("values, kwargs, message", [
        ([[1.0, 2.0]], {}, r"^y must be a 1-D list of numbers, one per point; got shape \(1, 2\)"),
        ([], {}, "^y must hold at least one value"),
        ([1.0, float("nan")], {}, "^y must be finite"),
        ("abc", {}, "^y must be numbers"),
        ([1.0, 2.0], {"length": 3, "per": "width"}, r"^y must hold one value per width \(3\); got 2"),
        ([1.0, 0.0], {"positive": True}, "^y must be positive"),
        ([0.5, 1.5], {"low": 0.0, "high": 1.0}, "^y must lie between 0.0 and 1.0; got values from 0.5 to 1.5"),
        ([-0.5, 0.5], {"low": 0.0}, "^y must lie between 0.0 and None"),
    ])
    def test_a_bad_curve_is_refused_by_name(self, values, kwargs, message):
        with pytest.raises((ValueError, TypeError), match=message):
            as_curve(values, "y", **kwargs)

    def test_widths_come_back_as_whole_numbers(self):
        widths = as_widths([4, 16.0, np.int64(64)])
        assert widths.tolist() == [4, 16, 64] and widths.dtype.kind == "i"

    @pytest.mark.parametrize("bad, message", [
        ([4, 0], r"widths\[1\] must be at least 1"),
        ([4, 2.5], r"widths\[1\] must be a positive whole number"),
        ("64", "widths must be numbers"),
        ([[4, 16]], "widths must be a 1-D list"),
    ])
    def test_bad_widths_are_refused_by_name(self, bad, message):
        with pytest.raises((ValueError, TypeError), match=message):
            as_widths(bad)

    def test_data_per_divisor_is_checked_entry_by_entry(self):
        checked = as_by_divisor({"1": [1, 2], "d_k": [3, 4]}, "sizes", lambda v, label: as_curve(v, label, 2))
        assert {key: value.tolist() for key, value in checked.items()} == {"1": [1.0, 2.0], "d_k": [3.0, 4.0]}
        with pytest.raises(ValueError, match=r"^sizes\['d_k'\] must hold one value per point \(2\)"):
            as_by_divisor({"d_k": [1]}, "sizes", lambda v, label: as_curve(v, label, 2))

    @pytest.mark.parametrize("bad, message", [
        ({"none": [1]}, r"sizes has unknown divisor\(s\) \['none'\]"),
        ({}, "sizes must be a dict from divisor"),
        ([1, 2], "sizes must be a dict from divisor"),
    ])
    def test_data_per_divisor_must_be_keyed_by_the_vocabulary(self, bad, message):
        with pytest.raises((ValueError, TypeError), match=message):
            as_by_divisor(bad, "sizes", lambda v, label: v)


class TestFormatTable:
    def test_columns_line_up_under_their_headers(self):
        text = format_table([("d_k", "5d"), ("mean", "7.3f")], [(4, -0.0123), (1024, 0.2361)])
        assert text.splitlines() == ["  d_k    mean", "    4  -0.012", " 1024   0.236"]

    def test_a_long_header_widens_its_column(self):
        text = format_table([("typical size", "5.2f")], [(2.0,)])
        assert text.splitlines() == ["typical size", "        2.00"]

    def test_a_row_of_the_wrong_length_is_refused(self):
        with pytest.raises(ValueError, match="row 1 has 1 values for 2 columns"):
            format_table([("a", "3d"), ("b", "3d")], [(1, 2), (3,)])

    def test_a_value_that_does_not_fit_its_format_is_refused(self):
        with pytest.raises(ValueError, match="row 0, column 'a': cannot format 'x'"):
            format_table([("a", "3d")], [("x",)])

    def test_columns_must_be_pairs(self):
        with pytest.raises(TypeError, match=r"columns\[0\] must be a \(header, format spec\) pair"):
            format_table(["d_k"], [])


class TestHouseStyle:
    def test_a_figure_in_house_style_keeps_the_interactive_mode_the_backend_set(self, monkeypatch):
        import matplotlib
        import matplotlib.pyplot as plt

        from attention_lesson import style

        real_subplots = plt.subplots

        def subplots_that_turn_interactive_on(*args, **kwargs):  # what the inline backend does on first use
            matplotlib.interactive(True)
            return real_subplots(*args, **kwargs)

        was = matplotlib.is_interactive()
        monkeypatch.setattr(plt, "subplots", subplots_that_turn_interactive_on)
        try:
            matplotlib.interactive(False)
            fig, _ = style.figure()
            assert matplotlib.is_interactive(), "later figures would silently stop showing in a notebook"
            plt.close(fig)
        finally:
            matplotlib.interactive(was)

    def test_the_house_style_is_applied_to_the_figure(self):
        import matplotlib.pyplot as plt

        from attention_lesson import style

        fig, ax = style.figure()
        assert not ax.spines["top"].get_visible() and not ax.spines["right"].get_visible()
        plt.close(fig)
