#!/usr/bin/env bash
# The install a user gets: run the installed `skirmish` from a folder that is no
# checkout, on the bundled tables by name. Usage: .ci/wheel_smoke.sh PATH/TO/skirmish
set -euo pipefail
skirmish=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
python=$(dirname "$skirmish")/python
export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy PYGAME_HIDE_SUPPORT_PROMPT=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

run() {
    echo "+ skirmish $*"
    "$skirmish" "$@" > out.txt || { cat out.txt; echo "FAILED: skirmish $*" >&2; exit 1; }
    tail -n 2 out.txt
}

run --help
run scenarios
run play necromunda-alley --frames 1 --screenshot play.png
test -s play.png
run validate infinity-demo necromunda-alley open-rebellion-village
run lof infinity-demo --from zhanshi-hmg --to fusilier-2
run render open-rebellion-demo --out table.png
test -s table.png
run odds infinity --sv1 13 --b1 3 --sv2 12 --b2 1
run odds necromunda --bs 3 --strength 4 --toughness 3 --save 5
run odds open-rebellion --attack 6 --defence 4 --cover light
run shoot infinity-demo --attacker zhanshi-hmg --target fusilier-2
run shoot necromunda-demo --attacker orlock-leader --target escher-champion
run shoot open-rebellion-demo --attacker reb-a1 --target gov-b1
run playtest necromunda-demo --games 2

# A game saved here (ten declarations of the automatic players) replays from elsewhere.
"$python" - <<'PY'
from pathlib import Path

from game.paths import scenario_path
from game.rules.registry import find_ruleset
from game.scenario import load_scenario
from game.sequencer.game import Game

scenario = load_scenario(scenario_path("necromunda-demo"))
game = Game(scenario, seed=3)
player = find_ruleset(scenario.ruleset.name).player("simple")(game.engine)
for _ in range(10):
    game.declare(player.choose(game.state, game.awaiting()))
game.save(Path("save.json"))
PY
mkdir elsewhere
(cd elsewhere && run replay ../save.json --check)

# A usage error is one line and exit status 2.
status=0
"$skirmish" play --seed abc 2> err.txt || status=$?
test "$status" -eq 2 && test "$(wc -l < err.txt)" -eq 1 || { cat err.txt; exit 1; }
echo "wheel smoke: ok ($(ls | wc -l) files written in $work)"
