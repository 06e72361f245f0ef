from django.contrib.auth import views as auth_views
from django.urls import path
from django.views.generic import RedirectView

from tournament import views, views_data, views_facilitator, views_login, views_play, views_report

urlpatterns = [
    path("", views_facilitator.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("login/", views_login.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("join", views_play.join, name="join"),
    path("join/rejoin", views_play.rejoin, name="rejoin"),
    path("j/<str:code>", views_play.short_join, name="short-join"),
    # What students type from the projector, with a trailing slash or none.
    path("join/", RedirectView.as_view(pattern_name="join", query_string=True), name="join-slash"),
    path("j/<str:code>/", views_play.short_join, name="short-join-slash"),
    path("j/", RedirectView.as_view(pattern_name="join"), name="short-join-bare"),
    path("j", RedirectView.as_view(pattern_name="join"), name="short-join-none"),
    path("play/", views_play.play, name="play"),
    path("signup/", views_facilitator.signup, name="signup"),
    path("workshops/new/", views_facilitator.workshop_new, name="workshop-new"),
    path("workshops/<int:workshop_id>/", views_facilitator.workshop_detail, name="workshop"),
    path("workshops/<int:workshop_id>/projector/", views_facilitator.projector, name="projector"),
    path(
        "workshops/<int:workshop_id>/delete/",
        views_data.workshop_delete_view,
        name="workshop-delete",
    ),
    path(
        "workshops/<int:workshop_id>/tables/<int:number>/",
        views_facilitator.table_detail,
        name="workshop-table",
    ),
    path(
        "workshops/<int:workshop_id>/do/<slug:name>/",
        views_facilitator.workshop_action,
        name="workshop-action",
    ),
    path("workshops/<int:workshop_id>/report/", views_report.report_page, name="report"),
    path("workshops/<int:workshop_id>/report.json", views_report.report_json, name="report-json"),
    path("workshops/<int:workshop_id>/report.zip", views_report.report_zip, name="report-zip"),
    path(
        "workshops/<int:workshop_id>/report/<slug:kind>.csv",
        views_report.report_csv,
        name="report-csv",
    ),
]
