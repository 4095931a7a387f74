#!/usr/bin/python3
"""Renders the benchmark's charts: every charts/*.json a scenario saved (see
chart() in bench/lib.php) becomes a PNG of the same name.

    /usr/bin/python3 bench/charts.py IN_DIR OUT_DIR  (Debian's python3-matplotlib)

"bars": one horizontal bar per implementation (the first is this extension,
drawn in a colour of its own). "grouped": one group per x category (e.g. K
processes), one bar per series; null values are left out.
"""
import json
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

OURS, PEERS = "#c0392b", "#7f8c8d"
SERIES = ["#c0392b", "#2980b9", "#27ae60", "#8e44ad", "#f39c12", "#7f8c8d"]


def bars(chart, ax):
    labels = list(chart["bars"].keys())[::-1]
    values = [chart["bars"][label] for label in labels]
    colours = [PEERS] * (len(labels) - 1) + [OURS]
    ax.barh(range(len(labels)), values, color=colours)
    ax.set_yticks(range(len(labels)), [wrap(label) for label in labels], fontsize=8)
    for y, v in enumerate(values):
        ax.text(v, y, f" {v:,.1f}", va="center", fontsize=8)
    ax.set_xlabel(chart["unit"])
    ax.set_xlim(0, max(values) * 1.2)


def grouped(chart, ax):
    xs, series = chart["x"], chart["series"]
    width = 0.8 / max(1, len(series))
    for i, (name, values) in enumerate(series.items()):
        points = [(x + i * width, v) for x, v in enumerate(values) if v is not None]
        if points:
            ax.bar([p[0] for p in points], [p[1] for p in points], width, label=name, color=SERIES[i % len(SERIES)])
    ax.set_xticks([x + width * (len(series) - 1) / 2 for x in range(len(xs))], xs)
    ax.set_ylabel(chart["unit"])
    if chart.get("log"):
        ax.set_yscale("log")
    ax.legend(fontsize=8)


def wrap(text, width=48):
    words, lines, line = text.split(), [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return "\n".join(lines + [line])


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    src, out = Path(sys.argv[1]), Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    for path in sorted(src.glob("*.json")):
        chart = json.loads(path.read_text())
        fig, ax = plt.subplots(figsize=(9, 4.5 if chart["kind"] == "bars" else 4))
        {"bars": bars, "grouped": grouped}[chart["kind"]](chart, ax)
        ax.set_title(chart["title"], fontsize=10)
        ax.grid(axis="x" if chart["kind"] == "bars" else "y", alpha=0.3)
        fig.tight_layout()
        fig.savefig(out / f"{path.stem}.png", dpi=110)
        plt.close(fig)
        print(f"bench/charts.py: {out / (path.stem + '.png')}", file=sys.stderr)


if __name__ == "__main__":
    main()
