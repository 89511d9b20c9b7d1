"""The playtest report: one self-contained HTML page (every picture embedded as a
base64 PNG, no other file, no script) with the table's picture, the summary table, what
the figures say, and the plots."""

from __future__ import annotations

import base64
from collections.abc import Mapping
from html import escape
from typing import Any

from game.playtest.summary import how_games_ended, side_called


def captions(model_word: str = "model") -> dict[str, str]:
    """Each picture's caption, a model called as the rule system calls it (`model_word`,
    "fighter" in one). The table is drawn as the games start (tester16: a reader may
    take it for an end state)."""
    return {
        "table": "The table as the games start",
        "win-rate": "Win rate as games accumulate, with the 95% interval",
        "game-length": "Game length",
        "models-lost": f"{model_word.capitalize()}s lost in the game per side (those "
        "out of the fight from the start not counted)",
        "heat-map": f"Where {model_word}s were taken out (those still out at the end), and "
        f"where the shots that took them out came from (a {model_word} that fled, or was "
        "lost to its own side's rules, has no shot)",
    }


STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1280px;
       color: #222; background: #fafafa; padding: 0 1em; }
h1 { margin-bottom: 0.2em; } p.meta { color: #555; margin-top: 0; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #ccc; padding: 0.35em 0.8em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
th { background: #eee; }
figure { margin: 0; } figcaption { color: #444; margin-top: 0.3em; }
img { max-width: 100%; height: auto; border: 1px solid #ddd; background: white; }
.top { display: flex; flex-wrap: wrap; gap: 2em; align-items: flex-start; }
.top figure { flex: 0 1 560px; } .top .numbers { flex: 1 1 420px; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(480px, 1fr));
          gap: 1.5em; margin-top: 1.5em; }
.charts .wide { grid-column: 1 / -1; }
"""


def image_tag(png: bytes, alt: str) -> str:
    data = base64.b64encode(png).decode("ascii")
    return f'<img src="data:image/png;base64,{data}" alt="{escape(alt)}">'


def _share(share: float, interval: list[float]) -> str:
    return f"{share:.1%} [{interval[0]:.1%}, {interval[1]:.1%}]"


def summary_table(document: Mapping[str, Any], model_word: str = "model") -> str:
    rows = []
    players = document.get("ai", {})
    names = {side: str(row.get("name", side)) for side, row in document["sides"].items()}
    for side, row in document["sides"].items():
        player = (
            " / ".join(sorted(set(players.values())))
            if document.get("swap")
            else players.get(side, "")
        )
        cells = [
            side_called(side, names),
            player,
            str(row["wins"]),
            _share(row["win_rate"], row["interval95"]),
            f"{row['mean_down']:.2f}",
            f"{row['mean_points']:.2f}",
        ]
        rows.append("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in cells) + "</tr>")
    draws = document["draws"]
    rows.append(f"<tr><td>draw</td><td></td><td>{draws['count']}</td>"
                f"<td>{draws['rate']:.1%}</td><td></td><td></td></tr>")  # fmt: skip
    head = ["side", "player", "wins", "win rate [95% interval]",
            f"{model_word}s lost (mean)", "points (mean)"]  # fmt: skip
    header = "<tr>" + "".join(f"<th>{escape(h)}</th>" for h in head) + "</tr>"
    out = f"<table>{header}{''.join(rows)}</table>"
    if document.get("players"):
        prow = [
            f"<tr><td>{escape(name)}</td><td>{p['decided_games']}</td><td>{p['wins']}</td>"
            f"<td>{escape(_share(p['share'], p['interval95']))}</td></tr>"
            for name, p in document["players"].items()
        ]
        out += (
            "<table><tr><th>player</th><th>decided games played</th><th>won</th>"
            f"<th>share [95% interval]</th></tr>{''.join(prow)}</table>"
        )
    return out


def report_page(
    name: str,
    ruleset: str,
    document: Mapping[str, Any],
    images: Mapping[str, bytes],
    turn_word: str = "turn",
    model_word: str = "model",
) -> str:
    """The whole page as text; a turn and a model called as the rule system calls them
    (`turn_word`, `model_word`)."""
    swap = ", each seed played twice with the players exchanged" if document.get("swap") else ""
    meta = (
        f"{ruleset} · {document['games']} games from seed {document['seed']}{swap} · "
        f"mean last {turn_word} {document['mean_turn']:.2f} · "
        + f"how games ended: {how_games_ended(document['reasons'], turn_word)}"
    )
    verdict = "".join(f"<p>{escape(s)}</p>" for s in document.get("verdict", ()))
    if document.get("why"):  # how each side won, when and where models were taken out
        items = "".join(f"<li>{escape(s)}</li>" for s in document["why"])
        verdict += f"<p>Why, as far as the games show:</p><ul>{items}</ul>"
    figures = {}
    said = captions(model_word)
    numbers = summary_table(document, model_word)
    for key in ("table", "win-rate", "game-length", "models-lost", "heat-map"):
        if key in images:
            wide = ' class="wide"' if key == "heat-map" else ""
            figures[key] = (
                f"<figure{wide}>{image_tag(images[key], said[key])}"
                f"<figcaption>{escape(said[key])}</figcaption></figure>"
            )
    table = figures.pop("table", "")
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>Playtest: {escape(name)}</title><style>{STYLE}</style></head><body>"
        f'<h1>Playtest: {escape(name)}</h1><p class="meta">{escape(meta)}</p>'
        f'<div class="top">{table}<div class="numbers">{numbers}{verdict}'
        f'</div></div><div class="charts">{"".join(figures.values())}</div></body></html>\n'
    )
