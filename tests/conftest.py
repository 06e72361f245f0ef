import os

# Tests drive the clock themselves (timers.tick); no background timer threads.
os.environ.setdefault("BARNGA_RUN_TIMERS", "0")
