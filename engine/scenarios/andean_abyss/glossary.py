"""Andean Abyss's glossary and rule summaries (contract v2 ``Rules.glossary``, issue #19 deliver 1).

The terms a student meets on the play page, and one short summary per rulebook section the
prompts cite, in the project's own words (facts of the game, not the rulebook's text). Every
text is a message, so the catalogs hold it in every language.
"""

from __future__ import annotations

from engine.core.glossary import Glossary, RuleSummary, Term
from engine.core.messages import msg

#: the words that name a piece's state on the page (a lone "Active" is also a Spanish verb)
UNDERGROUND_ACTIVE = (
    msg("Underground FARC Guerrilla"),
    msg("Active FARC Guerrilla"),
    msg("Underground AUC Guerrilla"),
    msg("Active AUC Guerrilla"),
    msg("Underground Cartels Guerrilla"),
    msg("Active Cartels Guerrilla"),
)

TERMS = (
    Term("factions", msg("Factions"),
         msg("The four sides: the Government, the FARC guerrillas, the AUC paramilitaries and the drug Cartels. "
             "Each has its own pieces, Resources and way to win."),
         "1.5", also=(msg("Faction"),)),
    Term("support", msg("Support"),
         msg("A populated space's attitude toward the Government: Active or Passive Support, Neutral, or Passive or "
             "Active Opposition. Total Support decides the Government's victory."),
         "1.6", also=(msg("Total Support"), msg("Active Support"), msg("Passive Support"), msg("Neutral"))),
    Term("opposition", msg("Opposition"),
         msg("The people of a space turned against the Government; Total Opposition counts toward the FARC's "
             "victory."),
         "1.6", also=(msg("Total Opposition"), msg("Active Opposition"), msg("Passive Opposition"))),
    Term("resources", msg("Resources"),
         msg("A Faction's money, from 0 to 99, spent on Operations and earned at Propaganda, by Extort, drugs and "
             "some Events."),
         "1.7"),
    Term("aid", msg("Aid"),
         msg("Foreign aid the Government adds to its income at each Propaganda Round."), "6.3"),
    Term("control", msg("Control"),
         msg("The Government controls a space when its pieces outnumber all others there; the FARC when its pieces "
             "outnumber all others. Control matters for Support and some actions."),
         "1.8", also=(msg("Govt Control"), msg("FARC Control"))),
    Term("underground", msg("Underground / Active"),
         msg("Guerrillas are Underground (hidden) or Active (exposed). Government actions Activate them, and "
             "Active ones can be removed."),
         "1.4.3", also=UNDERGROUND_ACTIVE),
    Term("cubes", msg("Troops and Police"),
         msg("The Government's cubes: Troops move and Assault, Police hold cities and roads; both count for "
             "Control."),
         "1.4", also=(msg("Troops"), msg("Police"), msg("cubes"))),
    Term("guerrilla", msg("Guerrillas"),
         msg("The fighters of the FARC, the AUC and the Cartels; they Rally, March, Attack and spread Terror."),
         "1.4", also=(msg("Guerrilla"),)),
    Term("base", msg("Base"),
         msg("A Faction's stronghold in a space: more Guerrillas Rally there, and Bases count toward the FARC, AUC "
             "and Cartels victories."),
         "1.4", also=(msg("Bases"),)),
    Term("shipment", msg("Shipment"),
         msg("A load of drugs carried by a Guerrilla; it pays its holder at Propaganda or when it is Shipped, and "
             "the Government may seize it."),
         "4.5.2", also=(msg("Shipments"),)),
    Term("terror", msg("Terror and Sabotage"),
         msg("Markers placed by Terror: in a city or department they block Civic Action and shift it toward "
             "Opposition; on a road (LoC) Sabotage cuts the Government's income."),
         "3.3.4", also=(msg("Terror"), msg("Sabotage"))),
    Term("loc", msg("Line of Communication (LoC)"),
         msg("A road or pipeline between spaces; it carries economic value for the Government."), "1.3",
         also=(msg("LoC"), msg("LoCs"))),
    Term("operation", msg("Operation"),
         msg("The main action of a turn: Train, Patrol, Sweep or Assault for the Government; Rally, March, Attack or "
             "Terror for the others. It costs Resources per space."),
         "3.1", also=(msg("Operations"),)),
    Term("limited-operation", msg("Limited Operation"),
         msg("An Operation in one space only, without a Special Activity; what a Faction may do when the Faction "
             "before it took an Operation only or an Event."),
         "2.3.5", also=(msg("Limited Op"),)),
    Term("special-activity", msg("Special Activity"),
         msg("An extra action with an Operation: Air Lift, Air Strike, Eradicate; Extort, Ambush, Kidnap; "
             "Assassinate; Cultivate, Process, Bribe."),
         "4.1", also=(msg("Special Activities"),)),
    Term("event", msg("Event"),
         msg("The text of the current card; an Eligible Faction may carry out one side (unshaded or shaded) instead "
             "of an Operation."),
         "5.0", also=(msg("Events"),)),
    Term("eligible", msg("Eligible"),
         msg("A Faction that may act on the current card. The first two Eligible Factions in the card's order act; "
             "those that acted are Ineligible on the next card."),
         "2.3", also=(msg("Ineligible"),)),
    Term("pass", msg("Pass"),
         msg("Skip the card and gain Resources (the Government 3, the others 1); the Faction stays Eligible."),
         "2.3.3"),
    Term("propaganda-round", msg("Propaganda Round"),
         msg("The scoring round when a Propaganda card comes up: victory check, income, Support changes, Redeploy "
             "and Reset, mostly automatic."),
         "6.0", also=(msg("Propaganda"),)),
    Term("capability", msg("Capability"),
         msg("An Event that stays in force for the rest of the game."), "5.3", also=(msg("Capabilities"),)),
    Term("momentum", msg("Momentum"),
         msg("An Event that stays in force until the next Propaganda Round."), "5.4"),
    Term("non-player", msg("Non-player"),
         msg("A Faction run by the game's own decision procedure instead of a team."), "8.0",
         also=(msg("Non-players"),)),
)

RULES = (
    RuleSummary("1.3", msg("The map"),
                msg("Cities, Departments and Lines of Communication, plus Ecuador and Panama; each space has a "
                    "Population or an economic value.")),
    RuleSummary("1.4", msg("Forces"),
                msg("Cubes for the Government, Guerrillas and Bases for every Faction; a Faction places only the "
                    "pieces it has Available.")),
    RuleSummary("1.5", msg("The Factions"),
                msg("Government, FARC, AUC and Cartels; with fewer players some are paired or run as Non-players.")),
    RuleSummary("1.5.2", msg("Transfers"),
                msg("Factions may hand each other Resources or Shipments while they act.")),
    RuleSummary("1.6", msg("Support and Opposition"),
                msg("Each populated space sits on a five-step scale; Total Support and Total Opposition sum the "
                    "Population at each.")),
    RuleSummary("1.7", msg("Resources"),
                msg("Each Faction's Resources, from 0 to 99; an action cannot cost more than a Faction has.")),
    RuleSummary("1.8", msg("Control"),
                msg("A space is under Government or FARC Control when that side's pieces outnumber all the others.")),
    RuleSummary("2.3", msg("Sequence of play"),
                msg("Up to two Eligible Factions act on each card, in the order printed on it.")),
    RuleSummary("2.3.3", msg("Passing"),
                msg("A Faction that passes gains Resources and remains Eligible.")),
    RuleSummary("2.3.4", msg("Options for the Eligible Factions"),
                msg("The first Faction chooses Operation, Operation with Special Activity or Event; that choice "
                    "limits what the second may do.")),
    RuleSummary("2.3.6", msg("Ship"),
                msg("A Faction may deliver a Shipment for Resources at the right moment of its turn.")),
    RuleSummary("3.1", msg("Operations"),
                msg("Choose an Operation and the spaces it acts in, paying its cost per space.")),
    RuleSummary("3.2.1", msg("Train"),
                msg("The Government places cubes in cities and Bases, may build a Base, or buys Civic Action.")),
    RuleSummary("3.2.2", msg("Patrol"),
                msg("Government cubes move along Lines of Communication and Activate Guerrillas there.")),
    RuleSummary("3.2.3", msg("Sweep"),
                msg("Troops move into spaces and Activate Underground Guerrillas there.")),
    RuleSummary("3.2.4", msg("Assault"),
                msg("Cubes remove Active enemy Guerrillas, then Bases, in each chosen space.")),
    RuleSummary("3.3.1", msg("Rally"),
                msg("An insurgent Faction places Guerrillas, builds a Base or flips Guerrillas Underground.")),
    RuleSummary("3.3.2", msg("March"),
                msg("Guerrillas move into adjacent spaces and may become Active.")),
    RuleSummary("3.3.3", msg("Attack"),
                msg("Guerrillas roll to remove enemy pieces in a space; some are lost in return.")),
    RuleSummary("3.3.4", msg("Terror"),
                msg("An Underground Guerrilla places Terror (or Sabotage on a road) and shifts Support.")),
    RuleSummary("4.1", msg("Special Activities"),
                msg("A Special Activity goes with an Operation, before, during or after it.")),
    RuleSummary("4.2", msg("Government Special Activities"),
                msg("Air Lift moves Troops, Air Strike removes a Guerrilla or Base, Eradicate destroys drug "
                    "crops.")),
    RuleSummary("4.3", msg("FARC Special Activities"),
                msg("Extort raises money, Ambush attacks without a roll, Kidnap takes Resources from another "
                    "Faction.")),
    RuleSummary("4.4", msg("AUC Special Activities"),
                msg("Extort raises money, Ambush attacks without a roll, Assassinate removes an enemy piece.")),
    RuleSummary("4.5", msg("Cartels Special Activities"),
                msg("Cultivate grows a Base, Process makes Shipments or Resources, Bribe removes or flips pieces.")),
    RuleSummary("4.5.1", msg("Cultivate"),
                msg("The Cartels place a Base where they have Guerrillas, or move one.")),
    RuleSummary("4.5.2", msg("Process"),
                msg("The Cartels turn Bases into Shipments for their Guerrillas, or remove Bases for Resources.")),
    RuleSummary("4.5.4", msg("Cartels Special Activities"),
                msg("The Cartels' extra actions are carried out one space at a time.")),
    RuleSummary("5.0", msg("Events"),
                msg("The card's text is carried out as written, unshaded or shaded side.")),
    RuleSummary("5.1", msg("Carrying out Events"),
                msg("An Event does what it says, as far as it can, with Available pieces only.")),
    RuleSummary("5.3", msg("Capabilities"),
                msg("Some Events stay in force for the rest of the game and change how an action works.")),
    RuleSummary("5.4", msg("Momentum"),
                msg("Some Events stay in force only until the next Propaganda Round.")),
    RuleSummary("5.5", msg("Free Operations"),
                msg("An Event may grant an Operation or Special Activity that costs nothing.")),
    RuleSummary("6.0", msg("Propaganda Round"),
                msg("Victory check, Resources, Support, Redeploy and Reset, in that order, when a Propaganda card "
                    "comes up.")),
    RuleSummary("6.3", msg("Resources Phase"),
                msg("Each Faction earns income: the Government from its spaces, roads and Aid, the others from "
                    "their Bases and drugs.")),
    RuleSummary("6.4", msg("Support Phase"),
                msg("The Government buys Civic Action, the FARC buys Agitation, one step at a time.")),
    RuleSummary("6.4.1", msg("Civic Action"),
                msg("The Government pays to remove Terror or shift a space it controls toward Active Support.")),
    RuleSummary("6.4.2", msg("Agitation"),
                msg("The FARC pays to remove Terror or shift a space toward Active Opposition.")),
    RuleSummary("6.5", msg("Redeploy"),
                msg("Government cubes are moved back to safe spaces before the next cards.")),
    RuleSummary("6.6", msg("Reset"),
                msg("Markers are removed, Guerrillas go Underground and every Faction becomes Eligible.")),
    RuleSummary("7.0", msg("Victory"),
                msg("At each Propaganda Round a Faction that meets its condition wins; after the last, the best "
                    "margin wins.")),
    RuleSummary("8.0", msg("Non-players"),
                msg("A Faction without a team follows a fixed procedure: it checks a list of conditions in order and "
                    "takes the first action that fits.")),
)

GLOSSARY = Glossary(TERMS, RULES)
