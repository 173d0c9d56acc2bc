from django.contrib import admin
from django.urls import include, path

from republic.games.views.charts import chart_reference, club_chart, club_charts
from republic.games.views.install import manifest, worker

handler400 = "republic.games.views.query.bad_request"

urlpatterns = [
    path("", include("republic.games.urls")),
    path("chart/", chart_reference, name="chart"),
    path("charts/", club_charts, name="club_charts"),
    path("charts/<int:chart_id>/", club_chart, name="club_chart"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
    path("manifest.webmanifest", manifest, name="manifest"),
    path("worker.js", worker, name="worker"),
]
