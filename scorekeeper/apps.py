from django.apps import AppConfig


class ScorekeeperConfig(AppConfig):
    name = "scorekeeper"
    verbose_name = "Scorekeeper"

    def ready(self) -> None:
        # A change's spectator part is drawn where it commits, once for every screen (with a
        # broker; scorekeeper.live.news).
        from scorekeeper.live import news
        from scorekeeper.web.live_parts import pushed_part

        news.draw_with(pushed_part)
        # An event's live part is drawn once it changes, where it changed, before its pages hear
        # of it
        from scorekeeper.events.version import draw_with
        from scorekeeper.web.event_parts import draw_for, hold

        draw_with(draw_for)
        # ... and taken into each other process's memory before that process's pages do.
        from scorekeeper.live.hub import hub

        hub.hold_events_with(hold)
