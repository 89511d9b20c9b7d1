"""Errors that reach a person: one line naming the file, the place and the problem."""

from __future__ import annotations

from dataclasses import dataclass, replace

from game.paths import as_typed


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with an input: where it is and what is wrong."""

    file: str
    place: str
    problem: str
    line: int | None = None

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line is not None else self.file
        if self.place:
            return f"{where}: {self.place}: {self.problem}"
        return f"{where}: {self.problem}"


def said(problem: Problem) -> str:
    """The line a person reads for a problem, `skirmish: FILE:LINE: place: problem`, a
    bundled table named as it was typed (`game.paths.as_typed`)."""
    return f"skirmish: {replace(problem, file=as_typed(problem.file))}"


class InputError(Exception):
    """Bad input from a person: the CLI prints each problem on one line and exits with 2."""

    def __init__(self, problems: list[Problem] | Problem) -> None:
        self.problems = [problems] if isinstance(problems, Problem) else list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class IllegalDeclaration(Exception):
    """A declaration the rules do not allow; the message is the reason shown to the player."""
