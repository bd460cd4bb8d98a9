from django.urls import path

from scorekeeper import views
from scorekeeper.api import api

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("api/", api.urls),
]
