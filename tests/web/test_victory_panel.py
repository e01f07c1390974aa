"""The play page's victory panel (issue #19 deliver 1)."""

import pytest
from django.urls import reverse

from tests.conftest import create_peru_game

pytestmark = pytest.mark.django_db


def test_the_play_page_shows_how_each_side_wins(client, people_peru):
    """Issue #19 deliver 1: the victory panel, the reader's own side first, with the distance."""
    game = people_peru
    client.force_login(game.people.student_b)
    page = client.get(reverse("web:play", args=[game.session.pk])).content.decode()
    assert "How each side wins" in page
    panel = page.split("How each side wins")[1].split("</section>")[0]
    # Shining Path (student_b's seat) first; Political Will 13 at setup: 11 to go to 2, 4 to go below 10
    assert panel.index("Shining Path") < panel.index("Government")
    assert "Political Will is 13: 11 to go" in panel and "Political Will is 13: 4 to go" in panel
    assert "met now" in panel  # above 10 holds at the start (7.0.2)


@pytest.fixture
def people_peru(people):
    return create_peru_game(people)
