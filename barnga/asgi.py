"""ASGI entry point: one routing table for HTTP and websockets."""

import gc
import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "barnga.settings")

from django.core.asgi import get_asgi_application  # noqa: E402

from barnga import deflate, eagerwrite  # noqa: E402

# Sockets send at once when nothing is queued (barnga/eagerwrite.py).
eagerwrite.install()
# The facilitator's sockets are compressed, the phones' not (barnga/deflate.py).
deflate.install()

from barnga.env import exit_on_setting_error  # noqa: E402

django_asgi_app = exit_on_setting_error(get_asgi_application)

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from barnga.origin import SameSiteOriginValidator  # noqa: E402
from tournament import routing, timers  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # Sessions and users where a route needs them (tournament/routing.py); only
        # this site's own pages open sockets (barnga/origin.py).
        "websocket": SameSiteOriginValidator(URLRouter(routing.websocket_urlpatterns)),
    }
)

# Build the channel layer and the cache's client now, not in the first socket's
# connect or the first join: importing their Redis client there held up the event
# loop (and so every socket of a connect storm) for a noticeable moment.
from channels.layers import get_channel_layer  # noqa: E402
from django.core.cache import cache  # noqa: E402

get_channel_layer()
getattr(cache, "_cache", None)  # RedisCache builds its client (and imports redis) lazily

# Every web process runs the timer loop; a row lock decides which one finalises.
timers.start_background_loop()

# Everything loaded so far (Django, the URLconf, the apps) lives as long as the process:
# moved out of the collector's sight, a full collection has far fewer objects to walk.
# With 200 players, the longest full collections fell from 80-145 ms to 20-27 ms;
# every socket of the process waits while one runs.
gc.freeze()

# Collect far less often than Python's default (700, 10, 10). Reference counting frees
# almost everything a socket's work makes; under load (1,000 players, gc.callbacks
# timing each collection) a process still ran, in about a minute, some 600 young
# collections, 55 middle ones (p50 8-17 ms, up to 77) and 4-5 full ones (p50 96-144
# ms, up to 207), which found little garbage (a few hundred objects in most runs):
# about a tenth of its CPU, and all its sockets stopped for each. With 50,000 it runs
# 3-4 young collections in that time (25-120 ms each) and nothing else. Cyclic
# garbage still goes, later (README, "Running several processes").
from django.conf import settings  # noqa: E402

gc.set_threshold(*settings.BARNGA_GC_THRESHOLD)
