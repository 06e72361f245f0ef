from django.apps import AppConfig


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = "Barnga tournament"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_out

        from tournament import broadcast

        def closed_with_the_login(sender, request, user, **kwargs):
            # A facilitator's open panel, table page and projector stop with the login
            # they were opened from: they had gone on showing the workshop (its sheets
            # too) to whoever used the browser next.
            key = getattr(getattr(request, "session", None), "session_key", None)
            if key:
                broadcast.session_ended_on_commit(session_key=key)

        user_logged_out.connect(
            closed_with_the_login, weak=False, dispatch_uid="barnga-session-ended"
        )
