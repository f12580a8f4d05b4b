"""What the notebooks share besides reading the views: sentences that say what a table
shows (per model, the control generators apart, ties and empty tables said as such) and
figure layout (legends beside the plot, readable category labels).

The control generators are not models: `reference` regenerates each contract from its own
bodies, so it must agree everywhere (any divergence is an oracle's false alarm); `mutant`
injects known faults, which the oracles should expose. Averaging them with the models would
describe neither.
"""
import math

import pandas as pd

CONTROLS = {
    "reference": ("the reference control", "the original's own bodies"),
    "mutant": ("the mutant control", "known injected faults"),
}


def has_rows(df):
    return df is not None and len(df) > 0


def pct(v):
    """A 0-1 share as a percentage; a missing value (NULL, NaN) as not defined."""
    return "not defined" if missing(v) else f"{v:.1%}"


def num(v):
    return "not defined" if missing(v) else f"{v:,.4g}"


def missing(v):
    return v is None or (isinstance(v, float) and math.isnan(v)) or v is pd.NA


def label(row, cols):
    """A row's name from its key columns: the first, then the non-empty others in
    parentheses ("O3 (fixed, paper)", "O2"); never an empty label."""
    vals = [str(row[c]) for c in cols if c in row and not missing(row[c]) and str(row[c]) != ""]
    if not vals:
        return "(none)"
    return vals[0] + (f" ({', '.join(vals[1:])})" if len(vals) > 1 else "")


def names(xs):
    xs = list(xs)
    return xs[0] if len(xs) == 1 else ", ".join(xs[:-1]) + " and " + xs[-1]


def ranking(items, fmt=pct):
    """Every (name, value), then where the value is highest and lowest; ties are said as
    ties, and a value missing on every item is said to be not defined."""
    defined = [(n, v) for n, v in items if not missing(v)]
    listing = ", ".join(f"{n} {fmt(v)}" for n, v in items)
    if not defined:
        return f"{listing}: not defined for any"
    if len(items) == 1:
        return listing
    vals = [v for _, v in defined]
    hi, lo = max(vals), min(vals)
    if hi == lo:
        return f"{listing}: all {len(defined)} tie at {fmt(hi)}"
    top = [n for n, v in defined if v == hi]
    bottom = [n for n, v in defined if v == lo]
    return (f"{listing}; highest: {names(top)}{' (a tie)' if len(top) > 1 else ''}, "
            f"lowest: {names(bottom)}{' (a tie)' if len(bottom) > 1 else ''}")


def empty(what):
    return (f"{what}: no rows in this warehouse yet (the stage that fills it has not run, or found nothing to count), "
            "so there is nothing to conclude.")


def compare_models(df, what, measure, within=(), fmt=pct, model="model"):
    """Print what `measure` says per model: the models ranked (per `within` label, e.g. the
    oracle), then each control on its own line, saying what it is."""
    if not has_rows(df):
        print(empty(what))
        return
    rows = df.assign(_label=[label(r, within) if within else "" for _, r in df.iterrows()])
    models = [m for m in rows[model].unique() if m not in CONTROLS]
    groups = list(dict.fromkeys(rows["_label"]))
    for g in groups:
        part = rows[(rows["_label"] == g) & rows[model].isin(models)]
        head = f"{what}, {g}" if g else what
        if len(part):
            print(f"{head}, per model: {ranking([(r[model], r[measure]) for _, r in part.iterrows()], fmt)}.")
    if not models:
        print(f"{what}: this run has no model besides the controls, so no model can be compared.")
    for c, (name, expect) in CONTROLS.items():
        part = rows[rows[model] == c]
        if len(part):
            vals = ", ".join(f"{r['_label']} {fmt(r[measure])}".strip() for _, r in part.iterrows())
            print(f"{what}, {name} ({expect}): {vals}.")


def legend_beside(ax, **kw):
    """The legend right of the plot, where it covers no bar."""
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0, **kw)


def slanted(ax):
    """Category labels slanted and right-aligned under their bar, so long ones do not run together."""
    for t in ax.get_xticklabels():
        t.set_rotation(30)
        t.set_horizontalalignment("right")


def who(model):
    """A generator's name in a sentence: the controls named as such."""
    return CONTROLS[model][0] if model in CONTROLS else model
