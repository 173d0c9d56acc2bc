from django.contrib import admin
from django.urls import path
from django.views.generic import RedirectView

from republic.charts.views import chart_reference

urlpatterns = [
    path("", RedirectView.as_view(pattern_name="chart"), name="home"),
    path("chart/", chart_reference, name="chart"),
    path("admin/", admin.site.urls),
]
