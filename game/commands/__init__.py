"""Subcommands of `skirmish`: one module each, with `register(app: typer.Typer)`."""
