#!/usr/bin/env bash
# The install a user gets: build the wheel, install it in a fresh virtual environment
# that knows nothing of this checkout, check that playing pulled in no test tools,
# and run .ci/wheel_smoke.sh with it from another folder. Run from anywhere.
set -euo pipefail
cd "$(dirname "$0")/.."
outside=$(mktemp -d)
trap 'rm -rf "$outside"' EXIT
python3 -m venv "$outside/venv"
"$outside/venv/bin/pip" install --quiet --upgrade pip
"$outside/venv/bin/pip" wheel --quiet --no-deps --wheel-dir "$outside/dist" .
rm -rf build ./*.egg-info  # what the in-tree build leaves behind
"$outside/venv/bin/pip" install --quiet "$outside"/dist/skirmish-*.whl
if "$outside/venv/bin/python" -c "import pytest" 2>/dev/null; then
    echo "the plain install pulled in test tools" >&2
    exit 1
fi
bash .ci/wheel_smoke.sh "$outside/venv/bin/skirmish"
