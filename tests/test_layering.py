"""The layers of the code are import-linter's contracts in
pyproject.toml: the engine, the online logs and the tiles import nothing of Django; the ledger
imports no pages; clubsite <- scoring <- meetings <- tournaments, one way, so that no model
module imports an app built on it, even inside a function; apps meet through each other's
public modules; no circles between the modules of a package. `make lint` and CI run
`lint-imports`; so does this test, so that `make test` catches a broken layer too."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"

# The contracts the layering rests on: dropping one is a change of architecture, made here too.
CONTRACTS = {
    "pure-python",
    "engine-innermost",
    "pure-layers",
    "scoring-wings",
    "ledger-no-pages",
    "ledger-facade",
    "apps",
    "scoring-own",
    "meetings-own",
    "tournaments-own",
    "clubsite-own",
    "no-cycles",
}


def test_the_layers_are_declared_as_contracts():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    declared = {contract["id"] for contract in config["tool"]["importlinter"]["contracts"]}
    assert not CONTRACTS - declared


def test_the_contracts_make_no_exceptions():
    # An exception is a layer broken on purpose: fix the import instead.
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    excepted = {
        contract["id"]: contract["ignore_imports"]
        for contract in config["tool"]["importlinter"]["contracts"]
        if contract.get("ignore_imports")
    }
    assert not excepted


def test_the_imports_keep_every_contract():
    # No cache: the graph is built in well under a second, and nothing is left in the tree.
    result = subprocess.run(
        [LINT_IMPORTS, "--no-cache", "--no-logo"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def _wings_contract(config: dict) -> dict:
    return next(
        c for c in config["tool"]["importlinter"]["contracts"] if c["id"] == "scoring-wings"
    )


def _lint_wings_with(layers: list[str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """lint-imports on a copy of the configuration whose wings contract has ``layers``."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    lines = "\n".join(f'    "{layer}",' for layer in layers)
    start = text.index('id = "scoring-wings"')
    begin = text.index("layers = [", start)
    end = text.index("]", begin)
    copy = tmp_path / "importlinter.toml"
    copy.write_text(text[:begin] + f"layers = [\n{lines}\n" + text[end:], encoding="utf-8")
    assert _wings_contract(tomllib.loads(copy.read_text(encoding="utf-8")))["layers"] == layers
    return subprocess.run(
        [
            LINT_IMPORTS,
            "--no-cache",
            "--no-logo",
            "--config",
            str(copy),
            "--contract",
            "scoring-wings",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_wings_contract_covers_every_package_of_scoring():
    # A new package of scoring takes its place among the wings; the modules Django expects at
    # the top (models, admin, urls, checks, apps) and the migrations stay outside them.
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    named = {
        module.strip() for layer in _wings_contract(config)["layers"] for module in layer.split("|")
    }
    packages = {
        f"scoring.{path.parent.name}"
        for path in (ROOT / "scoring").glob("*/__init__.py")
        if path.parent.name != "migrations"
    }
    assert packages == named


def test_the_wings_contract_breaks_when_two_wings_are_swapped(tmp_path):
    # The table's input reads the rulebook's labels: with the rulebook put above it, the
    # contract must fail and name that import.
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    layers = list(_wings_contract(config)["layers"])
    entry_line = next(i for i, layer in enumerate(layers) if "scoring.entry" in layer)
    rulebook_line = next(i for i, layer in enumerate(layers) if "scoring.rulebook" in layer)
    swapped = list(layers)
    swapped[entry_line] = layers[entry_line].replace("scoring.entry", "scoring.rulebook")
    swapped[rulebook_line] = layers[rulebook_line].replace("scoring.rulebook", "scoring.entry")
    assert swapped != layers
    result = _lint_wings_with(swapped, tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "BROKEN" in result.stdout
    assert "scoring.entry" in result.stdout and "scoring.rulebook" in result.stdout


def test_the_wings_contract_breaks_when_the_ledger_is_put_over_the_standings(tmp_path):
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    layers = list(_wings_contract(config)["layers"])
    standings = layers.index("scoring.standings")
    ledger_line = next(i for i, layer in enumerate(layers) if "scoring.ledger" in layer)
    swapped = list(layers)
    swapped[standings], swapped[ledger_line] = layers[ledger_line], layers[standings]
    assert swapped != layers
    result = _lint_wings_with(swapped, tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "scoring.standings" in result.stdout


def test_the_wings_contract_holds_on_the_copy_unchanged(tmp_path):
    # The copying itself breaks nothing: the same layers written by the same code keep the
    # contract, so the two tests above fail for the swap alone.
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    result = _lint_wings_with(list(_wings_contract(config)["layers"]), tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
