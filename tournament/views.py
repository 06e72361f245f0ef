from django.db import connection
from django.http import JsonResponse


def healthz(request):
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"ok": True})


class HealthzMiddleware:
    """Answers /healthz before the host check and the HTTPS redirect.

    The containers' health checks ask http://127.0.0.1/healthz from inside: with
    ALLOWED_HOSTS set to the site's name that Host is refused (400), and with HTTPS=1
    it is redirected to https on a port that speaks http; either way compose marks
    both web processes unhealthy and never starts the proxy. First in MIDDLEWARE.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path == "/healthz" and request.method in ("GET", "HEAD"):
            return healthz(request)
        return self.get_response(request)
