"""What of a message no fact read from it covers: the clauses that keep a message whose read facts
all went stale partly superseded, not wholly (issue 50)."""

from __future__ import annotations

import pytest

from temporal_graph.core.unread import parts, unread_parts

RAFA = "Rafa is a nurse at St Mary's, lives in Leeds and plays the cello."


def test_the_clauses_of_a_message_by_sentence_semicolon_comma_and_and() -> None:
    assert parts(RAFA) == ["Rafa is a nurse at St Mary's", "lives in Leeds", "plays the cello."]
    assert parts("Ms. Varga is our landlord; rent is €950, paid on the 1st.") == [
        "Ms.", "Varga is our landlord", "rent is €950", "paid on the 1st."]


@pytest.mark.parametrize("text, whole", [
    ("Rent is €1,020 now.", ["Rent is €1,020 now."]),               # a comma inside a number
    ("I moved on 3 March, 2023.", ["I moved on 3 March, 2023."]),   # inside a date
    ("Hilde lives at Gartenweg 4, Freiburg.", ["Hilde lives at Gartenweg 4, Freiburg."]),  # the same place
    ("I moved to Seoul (Mapo).", ["I moved to Seoul (Mapo)."]),
])
def test_what_is_one_clause_stays_one(text: str, whole: list[str]) -> None:
    assert parts(text) == whole


def test_a_clause_no_read_statement_covers_is_unread() -> None:
    assert unread_parts(RAFA, ["Rafa lives in Leeds."], ["Rafa"]) == ("Rafa is a nurse at St Mary's",
                                                                      "plays the cello.")
    read_all = ["Rafa lives in Leeds.", "Rafa works as a nurse.", "Rafa works at St Mary's.",
                "Rafa plays cello."]
    assert unread_parts(RAFA, read_all, ["Rafa"]) == ()


def test_the_name_of_whom_it_is_about_covers_nothing() -> None:
    # Every clause names Rafa: that alone does not make "is a keen birdwatcher" read.
    text = "Rafa lives in Leeds; Rafa is a keen birdwatcher."
    assert unread_parts(text, ["Rafa lives in Leeds."], ["Rafa"]) == ("Rafa is a keen birdwatcher.",)
    assert unread_parts(text, ["Rafa lives in Leeds."]) == ()  # without the name, it would cover


def test_the_terse_profile_whose_landlord_was_not_read() -> None:
    text = "Ms. Varga is our landlord; rent is €950, paid on the 1st by bank transfer."
    assert unread_parts(text, ["flatmates's rent is €950."], ["flatmates"]) == (
        "Varga is our landlord", "paid on the 1st by bank transfer.")


@pytest.mark.parametrize("text, read, about", [
    ("I live in Leeds.", ["Sam lives in Leeds."], ["Sam"]),
    ("Hi! Great news, I moved to Denver last week, so excited.", ["Sam lives in Denver."], ["Sam"]),
    ("Just started at Initech, loving it so far!", ["Ann works at Initech."], ["Ann"]),
    ("OK so I live in Madrid now, finally!", ["Max lives in Madrid."], ["Max"]),
    ("Tom lives in Paris, France.", ["Tom lives in Paris."], ["Tom"]),
    ("I live in Oslo. Have you been?", ["Kim lives in Oslo."], ["Kim"]),  # a question holds no value
    ("Rent is €950, since 1 March, 2024.", ["Jo's rent is €950."], ["Jo"]),
    ("Yesterday I moved to Oslo with my partner.", ["Lea lives in Oslo."], ["Lea"]),
    ("Yep, still in Leeds, same flat near Hyde Park.", ["Marta lives in Leeds."], ["Marta"]),
    ("I live in Toronto now, in a small place on Ossington.", ["Kwame lives in Toronto."], ["Kwame"]),
    ("Efua and I are planning to buy a house.", ["Kwame is planning to buy a house."], ["Kwame"]),
    ("Learning German, just in case I end up in Europe.", ["Yuki is learning German."], ["Yuki"]),
    ("I drive a 2015 Honda Civic, and help me speed up a query that joins orders and invoices",
     ["Haruto's car is the Honda Civic."], ["Haruto"]),
    ("Slowly! I'm at Kyoto University. Started there in April.", ["Yuki studies at Kyoto University."],
     ["Yuki"]),
])
def test_greetings_feelings_dates_questions_and_places_are_not_unread(text: str, read: list[str],
                                                                      about: list[str]) -> None:
    assert unread_parts(text, read, about) == ()


def test_a_relation_and_object_cover_without_a_sentence() -> None:
    # A statement written without text is covered by its relation and object's name.
    assert unread_parts("Ann works at Fiat.", ["works at Fiat"], ["Ann"]) == ()
    assert unread_parts("Ann works at Fiat and keeps bees.", ["works at Fiat"], ["Ann"]) == ("keeps bees.",)


def test_an_erased_text_has_nothing_unread() -> None:
    assert unread_parts("", ["Sam lives in Leeds."], ["Sam"]) == ()
