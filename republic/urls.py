from django.contrib import admin
from django.urls import include, path

from republic.charts.views import chart_reference

urlpatterns = [
    path("", include("republic.games.urls")),
    path("chart/", chart_reference, name="chart"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
]
