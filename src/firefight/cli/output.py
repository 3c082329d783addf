"""Writing results: JSON to stdout, and files written whole or not at all."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from firefight.core.files import write_atomically
from firefight.errors import InputError

__all__ = ["plot_bars", "print_json", "write_atomically"]


def print_json(data: Any) -> None:
    print(json.dumps(data, indent=2))


def plot_bars(path: str | Path, series: dict[str, list[tuple[int, float]]], title: str) -> Path:
    """A bar chart per named distribution, saved as PNG (matplotlib imported only here)."""
    if not str(path).lower().endswith(".png"):
        raise InputError(f"--plot {path}: plots are written as PNG", tip="name the file *.png")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    names = [n for n, pts in series.items() if pts]
    fig, axes = plt.subplots(len(names) or 1, 1, figsize=(8, 2.8 * max(1, len(names))))
    axes_list = list(axes) if len(names) > 1 else [axes]
    for ax, name in zip(axes_list, names, strict=False):
        pts = series[name]
        ax.bar([v for v, _ in pts], [p * 100 for _, p in pts], color="#4a78b5")
        ax.set_title(name)
        ax.set_ylabel("%")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    fig.suptitle(title)
    fig.tight_layout()

    def save(tmp: Path) -> None:
        fig.savefig(tmp, format="png")

    try:
        return write_atomically(path, save)
    finally:
        plt.close(fig)
