from django.contrib.auth import views as auth_views
from django.urls import path

from tournament import views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("login/", auth_views.LoginView.as_view(template_name="login.html"), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("workshops/<int:workshop_id>/", views.workshop_detail, name="workshop"),
]
