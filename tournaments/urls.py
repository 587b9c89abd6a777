"""The pages of the registry: the list of competitions (the home page). A competition's own
pages are pages of play (`scoring.urls`).
"""

from django.urls import path

from tournaments import views

urlpatterns = [
    path("", views.competition_list, name="competition_list"),
]
