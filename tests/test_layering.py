"""The layers of the code (issue 8; issue 19, item 7) are import-linter's contracts in
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
    # An exception is a layer broken on purpose: fix the import instead (issue 19, item 7).
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
