#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys


def main():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "barnga.settings")
    from django.core.management import execute_from_command_line

    from barnga.env import exit_on_setting_error

    exit_on_setting_error(lambda: execute_from_command_line(sys.argv))


if __name__ == "__main__":
    from games.cli import run_main

    run_main(main)
