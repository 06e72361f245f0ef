"""The stored domain of a Barnga workshop.

Game state is never stored as a mutable blob: a game is its seed, its seats and
sheets, and an append-only action log; the live state is the engine's replay of
that log (see `tournament.gamestate`). Everything that changes a row lives in
`tournament.services`; reads live in `tournament.selectors`.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import models
from django.db.models import Q

from tournament import names, timing


class Phase(models.TextChoices):
    LOBBY = "lobby", "Lobby"
    STUDY = "study", "Study the rules"
    HOME = "home", "Silent play at home tables"
    ROUND = "round", "Scored round"
    BETWEEN = "between", "Between rounds"
    DEBRIEF = "debrief", "Debrief"


class Mode(models.TextChoices):
    BARNGA = "barnga", "Barnga (players claim trick winners)"
    REFEREE = "referee", "Referee (the table's sheet decides)"


class LeavePolicy(models.TextChoices):
    """What Remove does to a seat during play (services.player_kick)."""

    BOT = "bot", "A bot plays their seat"
    SKIP = "skip", "Their seat goes (the table's game is dealt again without it)"


class Workshop(models.Model):
    name = models.CharField(max_length=100)
    facilitator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="workshops",
    )
    code = models.CharField(max_length=8, unique=True)
    phase = models.CharField(max_length=10, choices=Phase.choices, default=Phase.LOBBY)
    game = models.CharField(max_length=20, default="five_tricks")
    mode = models.CharField(max_length=10, choices=Mode.choices, default=Mode.BARNGA)
    table_count = models.PositiveSmallIntegerField(default=4)
    seats_per_table = models.PositiveSmallIntegerField(default=5)
    round_seconds = models.PositiveIntegerField(default=300)
    study_seconds = models.PositiveIntegerField(default=300)
    home_seconds = models.PositiveIntegerField(default=180)
    dispute_seconds = models.PositiveIntegerField(default=45)
    bots_enabled = models.BooleanField(default=False)
    joining_locked = models.BooleanField(default=False)
    # Demo workshops run themselves: between rounds the movement is applied and
    # the next round started by the timer loop.
    autopilot = models.BooleanField(default=False)
    leave_policy = models.CharField(
        max_length=5, choices=LeavePolicy.choices, default=LeavePolicy.BOT
    )
    version = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        # The timer loop's autopilot looks for demo workshops between rounds every second.
        indexes = [
            models.Index(
                fields=["phase"], condition=Q(autopilot=True), name="workshop_autopilot_phase"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.code})"

    def leave_policy_for(self, *, is_bot: bool) -> str:
        """What Remove does to a seat after the lobby: the set-up's policy for a person;
        a bot's seat goes whatever it is (a bot "played by a bot" was not removed at
        all: it stayed in its seat, playing, and the panel said it was gone)."""
        return LeavePolicy.SKIP if is_bot else self.leave_policy


class Table(models.Model):
    workshop = models.ForeignKey(Workshop, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    # The secret sheet: the four knobs of games.tricks.TrickRules, and the preset it came from.
    rules = models.JSONField(default=dict)
    preset = models.CharField(max_length=40, blank=True)
    # `version` bumps on every change to what is shown at the table. `barrier` is the
    # version of the last change that makes actions decided before it stale (every
    # change except other players' claims and All Fives' revoke calls); see
    # services.common.check_version.
    version = models.PositiveIntegerField(default=0)
    barrier = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["workshop", "number"], name="unique_table_number"),
        ]

    def __str__(self) -> str:
        return f"Table {self.number}"


class Player(models.Model):
    workshop = models.ForeignKey(Workshop, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=40)
    # names.name_key(name), unique per workshop: joins run side by side (they share
    # the workshop's lock), so the database keeps "Anna" and "anna" apart.
    name_key = models.CharField(max_length=120, editable=False, default="")
    join_order = models.PositiveIntegerField()
    home_table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.SET_NULL, related_name="home_players"
    )
    # The player's own sheet: their home table's rules, kept wherever they sit.
    rules = models.JSONField(default=dict, blank=True)
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.SET_NULL, related_name="seated_players"
    )
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    is_bot = models.BooleanField(default=False)
    # A human who left; a bot plays their seat (LeavePolicy.BOT) or it is removed.
    has_left = models.BooleanField(default=False)
    # When they left (None: they did not, or left before it was recorded).
    left_at = models.DateTimeField(null=True, blank=True)
    # Each time they left and came back with their PIN: {"left": iso, "back": iso},
    # oldest first (a bot played their seat in between, or nobody: the seat skipped).
    # The time away they are in now, if any, is left_at.
    absences = models.JSONField(default=list, blank=True)
    connected = models.BooleanField(default=False)
    last_seen = models.DateTimeField(null=True, blank=True)
    token = models.CharField(max_length=64, unique=True)
    pin = models.CharField(max_length=8)
    # When the seat last moved to another phone with its PIN (None: never).
    moved_at = models.DateTimeField(null=True, blank=True)
    # When the facilitator last let them back in after removing them (a new PIN,
    # roster.player_let_back_in; None: never). The panel and the projector say it.
    let_in_at = models.DateTimeField(null=True, blank=True)
    # Joined after the study phase, so never read their own sheet: it is on their
    # screen until they say they have read it (services.player_rules_read) or make
    # their first move in a scored round (services.play._folds_late_rules).
    rules_unread = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["join_order"]
        constraints = [
            models.UniqueConstraint(fields=["workshop", "name"], name="unique_player_name"),
            models.UniqueConstraint(fields=["workshop", "name_key"], name="unique_player_name_key"),
            models.UniqueConstraint(fields=["workshop", "join_order"], name="unique_join_order"),
            models.UniqueConstraint(
                fields=["table", "seat"], condition=Q(table__isnull=False), name="unique_seat"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs):
        key = names.name_key(self.name)
        if key != self.name_key:
            self.name_key = key
            fields = kwargs.get("update_fields")
            if fields is not None and "name" in fields:
                kwargs["update_fields"] = {*fields, "name_key"}
        super().save(*args, **kwargs)

    @property
    def automated(self) -> bool:
        return self.is_bot or self.has_left


class RoundKind(models.TextChoices):
    STUDY = "study", "Study (practice, rules visible)"
    HOME = "home", "Silent home play (unscored)"
    SCORED = "scored", "Scored round"


class RoundState(models.TextChoices):
    RUNNING = "running", "Running"
    PAUSED = "paused", "Paused"
    FINISHED = "finished", "Finished"


class Round(models.Model):
    workshop = models.ForeignKey(Workshop, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(help_text="Sequence over all rounds of the workshop")
    kind = models.CharField(max_length=8, choices=RoundKind.choices)
    scored_number = models.PositiveSmallIntegerField(null=True, blank=True)
    state = models.CharField(max_length=10, choices=RoundState.choices, default=RoundState.RUNNING)
    started_at = models.DateTimeField()
    deadline = models.DateTimeField(null=True, blank=True)
    # While paused: the seconds that were left when the pause began, and when it began.
    remaining_seconds = models.FloatField(null=True, blank=True)
    paused_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    finished_by = models.CharField(max_length=20, blank=True)  # "timer" | "facilitator"
    # Every pause: [paused_at, resumed_at] in ISO 8601 (resumed_at None while under way;
    # a round ended while paused ends its pause then). A dispute's length and the
    # report's "into the round" leave them out, and bots wait afresh after one.
    pauses = models.JSONField(default=list, blank=True)
    # Round standings at the end: {"players": [{"id", "name", "table", "games_won", "games_played"}]}
    standings = models.JSONField(default=dict, blank=True)
    # The movement plan the facilitator previews and may edit: {"moves": [{"player", "from", "to"}]}
    movement_preview = models.JSONField(default=dict, blank=True)
    movement_applied_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["workshop", "number"], name="unique_round_number"),
        ]
        # The timer loop looks for running rounds past their deadline every second.
        indexes = [
            models.Index(
                fields=["deadline"], condition=Q(state="running"), name="round_running_deadline"
            ),
        ]

    def __str__(self) -> str:
        if self.kind == RoundKind.SCORED:
            return f"Round {self.scored_number}"
        return self.get_kind_display()

    @property
    def short_name(self) -> str:
        """The round as a sentence about it begins: "Study", "Silent play", "Round 2".
        The kind's label, "Study (practice, rules visible)", read as "Study (practice,
        rules visible) is paused."; the phones call study and silent play "play"."""
        if self.kind == RoundKind.STUDY:
            return "Study"
        if self.kind == RoundKind.HOME:
            return "Silent play"
        return str(self)

    def pause_spans(self) -> list[tuple[datetime, datetime | None]]:
        return [
            (datetime.fromisoformat(a), datetime.fromisoformat(b) if b else None)
            for a, b in self.pauses or []
        ]

    def resumed_last(self) -> datetime | None:
        """When the round's last pause ended (None if it was never paused, or is now)."""
        spans = self.pause_spans()
        return spans[-1][1] if spans else None


class GameState(models.TextChoices):
    PLAYING = "playing", "Playing"
    OVER = "over", "Over"
    CUT = "cut", "Cut short"


class CutBy(models.TextChoices):
    """What cut a game short (GameState.CUT)."""

    ROUND_END = "round_end", "The end of the round"
    PLAYER_LEFT = "player_left", "A player left the table"


class Game(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="games")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField()
    # The base game (games/kinds): its engine replays the log.
    kind = models.CharField(max_length=20, default="five_tricks")
    seed = models.BigIntegerField()
    # The first dealer: the last seat, or the one the seed's cut chose (GameKind.first_dealer).
    dealer = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="dealt_games")
    # Engine seat i is players[i] (Five Tricks, 7Up: seat 0 at the dealer's left leads first).
    players = models.JSONField()
    table_rules = models.JSONField()
    seat_rules = models.JSONField()
    mode = models.CharField(max_length=10, choices=Mode.choices)
    state = models.CharField(max_length=10, choices=GameState.choices, default=GameState.PLAYING)
    seq = models.PositiveIntegerField(default=0, help_text="Number of actions in the log")
    # Set while players claim a trick's winner: when it passes, the most-claimed seat wins.
    claim_deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    tricks_won = models.JSONField(default=list, blank=True)
    # Per seat, in the kind's score (tricks for Five Tricks, points for the others).
    scores = models.JSONField(default=list, blank=True)
    winners = models.JSONField(default=list, blank=True, help_text="Player ids credited a game won")
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Set when the game is cut short (state "cut"), else blank.
    cut_by = models.CharField(max_length=12, choices=CutBy.choices, blank=True)
    # How a game that ran to its end ended, where its kind has more than one way
    # (3 Tricks: "three_tricks", "both_passed", "drawing_stopped"), else blank: the
    # phones say it with the result (GameKind.end_words).
    ended_by = models.CharField(max_length=20, blank=True, default="")

    class Meta:
        ordering = ["round__number", "table__number", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "round", "number"], name="unique_game_number"),
        ]
        # The games in play, few beside the finished ones (the timer loop's bots).
        indexes = [
            models.Index(fields=["round"], condition=Q(state="playing"), name="game_playing"),
        ]

    def __str__(self) -> str:
        return f"{self.table} game {self.number} ({self.round})"


class Action(models.Model):
    """One entry of a game's append-only log: exactly what was given to the engine."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions")
    seq = models.PositiveIntegerField()
    actor = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL)
    kind = models.CharField(max_length=20)
    payload = models.JSONField()
    events = models.JSONField(default=list)
    client_action_id = models.CharField(max_length=64, null=True, blank=True)  # noqa: DJ001 (NULL = no id; unique when set)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="unique_action_seq"),
            models.UniqueConstraint(
                fields=["actor", "client_action_id"],
                condition=Q(client_action_id__isnull=False),
                name="unique_client_action",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} #{self.seq} {self.kind}"


class TrickRecord(models.Model):
    """A completed trick, denormalised from the log for the debrief report."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="trick_records")
    index = models.PositiveSmallIntegerField()
    leader = models.PositiveSmallIntegerField()
    cards = models.JSONField()
    winner = models.PositiveSmallIntegerField()
    winner_player = models.ForeignKey(
        Player, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    verdicts = models.JSONField()
    table_verdict = models.PositiveSmallIntegerField()
    resolution = models.CharField(max_length=10)
    claims = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="unique_trick_index"),
        ]

    def __str__(self) -> str:
        return f"{self.game} trick {self.index + 1}"


class Dispute(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="disputes")
    trick_index = models.PositiveSmallIntegerField()
    opened_at = models.DateTimeField()
    deadline = models.DateTimeField()
    initial_claims = models.JSONField()
    final_claims = models.JSONField(default=list, blank=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolution = models.CharField(max_length=10, blank=True)  # "unanimous" | "timeout" | "cut"
    winner = models.PositiveSmallIntegerField(null=True, blank=True)
    winner_player = models.ForeignKey(
        Player, null=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["opened_at"]
        constraints = [
            models.UniqueConstraint(fields=["game", "trick_index"], name="unique_dispute_trick"),
        ]

    def __str__(self) -> str:
        return f"Dispute over {self.game} trick {self.trick_index + 1}"

    @property
    def duration_seconds(self) -> float | None:
        if self.resolved_at is None:
            return None
        # The round's pauses do not count: the dispute's time limit stood still in them.
        paused = timing.paused_within(
            self.game.round.pause_spans(), self.opened_at, self.resolved_at
        )
        return (self.resolved_at - self.opened_at).total_seconds() - paused


class Claim(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="claims")
    trick_index = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="claims")
    seat = models.PositiveSmallIntegerField()
    claimed_seat = models.PositiveSmallIntegerField()
    is_change = models.BooleanField(default=False)
    during_dispute = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.player} claims seat {self.claimed_seat}"


class Gesture(models.Model):
    # (kind, emoji, what a screen reader says)
    PALETTE = [
        ("thumbs_up", "👍", "Thumbs up"),
        ("thumbs_down", "👎", "Thumbs down"),
        ("stop", "✋", "Stop"),
        ("question", "❓", "Question"),
        ("point", "👉", "Look at that"),
        ("thinking", "🤔", "Thinking"),
        ("smile", "🙂", "Smile"),
        ("frown", "☹️", "Frown"),
        ("me", "🙋", "Me"),
        ("you", "🫵", "You"),
    ]
    KINDS = [(k, label) for k, _, label in PALETTE] + [
        ("drawing", "Drawing"),
        ("clear", "Clear drawing"),
    ]
    EMOJI = {k: e for k, e, _ in PALETTE}
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="gestures")
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.CASCADE, related_name="gestures"
    )
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="gestures")
    kind = models.CharField(max_length=12, choices=KINDS)
    payload = models.JSONField(default=dict, blank=True)
    trick_index = models.PositiveSmallIntegerField(null=True, blank=True)
    during_dispute = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.player}: {self.kind}"


class Movement(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="movements")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="movements")
    from_table = models.PositiveSmallIntegerField()
    to_table = models.PositiveSmallIntegerField()
    edited = models.BooleanField(
        default=False, help_text="Changed by the facilitator in the preview"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["round__number", "player__join_order"]
        constraints = [
            models.UniqueConstraint(fields=["round", "player"], name="unique_move_per_round"),
        ]

    def __str__(self) -> str:
        return f"{self.player}: table {self.from_table} → {self.to_table}"


class Seating(models.Model):
    """Where each player sat when a round began: the debrief's journey grid."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seatings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="seatings")
    table_number = models.PositiveSmallIntegerField()
    seat = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["round__number", "table_number", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["round", "player"], name="unique_seating"),
        ]

    def __str__(self) -> str:
        return f"{self.player} at table {self.table_number}"


class RefusedAttempt(models.Model):
    """A person's move the table's rules refused (referee mode; 7Up7Down, 3 Tricks):
    the moment a newcomer met a rule they never saw, for the debrief report.

    Append-only, written after the refused action's transaction rolled back
    (services.play), at most limits.REFUSALS_KEPT per player and game. Not a game action:
    the game's log and state never hold it."""

    workshop = models.ForeignKey(Workshop, on_delete=models.CASCADE, related_name="+")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="refusals")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="refusals")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="refusals")
    seat = models.PositiveSmallIntegerField()
    # What was given to the engine, as an Action's payload would have been.
    action = models.JSONField()
    # The refusal as the student was told it (seats named).
    reason = models.TextField()
    # Whether the player's own (home table's) sheet allows the move: a rule they never
    # saw, not a slip every sheet forbids. Null where the game cannot say.
    own_rules_allow = models.BooleanField(null=True)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [models.Index(fields=["game", "player"], name="refusal_game_player")]

    def __str__(self) -> str:
        return f"{self.player} refused: {self.reason}"
