"""Text from the user's files (ids, names, labels, titles, sides) prints as written everywhere
the CLI prints: never read as rich markup (``[bold]``, ``[/]``) or as an emoji code
(``:smile:``, or ``:Runner:`` between an action id's separators), in transcripts, tables,
titles and narration, whether the line goes through rich or through the plain printing that
stands in for it off a terminal. Flags print as "yes"/"no"."""

from __future__ import annotations

from contextlib import nullcontext
from pathlib import Path
from unittest import mock

import pytest
from typer.testing import CliRunner

from firefight.cli import commands, output
from firefight.core.transcript import HouseRule, StateChange

ROOT = Path(__file__).resolve().parents[2]
KID = "[bold]Kid[/] :smile:"
SCENARIO = f'''ruleset = "graydawn"
title = "[bold]Alley[/] :smile:"
max_rounds = 2

[[sides]]
name = "[dim]law[/dim]"

[[sides]]
name = ":Runner: crew"

[[combatants]]
name = "Runner"
side = "[dim]law[/dim]"
stats = {{ REF = 6, CL = 6, MA = 6, BODY = 6 }}
skills = {{ handgun = 3 }}
weapon = "heavy pistol"
uses_luck = false

[[combatants]]
name = "{KID}"
side = ":Runner: crew"
stats = {{ REF = 6, CL = 6, MA = 6, BODY = 6 }}
skills = {{ handgun = 3 }}
weapon = "heavy pistol"
uses_luck = false

[battlefield]
range = 12
'''
#: What rich would have made of the text above, had it read it.
EMOJI = ("\N{SMILING FACE WITH OPEN MOUTH AND SMILING EYES}", "\N{RUNNER}")


def run(argv: list[str], rich_only: bool) -> str:
    """The command's stdout; ``rich_only``: every line through rich (as on a terminal)."""
    patch = mock.patch.object(output, "_plain_width", lambda: None)
    with patch if rich_only else nullcontext():
        res = CliRunner().invoke(commands.app, argv)
    assert res.exit_code == 0, (argv, res.stdout, res.stderr, res.exception)
    text = res.stdout
    assert not any(e in text for e in EMOJI), text
    return " ".join(text.split())  # tables wrap cells: compare the words


@pytest.mark.parametrize("rich_only", [False, True], ids=["plain", "rich"])
def test_names_ids_and_titles_print_as_written(tmp_path: Path, rich_only: bool) -> None:
    scenario = tmp_path / "names.toml"
    scenario.write_text(SCENARIO, encoding="utf-8")
    save = str(tmp_path / "enc.json")
    club = str(ROOT / "examples" / "graydawn" / "melee_club.toml")
    named = ["--set", "attacker.name=Runner", "--set", f'target.name="{KID}"']
    out = run(["attack", "graydawn", club, "--seed", "1", *named], rich_only)
    assert f"BTM ({KID}; G01/G24)" in out and f"{KID}: stunned no -> yes (G18)" in out
    out = run(["odds", "graydawn", club, *named], rich_only)
    assert f"graydawn: Runner (club, melee) vs {KID}" in out
    out = run(["fight", str(scenario), "--seed", "3"], rich_only)
    assert out.startswith("[bold]Alley[/] :smile: (graydawn, seed 3)")
    kid_id = KID.replace(" ", "_")  # an action id is one word
    assert f"Runner fires a single shot at {KID} (fire:{kid_id}:single)" in out
    run(["encounter", "start", str(scenario), "--save", save, "--seed", "1", "--force"], rich_only)
    out = run(["encounter", "actions", save], rich_only)
    assert "fire:Runner:single" in out and f"round 1: {KID} acts" in out
    out = run(["encounter", "act", save, "fire:Runner:single", "--seed", "2"], rich_only)
    assert out.startswith(f"{KID} fires a single shot at Runner range 12 m")
    out = run(["encounter", "show", save], rich_only)
    assert out.startswith("[bold]Alley[/] :smile: (graydawn, 1 step)")
    assert "[dim]law[/dim]" in out and ":Runner: crew" in out
    out = run(["simulate", str(scenario), "-n", "20", "--seed", "1"], rich_only)
    assert "won by [dim]law[/dim]" in out and "won by :Runner: crew" in out
    sweep = ["sweep", str(scenario), "--vary", "combatants.Runner.skills.handgun=2..3"]
    out = run([*sweep, "-n", "20", "--seed", "1", "--no-cluster"], rich_only)
    assert out.startswith("[bold]Alley[/] :smile:")
    assert "[dim]law[/dim]" in out and ":Runner: crew" in out  # headers over two lines


def test_flags_in_transcripts_read_yes_or_no() -> None:
    line = StateChange("Kid", "stunned", False, True, "G18").text()
    assert line == "Kid: stunned no -> yes (G18)"
    line = HouseRule("initiative_each_round", True, False).text()
    assert line == "house rule: initiative_each_round = yes (the text says no)"


def test_no_command_reads_markup() -> None:
    """Every rich console the CLI makes is :func:`.output.plain_console` (or stands in for it):
    no ``Console(`` of its own anywhere under ``cli/``."""
    for path in (ROOT / "src" / "firefight" / "cli").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        if path.name != "output.py":
            assert "Console(" not in text.replace("TextConsole(", ""), path.name
            assert "markup=" not in text.replace("rich_markup_mode=", ""), path.name
