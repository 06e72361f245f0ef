from django.contrib import admin
from django.urls import include, path
from django.views.generic import RedirectView

urlpatterns = [
    # The admin's own log-in has no limit on password guessing: it is the site's.
    path("admin/login/", RedirectView.as_view(url="/login/", query_string=True)),
    path("admin/", admin.site.urls),
    path("", include("tournament.urls")),
]
