"""Validated loading at the edge: files, overrides, models, house rules, catalogs."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import BaseModel, ConfigDict

from firefight.core.catalog import load_catalog, lookup
from firefight.core.house import HouseRules, house_events, load_house
from firefight.core.loading import apply_overrides, load_model, parse_override, read_toml, validate
from firefight.errors import InputError, UnknownNameError


class Shooter(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    mettle: int


class Situation(BaseModel):
    model_config = ConfigDict(extra="forbid")
    attacker: Shooter
    aim: str = "none"


def test_read_toml_reports_missing_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        read_toml(tmp_path / "nope.toml")


def test_read_toml_reports_malformed_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[attacker\nmettle = 3\n")
    with pytest.raises(InputError, match=r"bad\.toml: malformed TOML.*line 1"):
        read_toml(bad)


def test_validate_names_the_missing_field() -> None:
    with pytest.raises(InputError) as err:
        validate(Situation, {"attacker": {"name": "Ann"}}, "fight.toml")
    line = err.value.one_line()
    assert "fight.toml: field attacker.mettle" in line
    assert "add attacker.mettle" in line
    assert "\n" not in line


def test_validate_names_a_misspelt_field() -> None:
    with pytest.raises(InputError, match=r"field attacker\.metle"):
        validate(Situation, {"attacker": {"name": "A", "mettle": 3, "metle": 4}}, "f.toml")


def test_overrides_set_nested_values_and_parse_toml_literals() -> None:
    data = {"attacker": {"name": "Ann", "mettle": 12}}
    out = apply_overrides(data, ["attacker.mettle=14", "aim=scope", "extra.flag=true"])
    assert out["attacker"]["mettle"] == 14
    assert out["aim"] == "scope"
    assert out["extra"] == {"flag": True}
    assert data["attacker"]["mettle"] == 12, "the loaded data is not changed in place"


@pytest.mark.parametrize("text", ["mettle", "=3", "a..b=1"])
def test_bad_overrides_are_one_line(text: str) -> None:
    with pytest.raises(InputError, match=r"--set|empty part"):
        parse_override(text)


def test_override_into_a_scalar_is_refused() -> None:
    with pytest.raises(InputError, match="not a table"):
        apply_overrides({"aim": "scope"}, ["aim.kind=x"])


def test_load_model_reads_overrides_and_validates(tmp_path: Path) -> None:
    f = tmp_path / "s.toml"
    f.write_text('[attacker]\nname = "Ann"\nmettle = 12\n')
    sit = load_model(Situation, f, ["attacker.mettle=15"])
    assert sit.attacker.mettle == 15


class Numbers(HouseRules):
    base_delta_t: int = 10
    endurance_share: float = 0.25


def test_house_rules_default_to_the_text_and_report_changes(tmp_path: Path) -> None:
    assert load_house(Numbers, None) == Numbers()
    assert house_events(Numbers()) == []
    f = tmp_path / "house.toml"
    f.write_text("base_delta_t = 12\n")
    rules = load_house(Numbers, f)
    events = house_events(rules)
    assert [(e.key, e.value, e.default) for e in events] == [("base_delta_t", 12, 10)]
    assert "the text says 10" in events[0].text()


def test_unknown_house_rule_is_refused(tmp_path: Path) -> None:
    f = tmp_path / "house.toml"
    f.write_text("base_delta = 12\n")
    with pytest.raises(InputError, match=r"house rules.*base_delta"):
        load_house(Numbers, f)


def test_catalog_lookup_suggests_close_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pkg = tmp_path / "fakecat"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "catalog.toml").write_text('[weapons.AK-47]\ndamage = "3d12"\n')
    extra = tmp_path / "mine.toml"
    extra.write_text('[weapons.Musket]\ndamage = "2d10"\n')
    monkeypatch.syspath_prepend(str(tmp_path))
    catalog = load_catalog("fakecat", ["mine.toml"], relative_to=tmp_path)
    assert lookup(catalog, "weapons", "ak-47")["damage"] == "3d12"
    assert lookup(catalog, "weapons", "Musket")["name"] == "Musket"
    with pytest.raises(UnknownNameError, match="did you mean 'AK-47'"):
        lookup(catalog, "weapons", "AK-74")


class Outer(HouseRules):
    base_delta_t: int = 10
    inner: Numbers = Numbers()


def test_house_events_list_a_nested_table_field_by_field() -> None:
    rules = Outer(inner=Numbers(endurance_share=0.5))
    events = house_events(rules)
    assert [(e.key, e.value, e.default) for e in events] == [("inner.endurance_share", 0.5, 0.25)]
