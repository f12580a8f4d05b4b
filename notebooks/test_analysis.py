"""Tests of analysis.py, run by notebooks_test.go (TestAnalysisHelpers) with Debian's python3:
the sentences say what the data say (ties, empty tables, controls apart, no empty label),
and the figure helpers keep legends off the bars."""
import contextlib
import io
import math
import unittest

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

import analysis  # noqa: E402


def printed(f, *args, **kw):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        f(*args, **kw)
    return out.getvalue()


class Sentences(unittest.TestCase):
    def test_ties_are_said_as_ties(self):
        s = analysis.ranking([("a", 0.0), ("b", 0.0), ("c", 0.5)])
        self.assertIn("lowest: a and b (a tie)", s)
        self.assertIn("highest: c", s)
        s = analysis.ranking([(f"m{i}", 0.0) for i in range(10)])
        self.assertIn("all 10 tie at 0.0%", s)
        self.assertNotIn("lowest", s)

    def test_missing_values_are_not_defined(self):
        self.assertEqual(analysis.pct(float("nan")), "not defined")
        self.assertIn("not defined for any", analysis.ranking([("a", None), ("b", float("nan"))]))

    def test_intervals_follow_their_values(self):
        df = pd.DataFrame({"model": ["a", "b"], "hit_rate": [0.5, 0.25],
                           "hit_rate_ci_low": [0.25, float("nan")], "hit_rate_ci_high": [0.75, float("nan")]})
        s = printed(analysis.compare_models, df, "Rates", "hit_rate")
        self.assertIn("a 50.0% [25.0%–75.0%]", s)
        self.assertIn("b 25.0%,", s.replace("b 25.0%;", "b 25.0%,"))

    def test_a_difference_whose_interval_holds_zero_is_not_distinguishable(self):
        df = pd.DataFrame({"measure": ["divergent", "divergent"], "oracle": ["O2", "O2"], "graph_setting": ["", ""],
                           "profile": ["", ""], "model_a": ["a", "a"], "model_b": ["b", "c"], "n": [20, 20],
                           "difference": [0.05, 0.4], "difference_ci_low": [-0.1, 0.2], "difference_ci_high": [0.2, 0.6],
                           "excludes_zero": [False, True]})
        s = printed(analysis.differences, df).splitlines()
        self.assertIn("a minus b over 20 contract(s): +5.0 pp [-10.0 pp–+20.0 pp]: not distinguishable on this run.", s[0])
        self.assertIn("a is ahead on this run", s[1])

    def test_empty_table_is_said_empty(self):
        s = printed(analysis.compare_models, pd.DataFrame(), "Table V", "functions_equivalent_rate")
        self.assertIn("no rows in this warehouse yet", s)

    def test_label_has_no_empty_part(self):
        row = pd.Series({"oracle": "O2", "graph_setting": "", "profile": ""})
        self.assertEqual(analysis.label(row, ("oracle", "graph_setting", "profile")), "O2")
        row = pd.Series({"oracle": "O3", "graph_setting": "fixed", "profile": "paper"})
        self.assertEqual(analysis.label(row, ("oracle", "graph_setting", "profile")), "O3 (fixed, paper)")

    def test_controls_apart_from_models(self):
        df = pd.DataFrame({
            "model": ["reference", "mutant", "openai:a", "openai:b", "reference", "mutant", "openai:a", "openai:b"],
            "oracle": ["O2"] * 4 + ["O3"] * 4,
            "graph_setting": [""] * 4 + ["fixed"] * 4,
            "rate": [1.0, 0.5, 0.9, 0.8, 1.0, 0.7, 0.6, 0.6],
        })
        s = printed(analysis.compare_models, df, "Fig", "rate", within=("oracle", "graph_setting"))
        lines = s.strip().split("\n")
        self.assertEqual(lines[0], "Fig, O2, per model: openai:a 90.0%, openai:b 80.0%; highest: openai:a, lowest: openai:b.")
        self.assertIn("Fig, O3 (fixed), per model: openai:a 60.0%, openai:b 60.0%: all 2 tie at 60.0%.", lines)
        ref = [line for line in lines if "reference control" in line]
        self.assertEqual(len(ref), 1)
        self.assertIn("O2 100.0%, O3 (fixed) 100.0%", ref[0])
        # a control never enters a model's ranking, and nothing is averaged over controls and models
        for line in lines:
            if "per model" in line:
                self.assertNotIn("reference", line)
                self.assertNotIn("mutant", line)
            self.assertNotIn("mean", line)

    def test_only_controls_says_no_model(self):
        df = pd.DataFrame({"model": ["reference", "mutant"], "rate": [1.0, 0.9]})
        s = printed(analysis.compare_models, df, "Table II", "rate")
        self.assertIn("no model besides the controls", s)
        self.assertIn("the mutant control (known injected faults): 90.0%.", s)


class Figures(unittest.TestCase):
    def test_legend_beside_covers_no_bar(self):
        df = pd.DataFrame({"pairs": [89.0, 100.0], "contracts": [87.5, 100.0]}, index=["mutant", "reference"])
        ax = df.plot.bar(rot=30)
        ax.set_ylim(0, 100)
        analysis.legend_beside(ax)
        fig = ax.figure
        fig.canvas.draw()
        r = fig.canvas.get_renderer()
        legend = ax.get_legend().get_window_extent(r)
        for bar in ax.patches:
            self.assertFalse(legend.overlaps(bar.get_window_extent(r)), "the legend covers a bar")
        plt.close(fig)

    def test_slanted_labels_do_not_run_together(self):
        classes = ["any", "arithmetic", "block_state", "delegatecall", "frozen_ether", "reentrancy"]
        df = pd.DataFrame({"m": [1, 2, 3, 4, 5, 6]}, index=classes)
        ax = df.plot.bar()
        analysis.slanted(ax)
        fig = ax.figure
        fig.canvas.draw()
        # Parallel slanted labels dx apart lie dx*sin(angle) apart across their baselines:
        # they run together when that is less than a line of text.
        labels = ax.get_xticklabels()
        xs = [ax.transData.transform((t.get_position()[0], 0))[0] for t in labels]
        line = labels[0].get_fontsize() * fig.dpi / 72
        for t, a, b in zip(labels, xs, xs[1:]):
            angle = math.radians(t.get_rotation())
            self.assertGreater(angle, 0, "labels not slanted")
            self.assertGreater((b - a) * math.sin(angle), 1.2 * line, "two category labels run together")
        plt.close(fig)


if __name__ == "__main__":
    unittest.main()
