"""The language pinned while a live region is drawn (``facilitation.text.pinned_language``,
issue 20): read once on entry, used by every word looked up inside, given back on exit."""

from __future__ import annotations

import threading

from django.utils import translation

from facilitation.text import active_language, gettext_once, pinned_language, tr

WORD = "Government"  # in the Spanish catalog: "Gobierno"


def test_words_inside_are_in_the_language_active_on_entry_and_after_exit_in_the_new_one():
    with translation.override("es"):
        spanish = gettext_once(WORD)
        with pinned_language():
            assert active_language() == "es"
            assert gettext_once(WORD) == spanish != WORD
            assert tr({"msg": WORD, "args": {}}) == spanish
    with translation.override("en"):
        assert active_language() == "en"
        assert gettext_once(WORD) == WORD


def test_pins_nest_and_each_exit_gives_back_what_was_before():
    with translation.override("es"):
        with pinned_language():
            with translation.override("en"), pinned_language():
                assert active_language() == "en"
            assert active_language() == "es"
        assert active_language() == "es"
    with translation.override("en"):
        assert active_language() == "en"


def test_a_pin_belongs_to_its_thread():
    seen = []
    with translation.override("es"), pinned_language():
        def other():
            with translation.override("en"):
                seen.append(active_language())

        t = threading.Thread(target=other)
        t.start()
        t.join()
        assert active_language() == "es"
    assert seen == ["en"]
