"""An Andean Abyss session on the platform for the Non-player tests: Government and FARC teams,
the AUC and Cartels Non-players run by the section-8 bots (1.5)."""

from __future__ import annotations

from facilitation import selectors, services


def aa_session(people, seed=5):
    """Government and FARC teams, the AUC and Cartels Non-players run by section-8 bots (1.5)."""
    course = services.course_create(user=people.instructor, title="COIN 201")
    session = services.session_create(
        course=course, user=people.instructor, title="Andean Abyss lab", scenario_key="andean_abyss",
        seed=seed, options={"players": 2, "spare": "nonplayer"}, teams=["Team A", "Team B"],
        seats={"govt": "Team A", "farc": "Team B"})
    team_a, team_b = session.teams.order_by("id")
    services.team_member_add(team=team_a, user=people.instructor, member=people.student_a)
    services.team_member_add(team=team_b, user=people.instructor, member=people.student_b)
    return services.session_start(session=session, user=people.instructor)


def human_moves(session, people, n):
    """The two teams answer ``n`` prompts (Pass when they may, else the first choice)."""
    owners = {"govt": people.student_a, "farc": people.student_b}
    for _ in range(n):
        session.refresh_from_db()
        rules, state = selectors.session_state(session)
        p = rules.prompt(state)
        if p is None:
            return
        seat = next((s for s in p.seats if s in owners), None)
        if seat is None:
            return
        ids = [c.id for c in p.choices_for(seat)]
        cid = "pass" if "pass" in ids else ("done" if "done" in ids else ids[0])
        services.choice_submit(session=session, user=owners[seat], seat=seat, choice=cid,
                               seq=session.head_seq, idempotency_key="")
