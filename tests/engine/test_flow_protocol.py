"""engine/core/flow.py: a decision kind's ``auto`` entry step (True: it moved play on, False: the
frame asks), the ``idle`` and ``done`` hooks and the ``pick`` answer for frames ``auto_ok``
accepts (the protocol Andean Abyss's frames run on, issue 15); named stacks, a sequence of play
of automatic steps with ``cause_after`` and ``stamp`` (Tears of Tyranny, issue 16.9)."""

from __future__ import annotations

from engine.core.contract import Choice, fact
from engine.core.flow import Ask, Flow, FrameKind, pop, push
from engine.core.messages import msg


def _flow(log):
    def ask(state, fr):
        return Ask("blue", msg("How many?"), "1.1", [Choice("one", msg("One")), Choice("two", msg("Two"))])

    def act(state, fr, cid, facts):
        fr["n"] += 1 if cid == "one" else 2
        facts.append(fact("note", msg("Counted.")))

    def auto(state, fr, facts):
        log.append(("auto", fr["n"]))
        if fr["n"] >= 3:
            pop(state, fr)
            state["rounds"] += 1
            return True
        return False

    def idle(state, facts):
        push(state, {"k": "count", "n": 0, "np": state["rounds"] == 1})

    return Flow([FrameKind("count", ask=ask, act=act, auto=auto, never_empty=True)], idle=idle,
                done=lambda state: state["rounds"] >= 2, auto_ok=lambda state, fr: fr["np"],
                pick=lambda state, fr: "two")


def test_entry_step_runs_on_entry_and_after_each_answer_and_ends_the_frame():
    log: list = []
    flow = _flow(log)
    state, facts = {"stack": [], "rounds": 0}, []
    flow.settle(state, facts)                         # idle pushes a frame; its entry step asks
    assert state["stack"][-1]["n"] == 0 and log == [("auto", 0)]
    assert [c.id for c in flow.ask(state).choices] == ["one", "two"]
    flow.act(state, "one", facts, "blue")             # still below 3: it asks again
    assert state["stack"][-1]["n"] == 1 and log[-1] == ("auto", 1)
    flow.act(state, "two", facts, "blue")             # 3: the entry step ends it; idle pushes the
    # next frame, which auto_ok hands to pick ("two", "two": 4), until done stops the loop
    assert state["rounds"] == 2 and log[-3:] == [("auto", 0), ("auto", 2), ("auto", 4)]
    # the seat's answers are its decisions; the picked ones are left to the game to attribute
    assert [f.get("cause", {}).get("kind") for f in facts] == ["decision", "decision", None, None]


def test_a_kind_without_a_rule_leaves_its_automatic_facts_uncaused():
    def auto(state, fr, facts):
        pop(state, fr)
        facts.append(fact("note", msg("Counted.")))

    flow = Flow([FrameKind("tally", auto=auto), FrameKind("scored", auto=auto, rule="6.1", title=msg("Score"))])
    state, facts = {"stack": [{"k": "tally"}, {"k": "scored"}]}, []
    flow.settle(state, facts)
    assert facts[0]["cause"] == {"kind": "rule", "rule": "6.1", "step": msg("Score")}
    assert not facts[1].get("cause")


def _named_flow():
    """Two seats, each with its own stack (``state["frames"][seat]``), as Tears of Tyranny runs."""
    def ask(state, seat, fr):
        return Ask(seat, msg("How many?"), "1.1", [Choice("one", msg("One")), Choice("done", msg("Done"))])

    def act(state, seat, fr, cid, facts):
        if cid == "done":
            pop_same_stack(state, seat, fr)
            state["frames"][seat].append({"k": "paid"})
        else:
            fr["n"] += 1
            facts.append(fact("note", msg("Counted."), seat=seat))

    def paid(state, seat, fr, facts):
        state["frames"][seat].pop()
        state["paid"].append(seat)
        facts.append(fact("track", msg("Paid."), seat=seat))

    def pop_same_stack(state, seat, fr):
        assert state["frames"][seat][-1] is fr
        state["frames"][seat].pop()

    return Flow([FrameKind("count", ask=ask, act=act, never_empty=True),
                 FrameKind("paid", auto=paid, rule="3.B", title=msg("Gain resources"))],
                stack=lambda state, seat: state["frames"][seat])


def test_named_stacks_run_each_seat_on_its_own_stack_and_pass_the_seat_to_the_kinds():
    flow = _named_flow()
    state = {"frames": {"red": [{"k": "count", "n": 0}], "blue": [{"k": "count", "n": 0}]}, "paid": []}
    facts: list = []
    assert flow.ask(state, "red").seat == "red" and flow.ask(state, "blue").seat == "blue"
    flow.act(state, "one", facts, "blue", at="blue")      # only blue's stack moves
    assert state["frames"]["blue"][-1]["n"] == 1 and state["frames"]["red"][-1]["n"] == 0
    assert facts[-1]["seat"] == "blue" and facts[-1]["cause"] == {"kind": "decision", "seat": "blue",
                                                                  "choice": "one"}
    # answer without settling: blue's automatic step waits until the game settles that stack
    flow.answer(state, "done", facts, "blue", at="blue")
    assert state["frames"]["blue"] == [{"k": "paid"}] and state["paid"] == []
    flow.settle(state, facts, "blue")
    assert state["frames"]["blue"] == [] and state["paid"] == ["blue"]
    assert facts[-1]["cause"] == {"kind": "rule", "rule": "3.B", "step": msg("Gain resources")}
    assert flow.top(state, "blue") is None and flow.ask(state, "blue") is None
    assert flow.top(state, "red") == {"k": "count", "n": 0}


def _sequence_flow():
    """A sequence of play on the protocol, as Tears of Tyranny's adversary phase runs: automatic
    steps on a stack of their own, the next phase pushed by ``idle``, a step whose cause is what
    it revealed (``cause_after``), a step that stops for a player's question and runs again once
    it is answered, and the game's own way of stamping causes (``stamp``)."""
    def draw(state, at, fr, facts):
        state["seq"].pop()
        state["drawn"] = state["deck"].pop(0)
        facts.append(fact("event", msg("Drawn."), cause=msg("the card's own reason")))

    def drawn_cause(state, at, fr):
        return {"kind": "event", "event": state["drawn"]}

    def strike(state, at, fr, facts):
        if not fr.get("asked"):
            state["questions"].append("shield?")
            return                              # the frame stays: it runs again after the answer
        state["seq"].pop()
        facts.append(fact("note", msg("Struck.")))

    def next_phase(state, facts):
        state["phases"] += 1
        state["seq"].extend([{"k": "strike"}, {"k": "draw"}])

    def keep_reason(facts, cause, start):
        for f in facts[start:]:
            c = f.get("cause")
            f["cause"] = cause if c is None else (c if isinstance(c, dict) and "kind" in c else {**cause, "because": c})

    return Flow([FrameKind("draw", auto=draw, cause=drawn_cause, cause_after=True),
                 FrameKind("strike", auto=strike, rule="3.F", title=msg("Strike"))],
                idle=next_phase, done=lambda state: bool(state["questions"]) or state["phases"] > 1,
                stack=lambda state, at: state["seq"], stamp=keep_reason)


def test_a_sequence_of_play_runs_its_steps_stops_at_a_question_and_resumes_the_step():
    flow = _sequence_flow()
    state = {"seq": [], "deck": ["c7", "c8"], "phases": 0, "questions": []}
    facts: list = []
    flow.settle(state, facts)
    # idle pushed the phase's steps; the draw ran and its cause is the card it drew (after the step)
    assert facts[0]["cause"] == {"kind": "event", "event": "c7", "because": msg("the card's own reason")}
    # the strike stopped at a question and is still on the stack, under it
    assert state["questions"] == ["shield?"] and state["seq"] == [{"k": "strike"}]
    state["questions"].clear()
    flow.top(state)["asked"] = True
    flow.settle(state, facts)
    assert facts[1]["cause"] == {"kind": "rule", "rule": "3.F", "step": msg("Strike")}
    # the stack emptied: idle began the next phase, and done stopped the loop before its steps
    assert state["phases"] == 2 and state["seq"] == [{"k": "strike"}, {"k": "draw"}] and len(facts) == 2
