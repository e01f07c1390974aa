"""Join codes a class can read aloud (issue #19 deliver 4): one case, no look-alike characters."""

import pytest

from facilitation import services
from facilitation.models import (
    JOIN_CODE_ALPHABET,
    JOIN_CODE_LENGTH,
    JoinCode,
    format_join_code,
    new_join_code,
    normalize_join_code,
)


def test_new_codes_avoid_look_alike_characters_and_mixed_case():
    codes = [new_join_code() for _ in range(300)]
    joined = "".join(codes)
    assert not set(joined) & set("0O1IL") and joined == joined.upper()
    assert all(len(c) == JOIN_CODE_LENGTH and set(c) <= set(JOIN_CODE_ALPHABET) for c in codes)
    assert len(set(codes)) == len(codes)


def test_codes_are_shown_in_groups_and_read_back_however_typed():
    code = "ABCDEFGHJKMN"
    assert format_join_code(code) == "ABCD-EFGH-JKMN"
    for typed in ("ABCD-EFGH-JKMN", "abcd efgh jkmn", " abcdefghjkmn ", "Abcd-efgh-JKMN"):
        assert normalize_join_code(typed) == code
    # Codes made before (mixed case, - and _) stay exactly as they were.
    old = "aZ-3_kQ9xP0w"
    assert normalize_join_code(old) == old and format_join_code(old) == old


@pytest.mark.django_db
def test_a_student_joins_with_the_code_as_read_aloud(people, client):
    course = services.course_create(user=people.instructor, title="COIN 101")
    jc = services.join_code_create(course=course, user=people.instructor)
    assert set(jc.code) <= set(JOIN_CODE_ALPHABET)
    typed = jc.display.lower().replace("-", " ")
    joined = services.course_join(user=people.student_a, code=typed)
    assert joined.pk == jc.pk
    assert course.students.filter(pk=people.student_a.pk).exists()
    # The join form takes it the same way and lands on the code's page.
    client.force_login(people.student_b)
    r = client.get("/join/", {"code": typed})
    assert r.status_code == 302 and r.url.endswith(f"/join/{jc.code}/")
    assert client.get(f"/join/{jc.display}/").status_code == 200
    assert JoinCode.objects.get(pk=jc.pk).uses == 1
