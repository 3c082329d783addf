"""``firefight suppress graydawn`` and ``firefight odds graydawn`` on suppression situations, and
bad input: one line, exit 2, no traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from firefight.cli.app import app

EXAMPLES = Path(__file__).parents[3] / "examples" / "graydawn"
ANDRE = str(EXAMPLES / "suppress_andre.toml")


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "250"})
    return result.exit_code, result.stdout, result.stderr


def test_suppress_with_the_printed_dice() -> None:
    code, out, _ = run("suppress", "graydawn", ANDRE, "--dice", "8,9,5,7,5")
    assert code == 0
    out = " ".join(out.split())
    assert "22 vs 15" in out and "20 vs 25" in out
    assert "roll 16 -12 +3 = 7; 2 hit(s)" in out
    assert "roll 25 -15 = 10 vs the opponent's 15; 1 hit(s)" in out


def test_suppress_json() -> None:
    code, out, _ = run("suppress", "graydawn", ANDRE, "--dice", "8,9,5,7,5", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["summary"]["suppression levels"] == 4
    assert data["summary"]["penalty in the open"] == -12
    assert data["summary"]["hits"] == 3
    assert any(e["event"] == "check" for e in data["transcript"])


def test_suppress_seeded_is_repeatable() -> None:
    a = run("suppress", "graydawn", ANDRE, "--seed", "11", "--json")
    b = run("suppress", "graydawn", ANDRE, "--seed", "11", "--json")
    assert a[0] == 0 and a[1] == b[1]


def test_odds_json_for_a_suppression_situation() -> None:
    path = str(EXAMPLES / "suppress_covering.toml")
    code, out, _ = run("odds", "graydawn", path, "--json")
    assert code == 0
    data = json.loads(out)
    assert {"levels", "check", "hits", "p_hit", "p_hit_covering_fire"} <= set(data)
    assert data["levels"][0]["value"] == 8


def test_odds_text_for_a_suppression_situation() -> None:
    code, out, _ = run("odds", "graydawn", str(EXAMPLES / "suppress_lane.toml"))
    assert code == 0 and "check" in out and "levels" in out


def write(tmp_path: Path, text: str) -> str:
    p = tmp_path / "bad.toml"
    p.write_text('kind = "suppression"\n' + text, encoding="utf-8")
    return str(p)


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        (
            '[[shooters]]\nweapon = "sniper rifle"\nrounds = 3\ndistance_m = 100\n',
            "shooters[0].weapon 'sniper rifle'",
        ),
        (
            '[[shooters]]\nweapon = "smg"\nrounds = 40\ndistance_m = 10\n',
            "shooters[0].rounds 40 is more than 'smg''s magazine holds (30)",
        ),
        (
            '[[shooters]]\nweapon = "machine gun"\nfire = "lane"\nlane_width_m = 8\n'
            "distance_m = 50\n",
            "shooters[0].lane_width_m 8 is wider than 'machine gun' allows: 6 m",
        ),
        (
            '[[shooters]]\nweapon = "smg"\nfire = "lane"\nlane_width_m = 1\ndistance_m = 10\n',
            "narrower than 2 m",
        ),
        ('[[shooters]]\nweapon = "smgg"\nrounds = 10\ndistance_m = 10\n', "did you mean"),
        ('[[shooters]]\nweapon = "smg"\nrounds = 10\n', "distance_m is missing"),
        ('[[shooters]]\nweapon = "smg"\nrounds = 10\ndistance_m = 9000\n', "9000 m is beyond"),
        (
            '[[shooters]]\nweapon = "smg"\nfire = "covering"\nrounds = 30\ndistance_m = 200\n',
            "covering fire reaches only to long range",
        ),
        ('[[shooters]]\nweapon = "heavy pistol"\nrounds = 8\ndistance_m = 5\n', "high-capacity"),
        ('[[shooters]]\nweapon = "smg"\nroundz = 10\ndistance_m = 5\n', "roundz"),
        ("[target]\nname = 'x'\n", "nothing fires"),
    ],
)
def test_bad_input_is_one_line_exit_2(tmp_path: Path, text: str, needle: str) -> None:
    code, out, err = run("suppress", "graydawn", write(tmp_path, text))
    assert code == 2, out + err
    assert err.startswith("error:") and needle in err
    assert "Traceback" not in err + out
    assert len(err.strip().splitlines()) == 1
