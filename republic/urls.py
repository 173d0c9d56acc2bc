from django.contrib import admin
from django.urls import path

from republic.charts.views import chart_reference
from republic.games import views
from republic.games.phases import PHASE_URLS

urlpatterns = [
    path("", views.game_list, name="home"),
    path("games/new/", views.new_game, name="new_game"),
    path("games/<int:game_id>/", views.game_page, name="game"),
    path("games/<int:game_id>/next/", views.next_step, name="next_step"),
    path("games/<int:game_id>/undo/", views.undo, name="undo"),
    path("games/<int:game_id>/log/", views.game_log, name="game_log"),
    path("games/<int:game_id>/back/<int:seq>/", views.go_back, name="go_back"),
    path("games/<int:game_id>/first-attacker/", views.first_attacker, name="first_attacker"),
    path("games/<int:game_id>/player/", views.set_actor, name="set_actor"),
    path("games/<int:game_id>/units/<str:kind>/<int:unit_id>/<str:change>/", views.correct_unit,
         name="correct_unit"),
    path("games/<int:game_id>/divisions/<int:division_id>/orders/", views.set_orders, name="set_orders"),
    *PHASE_URLS,
    path("chart/", chart_reference, name="chart"),
    path("admin/", admin.site.urls),
]
