"""What the window remembers between runs: a small JSON file in the user's config
folder (platformdirs: ~/.config/skirmish on Linux, ~/Library/Application Support/skirmish
on macOS, %APPDATA%\\skirmish on Windows; `SKIRMISH_CONFIG_DIR` names another folder).

Now only that the opening hint (how to get help) has been seen, so it shows the first
time the window opens and not after. The file is written atomically (game.files); a
missing, unreadable or broken one counts as empty, and one that cannot be written is
left as it is: settings never stop the window.

No pygame here.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from game.errors import InputError
from game.files import read_text, write_json_atomic

FOLDER_VARIABLE = "SKIRMISH_CONFIG_DIR"
FILE_NAME = "settings.json"
MAX_BYTES = 64 * 1024  # a settings file is a few bytes; a larger one is not ours
HINT_SEEN = "hint_seen"


def folder() -> Path:
    """Where the settings file lives."""
    named = os.environ.get(FOLDER_VARIABLE)
    if named:
        return Path(named)
    from platformdirs import user_config_dir  # here: only the window needs it

    return Path(user_config_dir("skirmish", appauthor=False, roaming=True))


def load() -> dict[str, Any]:
    """The settings, or none when the file is missing, unreadable or not ours."""
    try:
        data = json.loads(read_text(folder() / FILE_NAME, MAX_BYTES, "settings file"))
    except (InputError, ValueError, OSError, RecursionError):
        return {}
    return data if isinstance(data, dict) else {}


def remember(key: str, value: Any) -> bool:
    """Keep `key = value` with the other settings; False when the file cannot be written."""
    data = load() | {key: value}
    try:
        where = folder()
        where.mkdir(parents=True, exist_ok=True)
        write_json_atomic(where / FILE_NAME, data)
    except (OSError, InputError):
        return False
    return True


def hint_seen() -> bool:
    """Whether the opening hint has been seen (and dismissed) in an earlier run."""
    return load().get(HINT_SEEN) is True
