"""Peru's glossary and rule summaries (contract v2 ``Rules.glossary``, issue #19 deliver 1).

The terms a student meets on the play page, and one short summary per rulebook section the
prompts and choices cite, in the project's own words (facts of the game, not the rulebook's
text). Every text is a message, so the catalogs hold it in every language.
"""

from __future__ import annotations

from engine.core.glossary import Glossary, RuleSummary, Term
from engine.core.messages import msg

#: the words that name a piece's state on the page (a lone "Active" is also a Spanish verb)
UNDERGROUND_ACTIVE = (
    msg("Underground Guerrilla"),
    msg("Active Guerrilla"),
    msg("Underground Rondas"),
    msg("Active Rondas"),
)

TERMS = (
    Term("political-will", msg("Political Will"),
         msg("How much the country still backs the fight against the insurgency, from 0 to 20. The Government wins "
             "when it reaches 18 or more at a Political Will Phase, the Shining Path when it falls to 2 or less."),
         "1.10"),
    Term("support", msg("Support"),
         msg("A populated space's attitude toward the Government: Active or Passive Support, Neutral, or Passive or "
             "Active Opposition. Civic Action moves it toward Support, Terror and Agitate toward Opposition."),
         "1.6", also=(msg("Active Support"), msg("Passive Support"), msg("Neutral"))),
    Term("opposition", msg("Opposition"),
         msg("The opposite of Support: the people of a space side against the Government. Highland Population at "
             "Opposition lowers Political Will at Propaganda."),
         "1.6", also=(msg("Active Opposition"), msg("Passive Opposition"))),
    Term("control", msg("Control"),
         msg("A side controls a space when its pieces there outnumber all the other side's pieces. Control decides "
             "where some Operations and Special Activities may act."),
         "1.7"),
    Term("resources", msg("Resources"),
         msg("Each side's money, from 0 to 20, spent on Operations and Civic Action or Agitate; earned at the "
             "Resources Phase and by passing."),
         "1.8"),
    Term("underground", msg("Underground / Active"),
         msg("A Guerrilla or a Rondas is Underground (hidden, drawn with a dashed outline) or Active (exposed). "
             "Only Active Guerrillas can be removed by an Assault; Sweep and Patrol Activate them."),
         "1.4.3", also=UNDERGROUND_ACTIVE),
    Term("troop", msg("Troops (T)"), msg("Government army cubes: they Sweep, Assault and hold Control."), "1.4",
         also=(msg("Troop"), msg("Troops")), letters=("T",)),
    Term("police", msg("Police (P)"),
         msg("Government police cubes: they Patrol the roads and cities and count toward Control."), "1.4",
         also=(msg("Police"),), letters=("P",)),
    Term("base", msg("Base (B)"),
         msg("A Shining Path stronghold: Guerrillas Rally around it, and it must be removed last in an Assault. One "
             "Base may secretly be the Guzman Directives Base."),
         "1.4", also=(msg("Base"), msg("Bases")), letters=("B",)),
    Term("guerrilla", msg("Guerrillas (G)"),
         msg("Shining Path fighters. They Rally, March, Attack and spread Terror, and hide Underground."), "1.4",
         also=(msg("Guerrilla"), msg("Guerrillas")), letters=("G",)),
    Term("rondas", msg("Rondas (R)"),
         msg("Peasant self-defence patrols on the Government's side, placed by Organize; like Guerrillas they are "
             "Underground or Active."),
         "1.4", also=(msg("Rondas"),), letters=("R",)),
    Term("directives", msg("Guzman Directives Base"),
         msg("The Base where the Shining Path's leader hides. Only the Shining Path knows which Base it is; the "
             "Government hunts for it on the Hunt Track."),
         "1.4.4", also=(msg("Directives"),)),
    Term("hunt-track", msg("Hunt Track"),
         msg("How close the Government is to capturing Guzman. Investigate moves the marker toward Captured, Evade "
             "may move it back."),
         "6.7", also=(msg("Hunt"),)),
    Term("terror", msg("Terror and Sabotage"),
         msg("Markers the Shining Path places: Terror on a Department blocks Civic Action until removed, Sabotage on "
             "a Line of Communication cuts Government income."),
         "1.9", also=(msg("Terror"), msg("Sabotage"))),
    Term("emergency-zone", msg("Emergency Zone"),
         msg("A Highland Department placed under military rule at Propaganda: only there may the Government carry "
             "out Reprisal or Organize."),
         "1.12"),
    Term("loc", msg("Line of Communication (LoC)"),
         msg("A road between spaces. It has no population, but it carries the Government's income and Patrols."),
         "1.3", also=(msg("LoC"), msg("LoCs"))),
    Term("operation", msg("Operation"),
         msg("The main action of a turn: Train, Patrol, Sweep or Assault for the Government; Rally, March, Attack or "
             "Terror for the Shining Path. It usually costs Resources per space."),
         "3.1", also=(msg("Operations"),)),
    Term("limited-operation", msg("Limited Operation"),
         msg("An Operation in one space only, with no Special Activity: what the 2nd Eligible side may do after the "
             "1st took an Event or an Operation and Special Activity."),
         "2.3.4", also=(msg("Limited Op"),)),
    Term("special-activity", msg("Special Activity"),
         msg("An extra action that comes with an Operation (Investigate, Reprisal, Organize for the Government; "
             "Govern, Evade, Ambush for the Shining Path)."),
         "4.1", also=(msg("Special Activities"),)),
    Term("event", msg("Event"),
         msg("The text of the current card. A side may carry out one of its two halves instead of an Operation."),
         "5.0", also=(msg("Events"),)),
    Term("eligible", msg("Eligible"),
         msg("A side that may act on the current card. The 1st Eligible chooses first; what it does limits what the "
             "2nd Eligible may do, and a side that acted is Ineligible on the next card."),
         "2.3.2", also=(msg("1st Eligible"), msg("2nd Eligible"), msg("Ineligible"))),
    Term("initiative-track", msg("Initiative Track"),
         msg("The boxes the Eligible sides take in turn: Event, Operation & Special Activity, Limited Operation."),
         "2.3.2", also=(msg("Operation & Special Activity"),)),
    Term("pass", msg("Pass"),
         msg("Do nothing on this card and gain Resources: the Government 2, the Shining Path 1."), "2.3.3"),
    Term("propaganda-round", msg("Propaganda Round"),
         msg("The scoring round when a Propaganda card comes up: victory checks, Political Will, income, Support "
             "changes, Redeploy and Reset, step by step and mostly automatic."),
         "6.0", also=(msg("Propaganda"),)),
    Term("available", msg("Available"),
         msg("Pieces off the map, ready to be placed. When none is Available, some actions take one from the map "
             "instead."),
         "1.4.1"),
)

RULES = (
    RuleSummary("1.3", msg("The map"),
                msg("Departments (Highland, Coastal, Amazon), Lima and the Lines of Communication between them; each "
                    "space's Population counts for Control and Support.")),
    RuleSummary("1.4", msg("Forces"),
                msg("Government Troops, Police and Rondas; Shining Path Guerrillas and Bases. A side can only place "
                    "pieces it has.")),
    RuleSummary("1.4.1", msg("Available pieces"),
                msg("Pieces are placed from Available. When none is left, you may take one of that kind from "
                    "elsewhere on the map instead.")),
    RuleSummary("1.4.3", msg("Underground and Active"),
                msg("Guerrillas and Rondas enter play Underground; actions Activate them, and only Active ones can "
                    "be removed by Assault.")),
    RuleSummary("1.4.4", msg("The Guzman Directives Base"),
                msg("One Shining Path Base secretly hides Guzman; the Government does not know which until it is "
                    "revealed.")),
    RuleSummary("1.6", msg("Support and Opposition"),
                msg("Each populated space sits on a five-step scale from Active Support to Active Opposition; "
                    "actions shift it one step at a time.")),
    RuleSummary("1.7", msg("Control"),
                msg("The side with more pieces in a space than all others controls it; otherwise no one does.")),
    RuleSummary("1.8", msg("Resources"),
                msg("Each side's Resources run from 0 to 20; costs are paid from them and nothing may cost more than "
                    "a side has.")),
    RuleSummary("1.9", msg("Terror and Sabotage markers"),
                msg("Terror sits in Departments, Sabotage on Lines of Communication; both stay until removed or the "
                    "Reset.")),
    RuleSummary("1.10", msg("Political Will"),
                msg("The Government's staying power, from 0 to 20; it moves at the Political Will Phase and with "
                    "some Events and captures.")),
    RuleSummary("1.12", msg("Emergency Zones"),
                msg("A Highland Department may be declared an Emergency Zone; Reprisal and Organize act only there, "
                    "and some Events add or remove Zones.")),
    RuleSummary("2.3", msg("Sequence of play"),
                msg("On each card the two sides act in turn as 1st and 2nd Eligible, then the next card comes up.")),
    RuleSummary("2.3.2", msg("Eligibility and the Initiative Track"),
                msg("The 1st Eligible picks a box (Event, Operation & Special Activity, or Limited Operation); the "
                    "2nd Eligible picks among the boxes that box leaves open.")),
    RuleSummary("2.3.3", msg("Passing"),
                msg("An Eligible side may pass: it stays Eligible and gains Resources (Government 2, Shining Path "
                    "1).")),
    RuleSummary("2.3.4", msg("Limited Operations"),
                msg("A Limited Operation is one Operation in a single space, with no Special Activity.")),
    RuleSummary("3.1", msg("Operations"),
                msg("Choose an Operation, then the spaces it acts in one by one, paying its cost for each.")),
    RuleSummary("3.2", msg("Government Operations"),
                msg("Train, Patrol, Sweep and Assault: the Government's four ways to act on the map.")),
    RuleSummary("3.2.1", msg("Train and Civic Action"),
                msg("The Government places cubes in Lima and may then spend Resources on Civic Action in one space: "
                    "remove Terror or shift toward Support.")),
    RuleSummary("3.2.2", msg("Patrol"),
                msg("Government cubes move along roads and Coastal Departments, Activate Guerrillas on Lines of "
                    "Communication, and may Assault one of them.")),
    RuleSummary("3.2.3", msg("Sweep"),
                msg("Troops move into chosen spaces and Activate Underground Guerrillas there.")),
    RuleSummary("3.2.4", msg("Assault"),
                msg("Troops remove Active Guerrillas, and Bases once no Guerrilla is left, in each chosen space.")),
    RuleSummary("3.3", msg("Shining Path Operations"),
                msg("Rally, March, Attack and Terror: the Shining Path's four ways to act on the map.")),
    RuleSummary("3.3.1", msg("Rally"),
                msg("The Shining Path places Guerrillas, trades two of them for a Base, or flips its Guerrillas "
                    "Underground where it has a Base.")),
    RuleSummary("3.3.2", msg("March"),
                msg("Guerrillas move into adjacent spaces; they may become Active when they enter a space with many "
                    "Government pieces.")),
    RuleSummary("3.3.3", msg("Attack"),
                msg("Guerrillas in a space with Government pieces roll a die; a roll up to their number removes up to "
                    "two Government pieces.")),
    RuleSummary("3.3.4", msg("Terror"),
                msg("An Underground Guerrilla becomes Active to place Terror (or Sabotage on a road) and shift the "
                    "space toward Opposition.")),
    RuleSummary("4.0", msg("Special Activities"),
                msg("Each side has three Special Activities; one may go with an Operation when the side took the "
                    "Operation & Special Activity box.")),
    RuleSummary("4.1", msg("Special Activities"),
                msg("With an Operation & Special Activity, a side adds one Special Activity before, during or after "
                    "its Operation.")),
    RuleSummary("4.2.1", msg("Investigate"),
                msg("The Government rolls on the Hunt Track to close in on Guzman.")),
    RuleSummary("4.2.2", msg("Reprisal"),
                msg("In Emergency Zones with Troops, the Government places Terror, shifts the space to Neutral and "
                    "drives Guerrillas out.")),
    RuleSummary("4.2.3", msg("Organize"),
                msg("In an Emergency Zone the Government places Rondas, or Activates them and removes Terror.")),
    RuleSummary("4.3.1", msg("Govern"),
                msg("In Departments it controls, the Shining Path gains Resources or removes an Underground "
                    "Rondas.")),
    RuleSummary("4.3.2", msg("Evade"),
                msg("A Guerrilla slips to an adjacent space and goes Underground; a roll may move the Hunt marker "
                    "back.")),
    RuleSummary("4.3.3", msg("Ambush"),
                msg("In one Attack space, the Shining Path removes Government pieces without rolling.")),
    RuleSummary("5.0", msg("Events"),
                msg("The card's text is carried out as written, top or bottom half; it may grant free "
                    "Operations.")),
    RuleSummary("5.3", msg("Capabilities"),
                msg("Some Events stay in force for the rest of the game and change how an Operation works.")),
    RuleSummary("5.4", msg("Free Operations"),
                msg("An Event may grant an Operation or Special Activity that costs nothing and does not change "
                    "Eligibility.")),
    RuleSummary("6.0", msg("Propaganda Round"),
                msg("When a Propaganda card comes up the game pauses to score: Conflict, Political Will, Resources, "
                    "Support, Redeploy and Reset, in that order.")),
    RuleSummary("6.1", msg("Conflict Phase"),
                msg("The Hunt, Guzman's Directives and the Rondas' reaction happen automatically.")),
    RuleSummary("6.1.2", msg("Guzman Directives"),
                msg("The Shining Path's hidden leader acts from the Directives Base; his orders are carried out "
                    "here.")),
    RuleSummary("6.2", msg("Political Will Phase"),
                msg("Political Will rises or falls with Support, Opposition and Control of the population; very high "
                    "or very low Will ends the game.")),
    RuleSummary("6.3", msg("Resources Phase"),
                msg("Both sides earn income from the spaces and roads they hold.")),
    RuleSummary("6.4", msg("Support Phase"),
                msg("The Government buys Civic Action, then the Shining Path buys Agitation, one space at a time.")),
    RuleSummary("6.4.1", msg("Civic Action"),
                msg("The Government pays 2 Resources per step to remove Terror or shift a space it controls toward "
                    "Active Support.")),
    RuleSummary("6.4.2", msg("Agitation"),
                msg("The Shining Path pays 1 Resource per step to remove Terror or shift a space toward Active "
                    "Opposition.")),
    RuleSummary("6.5", msg("Redeploy"),
                msg("Government Troops leave roads and Shining Path Departments; Police may move; Emergency Zones are "
                    "placed.")),
    RuleSummary("6.5.1", msg("Redeploy Phase"),
                msg("Troops that must leave Lines of Communication and Shining Path spaces are moved; the Police may "
                    "move too.")),
    RuleSummary("6.5.2", msg("Emergency Zones"),
                msg("The Government may place Emergency Zones in Highland Departments that hold Shining Path "
                    "pieces.")),
    RuleSummary("6.5.3", msg("Directives Base swap"),
                msg("The Shining Path may secretly move Guzman to another of its Bases.")),
    RuleSummary("6.6", msg("Reset"),
                msg("Terror and Sabotage are removed, Guerrillas go Underground and every side becomes Eligible.")),
    RuleSummary("6.7", msg("Hunting Guzman"),
                msg("The Hunt marker moves toward Captured with Investigate rolls; capturing Guzman raises "
                    "Political Will by 5 and removes half the Guerrillas in each space.")),
    RuleSummary("7.0", msg("Victory"),
                msg("Political Will decides: 18 or more wins for the Government, 2 or less for the Shining Path, "
                    "otherwise the last Propaganda settles it.")),
)

GLOSSARY = Glossary(TERMS, RULES)
