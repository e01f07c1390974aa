"""Tears of Tyranny's glossary and rule summaries (contract v2 ``Rules.glossary``, issue #19).

The terms a student meets on the play page, and one short summary per rulebook section the
prompts cite, in the project's own words (facts of the game, not the rulebook's text). Every
text is a message, so the catalogs hold it in every language.
"""

from __future__ import annotations

from engine.core.glossary import Glossary, RuleSummary, Term
from engine.core.messages import msg

TERMS = (
    Term("players", msg("Players"),
         msg("The Liberators, Advisors, Partisans and Comrades: every team plays together against the adversary, "
             "each with its own panel and way of fighting."),
         "1", also=(msg("Liberators"), msg("Advisors"), msg("Partisans"), msg("Comrades"))),
    Term("adversary", msg("The adversary"),
         msg("The regime the players fight. It has no team: its cards and tracks play it automatically in the "
             "adversary phase."),
         "3", also=(msg("adversary"),)),
    Term("tile", msg("Tile"),
         msg("A hexagonal space of the map with a terrain (jungle, rural, urban, desert) that adds to its "
             "defense."),
         "1", also=(msg("Tiles"), msg("tile"))),
    Term("presence", msg("Presence"),
         msg("A player's markers on the map: tiles with presence are where that player can reach and act from; "
             "each one placed uncovers a circle of its panel."),
         "1", also=(msg("presence"),)),
    Term("guerrillas", msg("Guerrillas (G)"),
         msg("The players' fighters on the map; they give strength to attacks and can be lost to combat or "
             "upkeep."),
         "1.D", also=(msg("Guerrillas"), msg("guerrillas")), letters=("G",)),
    Term("base", msg("Guerrilla base"),
         msg("A player's base in a tile; it can produce guerrillas each turn."), "1.D",
         also=(msg("base"), msg("Base"))),
    Term("hq", msg("Headquarters (HQ)"),
         msg("Each player's starting tile, chosen at set-up; new guerrillas often arrive there."), "2.C",
         also=(msg("HQ"),)),
    Term("units", msg("Adversary units"),
         msg("Cells, outposts and garrisons, from weakest to strongest (health 1, 2 and 3). Destroying outposts and "
             "garrisons earns influence."),
         "1.G", also=(msg("cell"), msg("outpost"), msg("garrison"), msg("cells"), msg("outposts"),
                      msg("garrisons"))),
    Term("civilians", msg("Civilians"),
         msg("The people of a tile: red civilians back the adversary and add to its defense, blue civilians back "
             "the players. Killing civilians costs influence."),
         "1", also=(msg("civilians"), msg("red civilians"), msg("blue civilians"))),
    Term("tyranny", msg("Tyranny"),
         msg("Tokens the adversary places on tiles it dominates; a tile under tyranny is much harder to attack, "
             "and too much tyranny loses the game."),
         "1.H", also=(msg("tyranny"),)),
    Term("influence", msg("Influence"),
         msg("Tokens the players earn by weakening the adversary and lose by hurting civilians; earned influence "
             "brings influence cards that act for the players."),
         "1.H", also=(msg("influence"),)),
    Term("resources", msg("Resources"),
         msg("A player's money, gained each turn from its panel and spent on capability cards and upkeep."),
         "3.B", also=(msg("resources"),)),
    Term("capability", msg("Capability card"),
         msg("A card that a player pays for and then executes on a target tile: attacks, moves, recruiting. Minor "
             "and major decks hold cards of different strength."),
         "1.F", also=(msg("capability"), msg("capabilities"), msg("Capabilities"))),
    Term("attributes", msg("Attributes"),
         msg("Qualities printed on cards (flexibility, charisma, logistics...); the cards paid this turn unlock "
             "the panel capabilities that need them."),
         "1.F", also=(msg("attributes"),)),
    Term("refit", msg("Refit"),
         msg("The first step of a player's turn: take one option of the panel (draw cards, add presence, take a "
             "card back...)."),
         "3.A"),
    Term("force-management", msg("Force management"),
         msg("A player's step to recruit guerrillas, build a base or convert, one action per turn."), "3.C"),
    Term("defense", msg("Defense"),
         msg("What an attack must beat in a tile: terrain plus red civilians plus tyranny; damage beyond it hits "
             "the units, then the civilians."),
         "1.G"),
    Term("collateral", msg("Collateral damage"),
         msg("Civilians killed by an attack's extra damage; the attacker loses influence for each."), "1.G"),
    Term("terrain-deck", msg("Terrain deck"),
         msg("The adversary's deck that names the tiles it deploys to, develops and dominates; the players lose if "
             "it must draw from an empty deck."),
         "3.H", also=(msg("terrain card"), msg("terrain cards"))),
    Term("escalation", msg("Escalation"),
         msg("The adversary's answer in one tile chosen together by the players."), "3.F"),
)

RULES = (
    RuleSummary("1", msg("The pieces and the map"),
                msg("What is on the table: tiles, presence, guerrillas, the adversary's units, civilians and the "
                    "tokens of influence and tyranny.")),
    RuleSummary("1.D", msg("Guerrillas and bases"),
                msg("Guerrillas are the players' fighters; a base can produce more of them each turn.")),
    RuleSummary("1.F", msg("Capabilities"),
                msg("A capability affects one target tile within its range unless it says otherwise; it needs the "
                    "tile to meet its target condition.")),
    RuleSummary("1.G", msg("Combat"),
                msg("Damage beyond the tile's defense hits the units (cells, then outposts and garrisons), and what "
                    "is left over kills civilians.")),
    RuleSummary("1.H", msg("Influence and tyranny"),
                msg("Influence tokens move between the pool and the earned box; a player who must pay influence "
                    "with an empty box pays a resource or a presence instead.")),
    RuleSummary("2.C", msg("Headquarters"),
                msg("At set-up each player chooses the tile of its headquarters, where its presence starts.")),
    RuleSummary("3", msg("Sequence of play"),
                msg("Each turn the players act together in their window, then the adversary phase runs "
                    "automatically, then the turn ends.")),
    RuleSummary("3.A", msg("Refit"),
                msg("Each player takes one refit option of its panel: draw capability cards, add presence, reclaim "
                    "a spent card, and so on.")),
    RuleSummary("3.B", msg("Gain resources"),
                msg("Each player gains the income its panel shows.")),
    RuleSummary("3.C", msg("Force management"),
                msg("Each player may recruit guerrillas, build a base or convert, once.")),
    RuleSummary("3.D", msg("Select capabilities"),
                msg("Each player pays for the capability cards it will use this turn; in the adversary phase an "
                    "event card is drawn and carried out.")),
    RuleSummary("3.E", msg("Influence cards"),
                msg("Influence cards earned by the players are carried out automatically.")),
    RuleSummary("3.F", msg("Escalation and dominate"),
                msg("The adversary dominates tiles and places tyranny; the players agree on where it escalates.")),
    RuleSummary("3.G", msg("Develop"),
                msg("The adversary strengthens its units in the tiles its terrain card names.")),
    RuleSummary("3.H", msg("Deploy"),
                msg("The adversary places new units in the tiles named by a terrain card.")),
    RuleSummary("3.I", msg("Terrain cards shift"),
                msg("The terrain cards move along the adversary's boxes (deploy, develop, dominate), ready for the "
                    "next turn.")),
    RuleSummary("phase 2", msg("Immediate capabilities"),
                msg("The players execute the capabilities they paid for that act at once.")),
    RuleSummary("phase 4", msg("Long-term capabilities"),
                msg("After the adversary phase the players execute their long-term capabilities; then damage heals "
                    "and stacks over the limit cost upkeep.")),
    RuleSummary("4", msg("Victory and defeat"),
                msg("The players win together by the scenario's goal; they lose when tyranny overwhelms the map or "
                    "time runs out.")),
)

GLOSSARY = Glossary(TERMS, RULES)
