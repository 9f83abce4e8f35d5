"""Changes in a life told in passing (ingestion/offline/life_changes.py and ingestion/implied.py), each
through a whole memory with what ``now``, ``as_of``, ``history`` and ``ask`` read back: moves told by
the home or the arrival, endings of what the memory never held, a pastime given up and its kinds,
break-ups, a pet's death, a plan given up for staying, engagements, weddings and single life, a job
offer with its start, a partner's new job after "How's Arjun?", a pet named after a cut, a cofounder;
and for each rule the lookalikes that must give nothing."""

from __future__ import annotations

import pytest

from temporal_graph import TemporalGraph
from tests.extracted import extracted
from tests.memory_reads import stretches, told


@pytest.fixture
def tg():
    with TemporalGraph.open(":memory:", embed=False) as memory:
        yield memory


def facts_of(text: str, *context: tuple[str, str], speaker: str = "Ama") -> set[tuple[str, str, str, str]]:
    return {(f.subject, f.relation, f.object, f.kind) for f in extracted(text, speaker, context)}


def relations_of(text: str, *context: tuple[str, str]) -> set[str]:
    return {relation for _, relation, _, _ in facts_of(text, *context)}


# --- moves told by the home or the arrival ---------------------------------------------------------------


def test_moving_into_the_home_just_bought_is_a_plan_until_its_day(tg) -> None:
    told(tg, ("2023-05-06", "Ama", "I live in Kumasi."),
         ("2024-05-06", "Ama", "We bought a flat in Leith, we move in next month."))
    assert stretches(tg, "Ama", "LIVES_IN") == [("Kumasi", "2023-05-06", "2024-06-01"),
                                                ("Leith", "2024-06-01", "")]
    assert [f.object for f in tg.as_of("2024-05-20", subject="Ama", relation="PLANS")] == ["move to Leith"]


def test_moving_in_the_message_after_the_home(tg) -> None:
    told(tg, ("2024-03-01", "Ama", "We found a house in Didsbury!"),
         ("2024-03-20", "Ama", "We moved in last weekend, boxes everywhere."))
    assert stretches(tg, "Ama", "LIVES_IN") == [("Didsbury", "2024-03-16", "")]  # last weekend's Saturday


@pytest.mark.parametrize(("text", "place"), [
    ("First night in our new flat in Leith!", "Leith"),
    ("first week in the new house in Clontarf, loving it", "Clontarf"),
    ("I moved into a tiny flat in Camden in March.", "Camden"),
    ("We've moved to a bigger place in Didsbury.", "Didsbury"),
    ("Found a studio in Gràcia! I move in on Friday.", "Gràcia"),
])
def test_a_home_moved_into(text: str, place: str) -> None:
    assert ("Ama", "LIVES_IN", place, "state") in facts_of(text)


@pytest.mark.parametrize("text", [
    "First night in the hotel in Rome!",
    "First night in our tent in Snowdonia.",
    "We bought a flat in Leith to rent out.",
    "We sold our flat in Leith, we move next month.",
    "We viewed a flat in Leith, we might move in next month.",
    "We bought a flat in Brixton, we move in soon.",
    "My sister found a flat in Leeds, she moves in with her boyfriend next week.",
    "The new tenants move in next month.",
    "I helped Tom move into a flat in Camden.",
    "We move in next month.",
    "Our first night in Rome was magical.",
    "Do you move in next month?",
])
def test_homes_that_are_no_move(text: str) -> None:
    assert "LIVES_IN" not in relations_of(text)


@pytest.mark.parametrize("before", [
    "I'm moving to Oslo in May.",
    "Got a job offer from Equinor Oslo! Starting in June.",
])
def test_landing_where_a_move_was_in_view_is_the_new_home(before: str) -> None:
    assert ("Ama", "LIVES_IN", "Oslo", "state") in facts_of("Landed in Oslo this morning.", ("Ama", before))


@pytest.mark.parametrize(("text", "context"), [
    ("Landed in Lisbon this morning for the conference.", ()),
    ("We landed in Rome at 5pm.", ()),
    ("Landed in Oslo this morning.", (("Ama", "I'm moving to Bergen in May."),)),
    ("Landed in Oslo this morning.", (("Kofi", "I'm moving to Oslo in May."),)),  # someone else's move
    ("The plane landed in Oslo late.", (("Ama", "I'm moving to Oslo in May."),)),
])
def test_arrivals_that_are_no_move(text: str, context: tuple) -> None:
    assert "LIVES_IN" not in relations_of(text, *context)


def test_a_landing_after_the_offer_ends_the_old_home(tg) -> None:
    told(tg, ("2023-04-08", "Ama", "Still in Kumasi, near the market."),
         ("2024-01-27", "Ama", "Got a postdoc offer from KTH Stockholm! Starting in April."),
         ("2024-04-06", "Ama", "Landed in Stockholm on Tuesday."))
    assert stretches(tg, "Ama", "LIVES_IN") == [("Kumasi", "2023-04-08", "2024-04-02"),
                                                ("Stockholm", "2024-04-02", "")]
    assert stretches(tg, "Ama", "WORKS_AT") == [("KTH Stockholm", "2024-04-01", "")]
    assert stretches(tg, "Ama", "WORKS_AS") == [("postdoc", "2024-04-01", "")]


# --- endings of what the memory never held ----------------------------------------------------------------


def test_a_sport_stopped_held_until_then(tg) -> None:
    told(tg, ("2023-11-25", "Kofi", "I stopped playing rugby, my knee is done."))
    assert stretches(tg, "Kofi", "PLAYS") == [("rugby", "", "2023-11-25")]
    answer = tg.ask("Does Kofi still play rugby?")
    assert answer.text.startswith("No") and "2023-11-25" in answer.text


def test_a_move_from_one_city_to_another_says_where_they_lived(tg) -> None:
    told(tg, ("2023-11-04", "Ama", "My cousin Esi moved from Kumasi to Tamale in October."))
    assert stretches(tg, "Esi", "LIVES_IN") == [("Kumasi", "", "2023-10-01"), ("Tamale", "2023-10-01", "")]
    assert tg.ask("Has Esi ever lived in Kumasi?").text.startswith("Yes")


def test_an_ending_never_crosses_what_the_memory_holds(tg) -> None:
    told(tg, ("2019-01-05", "Kofi", "I live in Accra."),
         ("2024-02-01", "Kofi", "I moved out of Lagos last year."))  # Accra all along: no Lagos before it
    assert stretches(tg, "Kofi", "LIVES_IN") == [("Accra", "2019-01-05", "")]


@pytest.mark.parametrize(("speaker", "text", "subject", "relation"), [
    ("Mallory", "Actually Bob does not live in Paris.", "Bob", "LIVES_IN"),
    ("Kofi", "Kofi doesn't work at Arup, that's his brother.", "Kofi", "WORKS_AT"),
    ("Ama", "Esi does not work at Arup.", "Esi", "WORKS_AT"),
])
def test_a_negation_says_nothing_of_before(tg, speaker: str, text: str, subject: str, relation: str) -> None:
    told(tg, ("2024-02-01", speaker, text))
    assert stretches(tg, subject, relation) == []


def test_an_ending_of_what_held_ends_only_it(tg) -> None:
    told(tg, ("2022-01-05", "Kofi", "I play rugby every Sunday."),
         ("2023-11-25", "Kofi", "I stopped playing rugby."))
    assert stretches(tg, "Kofi", "PLAYS") == [("rugby", "2022-01-05", "2023-11-25")]


def test_a_pastime_given_up_ends_its_kinds_and_dates_itself_by_them(tg) -> None:
    told(tg, ("2023-04-17", "Ama", "I started bouldering this week."),
         ("2024-02-17", "Ama", "I gave up climbing, my wrist is done."))
    assert stretches(tg, "Ama", "HAS_HOBBY") == [("bouldering", "2023-04-17", "2024-02-17")]
    assert stretches(tg, "Ama", "LIKES") == [("climbing", "2023-04-17", "2024-02-17")]
    assert "10 months" in tg.ask("How long did Ama go climbing?").text


def test_a_break_up_after_a_question_about_someone(tg) -> None:
    told(tg, ("2024-06-20T10:00", "Nina", "How is Kojo?"),
         ("2024-06-20T10:05", "Efe", "we broke up in may. I am single now, it's fine"))
    assert stretches(tg, "Efe", "DATING") == [("Kojo", "", "2024-05-01")]
    assert [f.object for f in tg.now("Efe", "RELATIONSHIP_STATUS")] == ["single"]


@pytest.mark.parametrize(("question", "answer"), [
    ("How's work?", "We broke up in May."),
    ("How's Kojo?", "My brother Kojo is fine. Me and Sam broke up in May."),
    ("How's Kojo?", "We broke up in May? No way, we're fine."),
])
def test_break_ups_that_name_no_partner(tg, question: str, answer: str) -> None:
    told(tg, ("2024-06-20T10:00", "Nina", question), ("2024-06-20T10:05", "Efe", answer))
    assert stretches(tg, "Efe", "DATING") == []


def test_single_ends_whoever_was_dated(tg) -> None:
    told(tg, ("2023-01-10", "Efe", "I'm dating Kojo."), ("2024-06-21", "Efe", "I'm single now."))
    assert stretches(tg, "Efe", "DATING") == [("Kojo", "2023-01-10", "2024-06-21")]


@pytest.mark.parametrize("text", [
    "I'm single-handedly running the shop.", "Are you single?", "I'm not single.", "I'm a single mum.",
    "I'm single minded about this.", "If I were single I'd move.",
])
def test_lookalikes_of_single(text: str) -> None:
    assert "RELATIONSHIP_STATUS" not in relations_of(text)


def test_a_pets_death_ends_having_it(tg) -> None:
    told(tg, ("2022-07-02", "Efe", "We got a kitten! A tabby called Miso."),
         ("2024-03-23", "Efe", "Sad news, Miso passed away on Tuesday."))
    assert stretches(tg, "Efe", "HAS_PET") == [("Miso", "2022-07-02", "2024-03-19")]
    assert tg.ask("Does Efe still have Miso?").text.startswith("No")


def test_someone_elses_death_ends_no_pet_and_no_kin(tg) -> None:
    told(tg, ("2022-07-02", "Efe", "We got a kitten! A tabby called Miso."),
         ("2023-01-02", "Efe", "My grandpa Joe is 90 today."),
         ("2024-03-23", "Efe", "My grandpa Joe passed away in March."),
         ("2024-03-24", "Efe", "Tom's dog Rex passed away."))
    assert stretches(tg, "Efe", "HAS_PET") == [("Miso", "2022-07-02", "")]
    assert [f.object for f in tg.now("Efe", "HAS_GRANDPARENT")] == ["Joe"]


# --- plans given up for staying ---------------------------------------------------------------------------


def test_staying_after_a_change_of_plans_ends_the_move(tg) -> None:
    told(tg, ("2025-04-12", "Ama", "Planning to move to Lisbon in August."),
         ("2025-06-14", "Ama", "Change of plans: we are staying in Porto, the job fell through."))
    assert stretches(tg, "Ama", "PLANS") == [("move to Lisbon", "2025-04-12", "2025-06-14")]


@pytest.mark.parametrize("text", [
    "We are staying in Porto for the weekend.",
    "I'm staying in a hotel instead.",
    "Are you staying in Porto after all?",
])
def test_staying_that_changes_no_plan(tg, text: str) -> None:
    told(tg, ("2025-04-12", "Ama", "Planning to move to Lisbon in August."), ("2025-06-14", "Ama", text))
    assert stretches(tg, "Ama", "PLANS") == [("move to Lisbon", "2025-04-12", "")]


# --- engagements and weddings ---------------------------------------------------------------------------


def test_a_proposal_accepted_dates_the_engagement(tg) -> None:
    told(tg, ("2024-02-14", "Esi", "ADWOA. Kojo proposed last night!!! We're engaged 💍"))
    assert stretches(tg, "Esi", "ENGAGED_TO") == [("Kojo", "2024-02-13", "")]
    assert stretches(tg, "Esi", "RELATIONSHIP_STATUS") == [("engaged", "2024-02-13", "")]


def test_engaged_to_the_person_asked_after(tg) -> None:
    told(tg, ("2024-02-14T09:00", "Adwoa", "How's Kojo?"), ("2024-02-14T09:05", "Esi", "We're engaged!"))
    assert stretches(tg, "Esi", "ENGAGED_TO") == [("Kojo", "2024-02-14", "")]


@pytest.mark.parametrize("text", [
    "Kojo proposed last night but I said no.",
    "Kojo proposed to Maya last night.",
    "We're engaged in talks with the landlord.",
    "Are you engaged?",
    "Kojo proposed a toast last night.",
])
def test_lookalikes_of_engagements(text: str) -> None:
    assert facts_of(text, speaker="Esi") & {("Esi", r, o, "state") for r, o in (
        ("ENGAGED_TO", "Kojo"), ("RELATIONSHIP_STATUS", "engaged"))} == set()


def test_a_wedding_announced_is_a_plan_and_happens(tg) -> None:
    told(tg, ("2023-08-12", "Kofi", "I proposed to Adwoa last night and she said yes!!"),
         ("2024-05-18", "Kofi", "Our wedding is set for 10 August in Accra!"),
         ("2024-08-17", "Kofi", "We got married last Saturday in Accra!"))
    assert stretches(tg, "Kofi", "PLANS") == [("get married in Accra", "2024-05-18", "2024-08-10")]
    assert stretches(tg, "Kofi", "MARRIED_TO") == [("Adwoa", "2024-08-10", "")]
    assert stretches(tg, "Kofi", "ENGAGED_TO") == [("Adwoa", "2023-08-11", "2024-08-10")]
    assert tg.ask("Who is Kofi married to?").text.startswith("Kofi is married to Adwoa")


def test_the_wedding_is_the_speakers_with_their_engagement_in_view() -> None:
    assert ("Kofi", "PLANS", "get married in Porto", "state") in facts_of(
        "My fiancée and I are exhausted. The wedding is set for 3 May in Porto.", speaker="Kofi")


@pytest.mark.parametrize("text", [
    "The wedding is set for 10 August in Accra!",  # whose? no engagement in view
    "My sister's wedding is set for June.",
    "Our wedding was on 3 May.",
    "The wedding is on TV.",
    "Tom's wedding is next Saturday in Leeds.",
])
def test_weddings_that_are_no_plan_of_the_speaker(text: str) -> None:
    assert "PLANS" not in relations_of(text)


def test_married_with_no_partner_known_is_the_status_only(tg) -> None:
    told(tg, ("2024-08-17", "Kofi", "We got married last Saturday!"))
    assert stretches(tg, "Kofi", "MARRIED_TO") == []
    assert [f.object for f in tg.now("Kofi", "RELATIONSHIP_STATUS")] == ["married"]


# --- jobs: an offer with its start, a partner's new job ---------------------------------------------------


@pytest.mark.parametrize("text", [
    "Got a job offer from Google but I turned it down.",
    "I got an offer from Meta, starting salary is 90k.",
    "Got an offer from Spotify! Still deciding.",
    "Did you get a postdoc offer from KTH?",
])
def test_offers_that_are_no_job(text: str) -> None:
    assert {"WORKS_AT", "WORKS_AS"} & relations_of(text) == set()


def test_he_is_the_person_asked_after(tg) -> None:
    told(tg, ("2024-06-14T10:00", "Nina", "So proud of you. How's Arjun?"),
         ("2024-06-14T10:05", "Priya", "He's good! He got a job at Ocado last month."))
    claims = tg.now("Arjun", "WORKS_AT", claims="only")
    assert [(f.object, f.claimed_by) for f in claims] == [("Ocado", "Priya")]


@pytest.mark.parametrize(("question", "answer"), [
    ("How's work?", "He got a job at Ocado last month."),
    ("How's Leo?", "Leo and Sam are fine. He got a job at Ocado."),
    ("How are you?", "He got a job at Ocado."),
])
def test_he_with_no_one_asked_after_or_two_people(question: str, answer: str) -> None:
    assert "WORKS_AT" not in relations_of(answer, ("Nina", question))


# --- pets named after a cut, accents, cofounders ------------------------------------------------------


@pytest.mark.parametrize(("text", "name"), [
    ("I have a dog now, his name is Tremoço.", "Tremoço"),
    ("We have a cat now, her name is Zoë.", "Zoë"),
])
def test_a_pet_named_after_now(text: str, name: str) -> None:
    assert facts_of(text) == {("Ama", "HAS_PET", name, "state")}


def test_names_with_accents(tg) -> None:
    told(tg, ("2024-01-20", "Ama", "My sister Zoë lives in Óbidos."))
    assert stretches(tg, "Zoë", "LIVES_IN") == [("Óbidos", "2024-01-20", "")]


@pytest.mark.parametrize("text", [
    "My cofounder is Rui, he does the backend.", "Rui is my cofounder.",
    "My co-founder Rui does the backend.",
])
def test_a_cofounder(tg, text: str) -> None:
    told(tg, ("2024-09-10", "Dana", text))
    assert [f.object for f in tg.now("Dana", "COFOUNDER")] == ["Rui"]
    assert "Rui" in tg.ask("Who is Dana's cofounder?").text


@pytest.mark.parametrize("text", [
    "My cofounder is French.", "My cofounder's salary is 50k.", "My cofounder is Rui's brother.",
    "Is Rui your cofounder?", "My boss is Irish.",
])
def test_lookalikes_of_a_cofounder(text: str) -> None:
    assert {"COFOUNDER", "MANAGED_BY"} & relations_of(text) == set()


def test_a_move_from_a_month_on_starts_then_not_now(tg) -> None:
    told(tg, ("2024-01-05", "Ana", "I live in Oslo."),
         ("2024-05-08", "Ana", "I am moving to Bergen from September."))
    assert stretches(tg, "Ana", "LIVES_IN") == [("Oslo", "2024-01-05", "2024-09-01"),
                                                ("Bergen", "2024-09-01", "")]


def test_a_rise_from_next_month_starts_next_month(tg) -> None:
    told(tg, ("2023-01-10", "Ana", "My rent is €950."),
         ("2024-01-25", "Ana", "My rent went up to €1,020 from February."))
    assert stretches(tg, "Ana", "RENT") == [("€950", "2023-01-10", "2024-02-01"),
                                            ("€1,020", "2024-02-01", "")]
