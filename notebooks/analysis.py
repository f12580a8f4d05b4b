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


def interval(lo, hi, fmt=pct):
    """A 95% interval as " [lo–hi]"; "" when the view gives none."""
    return "" if missing(lo) or missing(hi) else f" [{fmt(lo)}–{fmt(hi)}]"


def ranking(items, fmt=pct):
    """Every (name, value) or (name, value, interval text), then where the value is highest
    and lowest; ties are said as ties, and a value missing on every item is said to be not
    defined."""
    items = [tuple(i) + ("",) * (3 - len(i)) for i in items]
    defined = [(n, v) for n, v, _ in items if not missing(v)]
    listing = ", ".join(f"{n} {fmt(v)}{ci}" for n, v, ci in items)
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
    oracle), then each control on its own line, saying what it is. Where the view has the
    measure's 95% bootstrap interval (`<measure>_ci_low`, `_ci_high`), each value carries it."""
    if not has_rows(df):
        print(empty(what))
        return
    lo, hi = measure + "_ci_low", measure + "_ci_high"
    cis = ([interval(r[lo], r[hi], fmt) for _, r in df.iterrows()] if lo in df.columns and hi in df.columns
           else [""] * len(df))
    rows = df.assign(_label=[label(r, within) if within else "" for _, r in df.iterrows()], _ci=cis)
    models = [m for m in rows[model].unique() if m not in CONTROLS]
    groups = list(dict.fromkeys(rows["_label"]))
    for g in groups:
        part = rows[(rows["_label"] == g) & rows[model].isin(models)]
        head = f"{what}, {g}" if g else what
        if len(part):
            print(f"{head}, per model: {ranking([(r[model], r[measure], r['_ci']) for _, r in part.iterrows()], fmt)}.")
    if not models:
        print(f"{what}: this run has no model besides the controls, so no model can be compared.")
    for c, (name, expect) in CONTROLS.items():
        part = rows[rows[model] == c]
        if len(part):
            vals = ", ".join(f"{r['_label']} {fmt(r[measure])}{r['_ci']}".strip() for _, r in part.iterrows())
            print(f"{what}, {name} ({expect}): {vals}.")


def differences(df, what="Model differences"):
    """Print every pair of models on every headline rate (model_differences): the difference
    with its paired 95% bootstrap interval, and "not distinguishable on this run" where the
    interval includes 0."""
    if not has_rows(df):
        print(empty(what))
        return
    for _, r in df.iterrows():
        setting = label(r, ("measure", "oracle", "graph_setting", "profile"))
        d = r["difference"]
        ci = interval(r["difference_ci_low"], r["difference_ci_high"], pp)
        if missing(d):
            verdict = "not defined"
        elif r["excludes_zero"]:
            verdict = f"{r['model_a'] if d > 0 else r['model_b']} is ahead on this run"
        else:
            verdict = "not distinguishable on this run"
        print(f"{what}, {setting}: {who(r['model_a'])} minus {who(r['model_b'])} over {int(r['n'])} contract(s): "
              f"{pp(d)}{ci}: {verdict}.")


def pp(v):
    """A difference of two shares in percentage points."""
    return "not defined" if missing(v) else f"{v * 100:+.1f} pp"


def claims(df, what="Paper claims"):
    """Print every claim of paper_claims: the paper's value beside this run's, with its 95%
    interval and n, or the reason this run cannot compute it."""
    if not has_rows(df):
        print(empty(what))
        return
    for _, r in df.iterrows():
        if missing(r["run_value"]):
            said = f"not computed: {r['reason']}"
        else:
            said = f"this run {num(r['run_value'])}{interval(r['ci_low'], r['ci_high'], num)} (n = {int(r['n'])}, {r['source_view']})"
        print(f"{what}, {r['paper']} {r['section']}, {r['claim']}: the paper {num(r['paper_value'])}; {said}.")


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
