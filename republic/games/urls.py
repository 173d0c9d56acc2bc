"""The game's addresses, by name in the "games" namespace."""

from django.urls import path

from republic.games.views import (
    act,
    archive,
    assault,
    charts,
    dashboard,
    day,
    dispatches,
    game,
    live,
    log,
    maneuver,
    report,
    room,
    seats,
    units,
)

app_name = "games"

urlpatterns = [
    path("", game.game_list, name="home"),
    path("games/new/", game.new_game, name="new_game"),
    path("games/new/<slug:key>/", game.start_scenario, name="start_scenario"),
    path("games/load/", archive.load_game, name="load_game"),
    path("join/<str:code>/", seats.join, name="join"),
    path("dashboard/", dashboard.dashboard, name="dashboard"),
    path("dashboard/room-links/", room.make_room_link, name="make_room_link"),
    path("dashboard/room-links/<int:link_id>/revoke/", room.revoke_room_link, name="revoke_room_link"),
    path("room/", room.room, name="room"),
    path("room/<str:key>/", room.room_by_link, name="room_by_link"),
    path("games/<int:game_id>/seats/", seats.seats_page, name="seats"),
    path("games/<int:game_id>/seats/<int:seat_id>/revoke/", seats.revoke_seat, name="revoke_seat"),
    path("games/<int:game_id>/seats/new-code/", seats.new_code, name="new_join_code"),
    path("games/<int:game_id>/seats/qr.svg", seats.qr_image, name="join_qr"),
    path("games/<int:game_id>/", game.game_page, name="game"),
    # every action a step offers (steps.base.Act): one address, one view
    path("games/<int:game_id>/act/<slug:action>/<slug:piece>/", act.act, name="act"),
    path("games/<int:game_id>/rows/", game.more_rows, name="more_rows"),
    path("games/<int:game_id>/poll/", live.poll, name="poll"),
    path("games/<int:game_id>/messages/", dispatches.send, name="send_message"),
    path("games/<int:game_id>/rows/<slug:row>/", game.game_row, name="row"),
    path("games/<int:game_id>/parts/<slug:part>/", game.game_part, name="part"),
    path("games/<int:game_id>/next/", game.next_step, name="next_step"),
    path("games/<int:game_id>/next/anyway/", game.next_step_anyway, name="next_step_anyway"),
    path("games/<int:game_id>/undo/", game.undo, name="undo"),
    path("games/<int:game_id>/log/", log.game_log, name="game_log"),
    path("games/<int:game_id>/save/", archive.save_game, name="save_game"),
    path("games/<int:game_id>/log/pdf/", log.game_log_pdf, name="game_log_pdf"),
    path("games/<int:game_id>/report/", report.battle_report, name="battle_report"),
    path("games/<int:game_id>/chart/", charts.game_chart, name="game_chart"),
    path("games/<int:game_id>/units/", units.units_page, name="units"),
    path("games/<int:game_id>/follow/", units.follow, name="follow"),
    path("games/<int:game_id>/divisions/<int:division_id>/", units.division_page, name="division"),
    path("games/<int:game_id>/back/<int:seq>/", game.go_back, name="go_back"),
    path("games/<int:game_id>/end/", game.end_game, name="end_game"),
    path("games/<int:game_id>/day/", day.set_day, name="set_day"),
    path("games/<int:game_id>/units/<int:unit_id>/<str:change>/", game.correct_unit, name="correct_unit"),
    path("games/<int:game_id>/blocked/<int:unit_id>/", game.blocked_move, name="blocked_move"),
    path("games/<int:game_id>/divisions/<int:division_id>/orders/", game.set_orders, name="set_orders"),
    path("games/<int:game_id>/reassign/<int:unit_id>/", game.reassign_unit, name="reassign_unit"),
    path("games/<int:game_id>/objectives/<int:objective_id>/", game.take_objective, name="take_objective"),
    # command phase
    # maneuver phase
    # the movement allowance: worked out, not recorded, so not an action of the step
    path("games/<int:game_id>/maneuver/movement/<int:unit_id>/", maneuver.movement, name="maneuver_movement"),
    # assault phase
    # the column a round's conditions give, as its form is filled in: a preview that records nothing
    path("games/<int:game_id>/assault/<int:seq>/column/", assault.column, name="assault_column"),
]
