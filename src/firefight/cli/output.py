"""Writing results: JSON to stdout, and files written whole or not at all."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from firefight.errors import InputError


def print_json(data: Any) -> None:
    print(json.dumps(data, indent=2))


def write_atomically(path: str | Path, write: Callable[[Path], None]) -> Path:
    """Write via a temporary file in the same folder, then rename: an existing file is never
    left half-written, even if writing fails."""
    import tempfile

    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise InputError(f"{target}: folder {folder} does not exist", tip="create it first")
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=target.suffix, dir=folder)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        write(tmp)
        tmp.replace(target)
    except OSError as err:
        raise InputError(f"{target}: cannot write ({err.strerror})") from None
    finally:
        if tmp.exists():
            tmp.unlink()
    return target


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
