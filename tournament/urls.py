from django.contrib.auth import views as auth_views
from django.urls import path

from tournament import views, views_play

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("login/", auth_views.LoginView.as_view(template_name="login.html"), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("join", views_play.join, name="join"),
    path("join/rejoin", views_play.rejoin, name="rejoin"),
    path("j/<str:code>", views_play.short_join, name="short-join"),
    path("play/", views_play.play, name="play"),
    path("workshops/<int:workshop_id>/", views.workshop_detail, name="workshop"),
]
