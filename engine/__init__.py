"""CoinLab rules engine: pure Python, no Django, no I/O, no clock, no global RNG.

    import engine
    rules = engine.load("peru")
    state = rules.setup(seed=7, options={})
    p = rules.prompt(state)
    state, facts = rules.apply(state, p.seats[0], p.choices[0].id)
"""

# Load the scenarios package first: importing a submodule binds it as an attribute of
# its parent, and the name ``engine.scenarios`` must stay the function below.
import engine.scenarios as _scenario_packages  # noqa: F401,E402
from engine.core.contract import (  # noqa: F401
    CAUSE_KINDS,
    Choice,
    ChoiceKind,
    Fact,
    IllegalChoice,
    OptionInfo,
    PositionError,
    Prompt,
    Rules,
    SeatInfo,
    attribute,
    cause_bot,
    cause_decision,
    cause_die,
    cause_event,
    cause_facilitator,
    cause_rule,
    fact,
    fact_for_seat,
    facts_for_seat,
)
from engine.core.messages import Msg, is_msg, msg, msg_n, render  # noqa: F401
from engine.core.registry import UnknownScenario, keys, load, scenarios  # noqa: F401
