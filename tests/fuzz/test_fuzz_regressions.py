"""Server errors the API fuzzing found, kept as plain tests."""


def test_out_of_range_integers_are_refused_not_500(peru_session, api_for):
    c = api_for("instructor")
    r = c.post(f"/api/courses/{peru_session.course.pk}/join-codes/", {"max_uses": 2**40}, format="json")
    assert r.status_code == 400 and r.json()["error"] == "invalid"
    r = c.patch(f"/api/sessions/{peru_session.session.pk}/", {"decision_timer_seconds": 2**40}, format="json")
    assert r.status_code == 400 and r.json()["error"] == "invalid"
