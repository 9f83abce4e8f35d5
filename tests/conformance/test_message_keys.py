"""Supersession the caller states, on every store: message keys (in order, out of order, a
confirmation), explicit supersede (ids, a query, a dry run), undoing both by retracting the new
message, soft forgetting of a person and bringing them back, and what each read says of it."""

from __future__ import annotations

import pytest

from temporal_graph import TemporalGraph
from temporal_graph.errors import InvalidInput, NotFound

KEY = "Globex/payment_terms"


def _tell(tg: TemporalGraph, tick, g: str, text: str, when: str, **extra) -> str:
    tick()
    return tg.add_episode(text, speaker="Ann", reference_time=when, group_id=g, **extra).episode.id


def _standing(tg: TemporalGraph, g: str, query: str, **options) -> dict[str, str | None]:
    return {h.text: h.standing for h in tg.search(query, group_id=g, limit=50, stale="show", **options)
            if h.episode is not None}


def test_a_later_message_of_a_key_supersedes_the_earlier_one_from_its_time(tg, tick, groups) -> None:
    g = groups()
    old = _tell(tg, tick, g, "Globex pays on net 30 terms.", "2024-01-10", key=KEY)
    before = tick()
    tick()
    new = tg.add_episode("Globex pays on net 45 terms.", reference_time="2024-03-01", group_id=g, key=KEY)
    assert new.superseded == [old]

    now = tg.search("Globex terms", group_id=g, limit=20)
    assert [h.text for h in now if h.episode] == ["Globex pays on net 45 terms."]
    assert now.stale_left_out == 1
    assert _standing(tg, g, "Globex terms")["Globex pays on net 30 terms."] == "superseded"
    labelled = tg.search("Globex terms", group_id=g, stale="label")
    assert labelled[-1].superseded_by == (new.episode.id,)
    # the valid-time past, and the belief before the revision was told
    assert _standing(tg, g, "Globex terms", as_of="2024-02-01") == {"Globex pays on net 30 terms.": "current"}
    assert _standing(tg, g, "Globex terms", known_at=before)["Globex pays on net 30 terms."] == "current"


def test_a_late_message_lands_in_the_past_and_the_same_content_confirms(tg, tick, groups) -> None:
    g = groups()
    _tell(tg, tick, g, "Ticket 5512 status: open.", "2024-01-01", key="ticket-5512/status")
    _tell(tg, tick, g, "Ticket 5512 status: closed.", "2024-03-01", key="ticket-5512/status")
    late = _tell(tg, tick, g, "Ticket 5512 status: waiting on customer.", "2024-02-01",
                 key="ticket-5512/status")
    standing = _standing(tg, g, "ticket 5512 status")
    assert standing == {"Ticket 5512 status: open.": "superseded", "Ticket 5512 status: closed.": "current",
                        "Ticket 5512 status: waiting on customer.": "superseded"}
    at_feb = _standing(tg, g, "ticket 5512 status", as_of="2024-02-15")
    assert at_feb == {"Ticket 5512 status: open.": "superseded",
                      "Ticket 5512 status: waiting on customer.": "current"}
    assert tg.search("ticket 5512", group_id=g, stale="label")[-1].superseded_by != (late,)
    again = tg.add_episode("ticket 5512 status: closed", reference_time="2024-04-01", group_id=g,
                           key="ticket-5512/status")
    assert again.superseded == []  # the same content confirms: nothing replaced
    assert _standing(tg, g, "ticket 5512 status")["Ticket 5512 status: closed."] == "current"


def test_a_question_answered_in_a_word_is_confirmed_by_its_answer_said_tersely(tg, tick, groups) -> None:
    g = groups()
    asked = _tell(tg, tick, g, "Who is on call this weekend? Priya.", "2024-01-05", key="rota/weekend")
    tick()
    again = tg.add_episode("On call this weekend: Priya", reference_time="2024-01-06", group_id=g,
                           key="rota/weekend")
    assert again.superseded == []
    assert _standing(tg, g, "on call this weekend")["Who is on call this weekend? Priya."] == "current"
    tick()
    other = tg.add_episode("On call this weekend: Marco", reference_time="2024-01-07", group_id=g,
                           key="rota/weekend")
    assert set(other.superseded) == {asked, again.episode.id}  # the value both gave


def test_retracting_the_new_message_restores_what_it_superseded(tg, tick, groups) -> None:
    g = groups()
    _tell(tg, tick, g, "I live in Paris.", "2024-01-01", key="Ann/home")
    newer = _tell(tg, tick, g, "Moving day is done, new flat sorted.", "2024-05-01", key="Ann/home")
    assert tg.now("Ann", "LIVES_IN", group_id=g) == []  # the fact only the old message told ended
    assert [f.object for f in tg.as_of("2024-02-01", subject="Ann", group_id=g)] == ["Paris"]
    tick()
    tg.retract_episode(newer, group_id=g)
    assert [f.object for f in tg.now("Ann", "LIVES_IN", group_id=g)] == ["Paris"]
    assert _standing(tg, g, "Paris flat") == {"I live in Paris.": "current"}


def test_a_later_value_only_the_replaced_message_gave_never_holds(tg, tick, groups) -> None:
    g = groups()
    old = _tell(tg, tick, g, "I'm moving to Lisbon in June.", "2024-01-10")
    told = tick()
    tick()
    new = tg.supersede(old, "Scratch that, plans are on hold.", reference_time="2024-03-01", speaker="Ann",
                       group_id=g)
    assert [(f.relation, f.object) for f in new.retracted] == [("LIVES_IN", "Lisbon")]
    assert tg.as_of("2024-07-01", subject="Ann", relation="LIVES_IN", group_id=g) == []
    # as known before the supersede, she was to live there from June
    before = tg.as_of("2024-07-01", known_at=told, subject="Ann", relation="LIVES_IN", group_id=g)
    assert [f.object for f in before] == ["Lisbon"]
    # and before the supersede's time, the old message was no stale one
    assert _standing(tg, g, "Lisbon", as_of="2024-02-01")["I'm moving to Lisbon in June."] == "current"
    tick()
    tg.retract_episode(new.episode.id, group_id=g)
    after = tg.as_of("2024-07-01", subject="Ann", relation="LIVES_IN", group_id=g)
    assert [f.object for f in after] == ["Lisbon"]


def test_supersede_by_id_by_query_and_as_a_dry_run(tg, tick, groups) -> None:
    g = groups()
    office = _tell(tg, tick, g, "Our office is at 221 Baker Street.", "2024-01-05")
    other = _tell(tg, tick, g, "The canteen opens at noon.", "2024-01-06")
    tick()
    listed = tg.supersede("office Baker Street", "The office relocated to 5 Market Square.",
                          reference_time="2024-06-01", group_id=g, dry_run=True)
    assert listed.dry_run and [e.id for e in listed.matched] == [office] and listed.episode is None
    messages = [h for h in tg.search("office", group_id=g, stale="show") if h.episode]
    assert len(messages) == 1  # nothing was written
    tick()
    done = tg.supersede(office, "The office relocated to 5 Market Square.", reference_time="2024-06-01",
                        group_id=g, speaker="Ann")
    assert done.result is not None and done.result.superseded == [office]
    standing = _standing(tg, g, "office canteen")
    assert standing["Our office is at 221 Baker Street."] == "superseded"
    assert standing["The canteen opens at noon."] in ("current", "unparsed")
    before = _standing(tg, g, "office", as_of="2024-03-01")
    assert before["Our office is at 221 Baker Street."] != "superseded"
    tick()
    again = tg.supersede([office], "The office relocated to 5 Market Square.", reference_time="2024-06-01",
                         group_id=g, speaker="Ann")
    assert again.result is not None and again.result.skipped and again.result.superseded == []
    with pytest.raises(NotFound):
        tg.supersede("0" * 32, "x", reference_time="2024-06-01", group_id=g)
    tg.retract_episode(other, group_id=g)
    with pytest.raises(InvalidInput, match="withdrawn"):
        tg.supersede(other, "The canteen opens at one.", reference_time="2024-06-02", group_id=g)


def test_keys_are_checked_like_group_ids(tg, groups) -> None:
    g = groups()
    for bad in ("", " padded ", "a\u200bb", "x" * 129):
        with pytest.raises(InvalidInput, match="key"):
            tg.add_episode("hello", reference_time="2024-01-01", group_id=g, key=bad)
    with pytest.raises(InvalidInput, match="keys"):
        tg.add_episode("hello", reference_time="2024-01-01", group_id=g, keys="not-a-list")
    assert tg.search("hello", group_id=g) == []  # nothing was written


def test_retract_entity_withdraws_a_person_and_restore_entity_brings_them_back(tg, tick, groups) -> None:
    g = groups()
    _tell(tg, tick, g, "Rafa lives in Leeds.", "2024-01-01")
    _tell(tg, tick, g, "Rafa plays the cello on Sundays.", "2024-01-02")
    _tell(tg, tick, g, "Noor lives in York.", "2024-01-03")
    before = tick()
    tick()
    retracted = tg.retract_entity("Rafa", group_id=g)
    assert retracted.expired and len(retracted.episodes) == 2
    assert tg.now("Rafa", group_id=g) == []
    assert [f.object for f in tg.now("Noor", group_id=g)] == ["York"]
    assert not [h for h in tg.search("Rafa cello Leeds", group_id=g, stale="show") if h.episode]
    # what was believed before stays as it was
    then = tg.as_of("2024-06-01", subject="Rafa", known_at=before, group_id=g)
    assert sorted(f.object for f in then) == ["Leeds", "cello"]
    assert "Rafa plays the cello on Sundays." in _standing(tg, g, "Rafa cello", known_at=before)
    assert tg.retract_entity("Rafa", group_id=g).already
    tick()
    restored = tg.restore_entity("Rafa", group_id=g)
    assert restored.added and not restored.already
    assert sorted(f.object for f in tg.now("Rafa", group_id=g)) == ["Leeds", "cello"]
    assert "Rafa plays the cello on Sundays." in _standing(tg, g, "Rafa cello")
    with pytest.raises(NotFound):
        tg.retract_entity("Nobody", group_id=g)


def test_a_partly_superseded_message_is_kept_below_what_replaced_it_and_labelled(tg, tick, groups) -> None:
    g = groups()
    _tell(tg, tick, g, "I live in Turin and I work at Fiat.", "2023-01-01")
    _tell(tg, tick, g, "I work at Ferrari now.", "2024-02-01")
    hits = tg.search("Turin Fiat Ferrari work", group_id=g, limit=20)
    old = next(h for h in hits if h.text == "I live in Turin and I work at Fiat.")
    assert old.standing == "partly_superseded" and old.stale_statements == ("Ann works at Fiat.",)
    ferrari = next(n for n, h in enumerate(hits) if h.fact is not None and h.fact.object == "Ferrari")
    assert ferrari < hits.index(old)
    block = tg.context("Where does Ann work?", group_id=g)
    line = next(x for x in block.splitlines() if "I work at Fiat" in x)
    assert "[partly superseded: no longer: Ann works at Fiat.; now: Ann works at Ferrari" in line


def test_erasing_a_message_removes_what_others_said_of_it(tg, tick, groups) -> None:
    g = groups()
    old = _tell(tg, tick, g, "Budget for Q3 is 40k.", "2024-01-01")
    tick()
    tg.supersede(old, "Budget for Q3 is 55k.", reference_time="2024-02-01", group_id=g)
    tick()
    tg.erase_episode(old, group_id=g)
    assert [a["relation"] for a in tg.export(g)["assertions"]] == []  # the supersede named it: gone too
    assert _standing(tg, g, "budget Q3") == {"Budget for Q3 is 55k.": "unparsed"}
