"""A game with the cards (and rules) of expansions added: what `--with PATH` does on the
command line and `lumos.api.load_game(game, with_paths)` in Python.

A PATH is an expansion (a folder with expansion.yaml, or the manifest), a card file or a
folder of card files. A path that is none of them, or an expansion of another game, is a
ValueError with the reason (the command line shows it as a usage error).
"""
from __future__ import annotations

from pathlib import Path


def compile_with(src, game: str, with_paths: list[str]):
    """(CompiledGame, sources) of `src` with the `with_paths` added, or a LumosCheckError with
    every diagnostic (the manifests' too)."""
    from lumos.compiler.game import check_game
    from lumos.diagnostics import LumosCheckError
    extra, pre_diags, pre_files = with_cards(src, game, with_paths)
    src = with_rules(src, with_paths)
    cg, diags, files = check_game(src, extra_cards=extra or None)
    if cg is None or any(d.is_error for d in pre_diags):
        err = LumosCheckError(pre_diags + list(diags))
        err.files = {**pre_files, **files}
        raise err
    return cg, src


def yaml_files(folder: Path) -> list[Path]:
    """The card files of a folder: its YAML files but an expansion manifest."""
    from lumos.toolkit.expansions import MANIFEST
    return sorted(p for p in folder.iterdir()
                  if p.is_file() and p.suffix in (".yaml", ".yml") and p.name != MANIFEST
                  and not p.name.endswith(".test.yaml"))     # card tests (lumos test)


def with_cards(src, game: str, with_paths: list[str]) -> tuple[list[Path], list, dict]:
    """The card files of `--with` expansions, and the problems of their manifests."""
    from lumos.toolkit.expansions import load_expansion, manifest_path
    extra: list[Path] = []
    diags: list = []
    files: dict = {}
    own = {p.resolve() for p in src.card_files()}
    for item in with_paths:
        path = Path(item)
        manifest = manifest_path(path)
        if manifest is not None:
            exp, problems, texts = load_expansion(manifest)
            diags += problems
            files.update(texts)
            if exp is None:
                continue
            if exp.base.rules_dir.resolve() != src.rules_dir.resolve():
                raise ValueError(f"the expansion `{item}` extends `{exp.extends}`, not `{game}`")
            found = exp.card_files
        elif path.is_dir():
            found = yaml_files(path)
            if not found:
                raise ValueError(f"`{item}` is neither an expansion nor a folder of card files")
        elif path.is_file():
            found = [path]
        else:
            raise ValueError(f"no expansion or card file `{item}`")
        found = split_teams(found)[0]
        extra += [p for p in found if p.resolve() not in own and p not in extra]
    return extra, diags, files


def with_rules(src, with_paths: list[str]):
    """The game's sources with the rules files that `--with` expansions replace or add."""
    from lumos.toolkit.expansions import with_rules as replaced
    return replaced(src, with_paths)


def split_teams(paths: list[Path]) -> tuple[list[Path], list[Path]]:
    """(card files, team files): a YAML file with a top-level `team:` key is a team file."""
    from lumos.compiler.teams import looks_like_team_file
    teams = [p for p in paths if looks_like_team_file(p)]
    return [p for p in paths if p not in teams], teams
