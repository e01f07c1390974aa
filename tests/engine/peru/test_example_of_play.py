"""8.0 Example of Play, replayed step by step (reference: example-of-play.md).

Every checkpoint of the rulebook example is asserted. The rulebook says Political Will ends
at 7; its own terms (-3 -1 -1 +2 +2 = -1 from 10) give 9, which is what the rules produce
(docs/rules-notes/peru.md, erratum 1).
"""

from __future__ import annotations

from .conftest import Game

GOV, SP = "government", "shining_path"


def setup_checkpoint(g: Game) -> None:
    g.assert_space("lima", "T7 P4 Gu1", "AS", "GOV")
    for s in ("piura", "ancash", "arequipa"):
        g.assert_space(s, "T1 P2", "AS", "GOV")
    for s in ("amazonas", "huanuco", "puno"):
        g.assert_space(s, "P1", "N", "GOV")
    g.assert_space("junin", "P2 Gu1 D1", "PO", "-")
    g.assert_space("cusco", "P2 Gu1 B1", "PO", "-")
    g.assert_space("ayacucho", "P3 Gu3 B1", "AO", "SP", ez=True)
    assert g.tracks() == (13, 20, 10, 0)
    assert g.state["avail"] == {"T": 6, "P": 0, "R": 10, "G": 14, "B": 1}
    assert g.state["dbox"] == 1
    assert g.state["elig"] == [SP, GOV]
    assert g.state["president"] == "P37"


def test_8_0_example_of_play_full_replay(example):
    g = example
    setup_checkpoint(g)
    assert g.state["card"] == "P36"

    # ---- card 1: P36 -- SP Rally + Govern, Government Limited Sweep
    g.do(SP, "box:op_sa", "op:rally")
    for s in ("loreto", "ucayali", "madre_de_dios", "amazonas", "huanuco", "puno", "lima"):
        g.do(SP, f"space:{s}", "rally:1")
    for s in ("junin", "cusco"):
        g.do(SP, f"space:{s}", "rally:2")
    assert g.tracks() == (11, 20, 1, 0)
    assert g.state["avail"]["G"] == 3
    g.do(SP, "sa:govern", "space:loreto", "space:cusco", "govern:res")
    assert g.tracks() == (11, 20, 4, 0)
    g.do(SP, "done")
    assert set(g.choices()) == {"box:limited_op", "box:event"}
    g.do(GOV, "box:limited_op", "op:sweep", "space:ayacucho")
    g.do(GOV, *["move:lima"] * 5, "move:arequipa", "done")
    assert g.tracks() == (12, 18, 4, 0)
    assert g.state["elig"] == [GOV, SP]
    g.assert_space("lima", "T2 P4 Gu2", "AS", "GOV")
    g.assert_space("arequipa", "P2", "AS", "GOV")
    for s in ("amazonas", "huanuco", "puno"):
        g.assert_space(s, "P1 Gu1", "N", "-")
    g.assert_space("junin", "P2 Gu3 D1", "PO", "SP")
    g.assert_space("cusco", "P2 Gu2 Ga1 B1", "N", "SP")
    g.assert_space("ayacucho", "T6 P3 Ga3 B1", "AO", "GOV", ez=True)
    g.assert_space("loreto", "Ga1", ctl="SP")
    g.assert_space("ucayali", "Gu1", ctl="SP")
    g.assert_space("madre_de_dios", "Gu1", ctl="SP")

    # ---- card 2: P9 -- Government Assault + Reprisal; SP takes the Event (bottom)
    assert g.state["card"] == "P9"
    g.do(GOV, "box:op_sa", "op:assault", "sa:reprisal", "space:ayacucho", "to:cusco")
    g.assert_space("ayacucho", "T6 P3 Ga2 B1", "PO", "GOV", ter=1)
    g.do(GOV, "space:ayacucho", "done")
    g.assert_space("ayacucho", "T6 P3", "PO", "GOV", ter=1)
    g.assert_space("cusco", "P2 Gu2 Ga2 B1", "N", "SP")
    assert g.tracks() == (12, 16, 4, 0)
    assert g.state["avail"]["G"] == 5 and g.state["avail"]["B"] == 2
    g.do(SP, "box:event", "event:bottom")
    assert g.state["caps"] == {"P9": "bottom"}
    assert g.state["elig"] == [SP, GOV]

    # ---- card 3: P8 -- SP Terror + Govern; Government Event (top)
    assert g.state["card"] == "P8"
    g.do(SP, "box:op_sa", "op:terror")
    for s in ("junin", "amazonas", "huanuco", "cusco", "puno", "lima"):
        g.do(SP, f"space:{s}")
    assert g.tracks() == (12, 16, 3, 0)
    assert g.state["avail"]["R"] == 5
    g.do(SP, "sa:govern", "space:junin", "govern:res", "space:cusco", "govern:rondas", "done")
    assert g.tracks() == (12, 16, 5, 0)
    g.do(GOV, "box:event", "event:top", "yes")
    assert g.tracks() == (12, 16, 5, 2)
    assert g.state["elig"] == [GOV, SP]
    g.assert_space("lima", "T2 P2 Gu1 Ga1", "PS", "GOV", ter=1)
    for s in ("amazonas", "huanuco", "puno"):
        g.assert_space(s, "P1 Ru1 Ga1", "PO", "-", ter=1)
    g.assert_space("junin", "P2 Ru1 Gu1 Ga2 D1", "PO", "SP", ter=1)
    g.assert_space("cusco", "P2 Ga4 B1", "PO", "SP", ter=1)
    g.assert_space("ayacucho", "T6 P3", "PO", "GOV", ter=1)
    assert g.state["avail"] == {"T": 6, "P": 2, "R": 6, "G": 5, "B": 2}

    # ---- card 4: P12 -- Government Train + Organize; SP passes
    assert g.state["card"] == "P12"
    g.do(GOV, "box:op_sa", "op:train", "sa:organize", "space:ayacucho", "org:activate")
    g.assert_space("ayacucho", "T6 P3", "PO", "GOV", ter=0)
    g.do(GOV, "space:lima", *["place:T"] * 4, "place:P", "place:P")
    g.do(GOV, "civic:ayacucho", "civic:shift", "done", "done")
    assert g.tracks() == (12, 12, 5, 2)
    g.do(SP, "box:limited_op", "pass")
    assert g.tracks() == (12, 12, 6, 2)
    assert g.state["elig"] == [SP, GOV]
    g.assert_space("lima", "T6 P4 Gu1 Ga1", "PS", "GOV", ter=1)
    g.assert_space("ayacucho", "T6 P3", "N", "GOV", ter=0, ez=True)
    assert g.state["avail"]["T"] == 2 and g.state["avail"]["P"] == 0

    # ---- card 5: P33 -- SP March + Evade; Government Limited Patrol
    assert g.state["card"] == "P33"
    g.do(SP, "box:op_sa", "op:march", "space:loc_lima_ucayali", "move:ucayali:u", "done")
    g.do(SP, "space:arequipa", "move:cusco:a", "move:cusco:a", "move:puno:a", "done")
    assert g.tracks() == (10, 12, 5, 2)
    g.assert_space("loc_lima_ucayali", "Gu1")
    g.assert_space("arequipa", "P2 Ga3", "AS", "SP")
    g.assert_space("puno", "P1 Ru1", "PO", "GOV")
    g.assert_space("ucayali", "", ctl="-")
    g.do(SP, "sa:evade", "space:amazonas", "to:piura", "hunt:a")
    assert g.tracks() == (10, 12, 5, 1)
    g.do(SP, "done")
    g.assert_space("amazonas", "P1 Ru1", "PO", "GOV")
    g.assert_space("piura", "T1 P2 Gu1", "AS", "GOV")
    g.do(GOV, "box:limited_op", "op:patrol", "from:lima", "cube:T", "to:loc_lima_ucayali")
    g.do(GOV, "from:lima", "cube:T", "to:loc_lima_ucayali", "done", "assault:loc_lima_ucayali")
    assert g.tracks() == (10, 10, 5, 1)
    assert g.state["elig"] == [GOV, SP]
    g.assert_space("lima", "T4 P4 Gu1", "PS", "GOV", ter=1)
    g.assert_space("loc_lima_ucayali", "T2")
    g.assert_space("huanuco", "P1 Ru1 Ga1", "PO", "-", ter=1)
    g.assert_space("cusco", "P2 Ga2 B1", "PO", "SP", ter=1)
    assert g.state["avail"] == {"T": 2, "P": 0, "R": 6, "G": 7, "B": 2}

    # ---- card 6: P18 -- Government Train + Investigate; SP Limited Attack
    assert g.state["card"] == "P18"
    g.do(GOV, "box:op_sa", "op:train", "sa:investigate")
    assert g.tracks() == (10, 10, 5, 2)
    assert "lima:roll" not in g.choices()  # President Belaunde (P37)
    g.do(GOV, "lima:activate")
    g.assert_space("lima", "T4 P3 Ga1")
    g.do(GOV, "space:lima", "place:T", "place:T", "place:P", "done")
    g.do(GOV, "civic:ayacucho", "civic:shift", "done", "done")
    assert g.tracks() == (10, 6, 5, 2)
    g.do(SP, "box:limited_op", "op:attack", "space:arequipa", "kill:P", "kill:P")
    # the Limited Attack (1 Resource: 5 -> 4) ends by itself after its one space (2.3.4); the
    # Propaganda card is revealed next and DIRCOTE rolls at once (Hunt 2 -> 3)
    assert g.tracks() == (10, 6, 4, 3)
    assert g.state["elig"] == [SP, GOV]
    g.assert_space("lima", "T6 P4 Ga1", "PS", "GOV", ter=1)
    g.assert_space("arequipa", "Ga3", "AS", "SP")
    g.assert_space("ayacucho", "T6 P3", "PS", "GOV", ez=True)
    assert g.state["avail"] == {"T": 0, "P": 2, "R": 6, "G": 7, "B": 2}

    # ---- card 7: P38 -- Propaganda Round
    assert g.state["card"] == "P38" and g.state["president"] == "P38"
    assert g.tracks() == (10, 6, 4, 3)            # DIRCOTE roll 3 beats box 3 (2)
    assert g.state["d_revealed"] is True
    g.do(SP, "op:attack", "space:junin", "sa:ambush", "kill:P", "kill:Ru")
    g.assert_space("junin", "P1 Gu1 Ga3 D1", ctl="SP")
    n = len(g.facts)
    # each free Limited Operation ends by itself after its one space (2.3.4)
    g.do(SP, "op:rally", "space:huanuco", "rally:1")
    first_pw = [f for f in g.facts[n:] if f.get("track") == "political_will"][0]
    assert "Huánuco" in str(first_pw["why"]) and first_pw["value"] == 9   # Rally: SP Control, Will 10 -> 9
    # Rondas React (2 Amazonas, 1 Huanuco, 4 Puno), Political Will, Resources ran automatically
    g.assert_space("huanuco", "P1 Ra1 Gu1 Ga1", "N", "-")
    pw_facts = [f for f in g.facts if f.get("track") == "political_will" and "Political Will Phase" in str(f.get("why", ""))]
    assert pw_facts[-1]["delta"] == -1
    assert pw_facts[-1]["terms"] == {"andean": -3, "bases": -1, "terror": -1, "lima_support": 2,
                                     "emergency_zones": 2}
    assert g.tracks() == (9, 20, 11, 3)           # erratum: the rulebook's "7" is an arithmetic slip
    g.do(GOV, "civic:ayacucho", "done")
    g.do(SP, "agitate:arequipa", "agitate:arequipa", "done")
    assert g.tracks() == (9, 18, 9, 3)
    g.do(GOV, "move:loc_lima_ucayali:lima", "move:loc_lima_ucayali:lima", "done")
    assert not g.space("ayacucho")["ez"]
    g.do(GOV, "ez:huanuco", "ez:junin", "ez:cusco", "done")
    g.do(SP, "swap:cusco")

    # ---- final checkpoint C7 (after Reset; the next card is face up)
    g.assert_space("lima", "T8 P4 Gu1", "PS", "GOV", ter=0)
    g.assert_space("piura", "T1 P2 Gu1", "AS", "GOV")
    g.assert_space("ancash", "T1 P2", "AS", "GOV")
    g.assert_space("arequipa", "Gu3", "N", "SP")
    g.assert_space("amazonas", "P1 Ru1", "PO", "GOV", ter=0)
    g.assert_space("huanuco", "P1 Ra1 Gu2", "N", "-", ez=True)
    g.assert_space("puno", "P1 Ru1", "PO", "GOV")
    g.assert_space("junin", "P1 Gu4 B1", "PO", "SP", ez=True)
    g.assert_space("cusco", "P2 Gu2 D1", "PO", "SP", ez=True)
    g.assert_space("ayacucho", "T6 P3", "AS", "GOV", ez=False)
    g.assert_space("loreto", "Gu1", ctl="SP")
    g.assert_space("madre_de_dios", "Gu1", ctl="SP")
    g.assert_space("ucayali", "", ctl="-")
    for loc in ("loc_lima_ucayali", "loc_lima_piura", "loc_lima_arequipa", "loc_arequipa_cusco"):
        g.assert_space(loc, "")
    assert all(sp["ter"] == 0 and sp["sab"] == 0 for sp in g.state["s"].values())
    assert g.tracks() == (9, 18, 9, 3)
    assert g.state["avail"] == {"T": 0, "P": 3, "R": 7, "G": 5, "B": 2}
    assert g.state["dbox"] == 1
    assert g.state["caps"] == {"P9": "bottom"}
    assert g.state["elig"] == [SP, GOV]
    assert g.state["president"] == "P38"
    assert len(g.state["played"]) == 8 and g.state["card"] not in ("P36", "P9", "P8", "P12", "P33", "P18")
    # the Government view hides the Directives Base again after the swap
    v = g.rules.view(g.state, GOV)
    assert v["directives_base"] is None and "directives_base" not in v["spaces"]["cusco"]
    assert g.rules.view(g.state, SP)["directives_base"] == "cusco"


def test_8_0_political_will_trace_names_every_cause(example):
    """Every Political Will change in the example names its cause (metrics for the AAR)."""
    g = example
    g.do(SP, "box:op_sa", "op:rally")
    for s in ("loreto", "ucayali", "madre_de_dios", "amazonas", "huanuco", "puno", "lima"):
        g.do(SP, f"space:{s}", "rally:1")
    for s in ("junin", "cusco"):
        g.do(SP, f"space:{s}", "rally:2")
    pw = [f for f in g.facts if f.get("track") == "political_will"]
    assert [f["delta"] for f in pw] == [-1, -1]
    assert all("Control" in str(f["why"]) for f in pw)
    assert pw[-1]["value"] == 11
