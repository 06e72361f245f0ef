#!/usr/bin/env bash
# Regenerate docs/screenshots/*.png (the README's pictures) with Chromium.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh" --group dev
need_system_packages chromium chromium
dpkg -s fonts-noto-color-emoji >/dev/null 2>&1 || need_system_packages __no_such_command__ fonts-noto-color-emoji
exec "$VENV_PY" scripts/screenshots.py
