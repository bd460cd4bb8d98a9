from django.urls import path

from referee import views

urlpatterns = [
    path("judge/", views.judge, name="judge"),
]
