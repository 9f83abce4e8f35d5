"""Chat-export readers, on the project's own small fixtures (tests/data/exports/, one quirk each):
every message once, with its speaker, time and whole text; what is not speech counted, never
yielded; files refused saying what they looked like."""

from __future__ import annotations

import zipfile
from datetime import datetime, timezone
from pathlib import Path

import pytest

from ingestion.readers import ChatMessage, ReadError, Tally, detect_format, read_messages
from ingestion.readers.exports import plan
from ingestion.readers.messenger import repaired
from ingestion.readers.sources import open_source
from ingestion.readers.zones import import_zone
from temporal_graph.errors import ImportFormatError, InvalidInput

EXPORTS = Path(__file__).parent / "data" / "exports"
UTC = timezone.utc


def at(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=UTC)


def read(path: Path, **options: object) -> tuple[list[ChatMessage], list[ReadError], Tally]:
    tally = Tally()
    items = list(read_messages(path, tally=tally, **options))  # type: ignore[arg-type]
    return ([i for i in items if isinstance(i, ChatMessage)], [i for i in items if isinstance(i, ReadError)],
            tally)


def said(messages: list[ChatMessage]) -> list[tuple[str | None, datetime, str]]:
    return [(m.speaker, m.timestamp, m.content) for m in messages]


# --- WhatsApp ------------------------------------------------------------------------------------


def test_an_android_export_in_us_english() -> None:
    path = EXPORTS / "whatsapp" / "WhatsApp Chat with Hiking.txt"
    assert detect_format(path) == "whatsapp"
    messages, errors, tally = read(path, tz="America/Denver")
    assert errors == []
    assert {m.group_id for m in messages} == {"WhatsApp Chat with Hiking"}  # the chat's name, from the file's
    assert said(messages) == [
        ("Nora", at(2024, 3, 14, 15, 5), "I moved to Denver last month."),  # 9:05 AM MDT is 15:05 UTC
        # a multi-line message keeps its blank line and a line that looks like a date
        ("Pablo", at(2024, 3, 14, 15, 6),
         "Welcome! Here is my list for Saturday:\n\n- water\n3/16/24 trailhead at 7\n- snacks"),
        ("Nora", at(2024, 3, 14, 15, 9), "The view from the ridge"),  # the caption of an attached photo
        ("Pablo", at(2024, 3, 14, 15, 12), "I work as a nurse now."),  # the edited mark taken off
        ("Pablo", at(2024, 3, 14, 15, 12), "ok"),
        ("Pablo", at(2024, 3, 14, 15, 12), "ok"),  # said twice in one minute: two messages
        ("Nora", at(2024, 3, 14, 15, 12), "ok"),
        ("Nora", at(2024, 3, 26, 0, 45), "See you on the 30th!"),
    ]
    assert len({m.source_id for m in messages}) == len(messages)
    assert dict(tally.skipped) == {"system message (encryption notice)": 1, "system message": 3,
                                   "media without text": 2, "deleted message": 1}
    assert "dates read month first (line 1 settles it: 14 can only be a day)" in tally.notes
    assert "times read in America/Denver" in tally.notes


def test_an_ios_export_in_german_with_its_marks() -> None:
    messages, errors, tally = read(EXPORTS / "whatsapp" / "ios_de.txt", tz="Europe/Berlin")
    assert errors == []
    assert said(messages) == [
        ("Greta", at(2023, 4, 2, 16, 31, 10), "Ich wohne jetzt in Leipzig."),
        ("+49 151 2345678", at(2023, 4, 2, 16, 32), "Schön! Ich bin Onkel Max, neue Nummer."),  # no marks
        ("~\u202fLotte", at(2023, 4, 2, 16, 33, 15), "Hallo zusammen\nZeile zwei"),  # CRLF lines, no \r left
        ("Greta", at(2023, 4, 14, 5, 1), "Ich arbeite seit heute als Lehrerin."),
    ]
    # iOS marks its own notices with U+200E, even under an author's name
    assert dict(tally.skipped) == {"system message (encryption notice)": 1, "media without text": 1,
                                   "call": 1}
    assert tally.notes[0].startswith("dates read day first")


@pytest.mark.parametrize("line, expected", [
    ("3/6/18, 1:55\u202fPM - a: m", at(2018, 6, 3, 13, 55)),
    ("3/6/2018 1:55 p.\u00a0m. - a: m", at(2018, 6, 3, 13, 55)),
    ("03-06-2018, 01.55 PM - a: m", at(2018, 6, 3, 13, 55)),
    ("[3/6/18 1:55:00 p. m.] a: m", at(2018, 6, 3, 13, 55)),
    ("\u200e[3/6/18 1:55:07 a. m.] a: m", at(2018, 6, 3, 1, 55, 7)),
    ("13.06.18 21.25.15: a: m", at(2018, 6, 13, 21, 25, 15)),
    ("13.6.2018 klo 21.25.15 - a: m", at(2018, 6, 13, 21, 25, 15)),
    ("[2018/06/13, 21:25:15] a: m", at(2018, 6, 13, 21, 25, 15)),
    ("12/06/2018, 12:05 AM - a: m", at(2018, 6, 12, 0, 5)),
])
def test_the_locales_of_a_message_line(tmp_path: Path, line: str, expected: datetime) -> None:
    path = tmp_path / "chat.txt"
    path.write_text(f"{line}\n", encoding="utf-8")
    messages, errors, _ = read(path, tz="UTC", date_order="day-first")
    assert errors == [] and said(messages) == [("a", expected, "m")]


def test_a_file_whose_dates_settle_the_order_by_running_forward() -> None:
    messages, _, tally = read(EXPORTS / "whatsapp" / "ordered_day_first.txt", tz="UTC")
    assert [m.timestamp.date().isoformat() for m in messages] == ["2022-01-10", "2022-01-11", "2022-02-02",
                                                                  "2022-02-03"]
    assert tally.notes[0] == ("dates read day first: no date settles it, but only day first do they run "
                              "forward")


def test_a_file_whose_dates_settle_nothing_is_read_day_first_and_says_so() -> None:
    path = EXPORTS / "whatsapp" / "ambiguous.txt"
    messages, _, tally = read(path, tz="UTC")
    assert {m.timestamp.date().isoformat() for m in messages} == {"2021-06-05"}
    assert "could not be settled" in tally.notes[0] and "--date-order month-first" in tally.notes[0]
    month_first, _, tally = read(path, tz="UTC", date_order="month-first")
    assert {m.timestamp.date().isoformat() for m in month_first} == {"2021-05-06"}
    assert tally.notes[0] == "dates read month-first (as asked)"


def test_a_date_the_settled_order_cannot_read_is_a_bad_line_not_a_guess(tmp_path: Path) -> None:
    path = tmp_path / "chat.txt"
    path.write_text("13/01/22, 10:00 - Ivo: day first\n01/13/22, 10:01 - Ana: month first?\n",
                    encoding="utf-8")
    messages, errors, _ = read(path, tz="UTC")
    assert said(messages) == [("Ivo", at(2022, 1, 13, 10), "day first")]
    assert [(e.line, "read day first is no date" in e.reason) for e in errors] == [(2, True)]


def test_a_time_the_zone_skips_is_a_bad_line(tmp_path: Path) -> None:
    path = tmp_path / "chat.txt"
    path.write_text("26/03/23, 02:30 - Ivo: clocks went forward at 2\n26/03/23, 03:30 - Ivo: fine\n",
                    encoding="utf-8")
    messages, errors, _ = read(path, tz="Europe/Berlin")
    assert said(messages) == [("Ivo", at(2023, 3, 26, 1, 30), "fine")]
    assert [e.line for e in errors] == [1] and "does not exist" in errors[0].reason


def test_a_bad_byte_costs_its_own_message_only(tmp_path: Path) -> None:
    path = tmp_path / "chat.txt"
    start = b"13/01/22, 09:00 - Ana: a long start\n" + b"more words on another line\n" * 3000  # > 64 KiB
    path.write_bytes(start + b"13/01/22, 10:00 - Ivo: one\nsecond line \xff\n13/01/22, 10:01 - Ana: two\n")
    messages, errors, _ = read(path, tz="UTC")
    assert [m.content for m in messages][1:] == ["two"] and len(messages[0].content) > 64_000
    assert [e.line for e in errors] == [3002] and "line 3003: bytes at offset" in errors[0].reason


def test_a_zip_export_is_read_in_place_and_named_by_the_zip(tmp_path: Path) -> None:
    archive = tmp_path / "WhatsApp Chat - Hiking.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
        z.write(EXPORTS / "whatsapp" / "ios_de.txt", "_chat.txt")
        z.writestr("00000012-PHOTO-2023-04-02-18-31-40.jpg", b"\xff\xd8\xff not a real photo")
    messages, errors, _ = read(archive, tz="Europe/Berlin")
    assert errors == [] and len(messages) == 4
    assert {m.group_id for m in messages} == {"WhatsApp Chat - Hiking"}
    with open_source(archive) as source:
        found = plan(source)
        assert [u.label for u in found.units] == [f"{archive}/_chat.txt"]
        assert dict(found.ignored) == {"media and attachments": 1}


def test_an_ios_line_is_not_taken_for_json_and_garbage_is_not_whatsapp(tmp_path: Path) -> None:
    ios = tmp_path / "a.txt"
    ios.write_text("[8/15/23, 9:12:43 AM] Dr. Who: Hello there\n", encoding="utf-8")
    assert detect_format(ios) == "whatsapp"
    notes = tmp_path / "notes.txt"
    notes.write_text("Shopping list\nmilk\n", encoding="utf-8")
    with pytest.raises(ImportFormatError, match="unknown chat-log format; expected a chat export"):
        detect_format(notes)
    with pytest.raises(ImportFormatError, match="none of its first lines is a WhatsApp message line"):
        read_messages(notes, format="whatsapp")


# --- Slack ---------------------------------------------------------------------------------------


def test_a_slack_export_folder() -> None:
    messages, errors, tally = read(EXPORTS / "slack_export")
    assert errors == []
    by_group = {(m.group_id, m.speaker, m.content, m.source_id) for m in messages}
    assert by_group == {
        ("general", "Kira Lind", "I live in Malmo now, @Tomas Berg (tomas). Notes: our notes & "
                                 "https://example.org/raw", "1709280060.000200"),
        ("general", "Tomas Berg (tomas)", "Since when? cc #general @here",
         "1709280060.000200/1709280120.000300"),  # a reply's id names its thread
        ("general", "Tomas Berg (tomas.b)", "A reply under a deleted message.",
         "1709280300.000600/1709280360.000700"),
        ("general", "Tomas Berg (tomas.b)", "Different Tomas here: I work at Lund University.",
         "1709366400.000100"),
        ("D0DM00001", "Tomas Berg (tomas)", "Lunch tomorrow?", "1709452800.000100"),
        ("D0DM00001", "Kira Lind", "Yes, at noon.", "1709452860.000200"),
    }
    assert next(m.timestamp for m in messages if m.source_id == "1709280060.000200") == \
        datetime(2024, 3, 1, 8, 1, 0, 200, tzinfo=UTC)
    assert dict(tally.skipped) == {"system message (channel_join)": 1, "system message (bot_add)": 1,
                                   "bot message": 2, "deleted message (tombstone)": 1,
                                   "media without text": 1, "system message (channel_topic)": 1}
    assert tally.conversations == {"D0DM00001": "direct message: Kira Lind, Tomas Berg (tomas)"}
    assert any("kept apart as 'Tomas Berg (tomas.b)'" in note for note in tally.notes)


def test_a_slack_zip_is_the_same_export(tmp_path: Path) -> None:
    archive = tmp_path / "workspace export.zip"
    with zipfile.ZipFile(archive, "w") as z:
        for file in (EXPORTS / "slack_export").rglob("*"):
            if file.is_file():
                z.write(file, f"Workspace/{file.relative_to(EXPORTS / 'slack_export').as_posix()}")
    folder, _, _ = read(EXPORTS / "slack_export")
    zipped, errors, _ = read(archive)
    assert errors == [] and said(zipped) == said(folder)
    assert {m.file for m in zipped} == {f"{archive}/Workspace/general/2024-03-01.json",
                                        f"{archive}/Workspace/general/2024-03-02.json",
                                        f"{archive}/Workspace/D0DM00001/2024-03-03.json"}


def test_one_slack_day_file_alone_is_refused_saying_what_it_is() -> None:
    with pytest.raises(ImportFormatError, match="looks like one day of a Slack channel, but a Slack "
                                                "export is read whole: give its folder or zip"):
        read_messages(EXPORTS / "slack_export" / "general" / "2024-03-01.json")


# --- Telegram ------------------------------------------------------------------------------------


def test_a_whole_telegram_export_in_json() -> None:
    messages, errors, tally = read(EXPORTS / "telegram" / "result.json", tz="Europe/Tallinn")
    assert errors == []
    assert [(m.group_id, m.speaker, m.timestamp, m.content, m.source_id) for m in messages] == [
        ("4242", "Jon", at(2023, 5, 1, 9, 1), "I moved to Tallinn in April, see https://example.org", "11"),
        ("4242", "Mira", at(2023, 5, 1, 9, 3), "Our new balcony", "13"),  # a photo's caption is words
        ("4242", "Deleted Account (user99)", at(2023, 5, 1, 9, 4), "A word from a deleted account", "14"),
        ("5151", "Mira", at(2019, 2, 3, 8, 5), "No unix time in this old export.", "2"),  # 10:05 in Tallinn
        ("5151", "Sam (user1)", at(2019, 2, 3, 8, 6), "Two Sams here.", "3"),
        ("5151", "Sam (user2)", at(2019, 2, 3, 8, 7), "Yes, the other one.", "4"),
        ("6161", "Mira", at(2021, 6, 1, 12), "Bye all", "7"),  # a chat left is still read
    ]
    assert dict(tally.skipped) == {"call": 1, "media without text": 1, "system message (create_group)": 1}
    assert tally.conversations == {"4242": "Mira & Jon", "5151": "Old club", "6161": "Left group"}
    assert "times without date_unixtime read in Europe/Tallinn" in tally.notes


def test_a_telegram_html_chat_over_two_pages() -> None:
    messages, errors, tally = read(EXPORTS / "telegram" / "html_chat")
    assert errors == []
    assert [(m.group_id, m.speaker, m.timestamp, m.content) for m in messages] == [
        ("Book club", "Lea", at(2024, 3, 1, 17), 'I finished "Dune" & loved it.\nNext: Emma.'),
        ("Book club", "Omar", at(2024, 3, 1, 17, 1), "Same here."),
        ("Book club", "Omar", at(2024, 3, 1, 17, 3), "And a second line from Omar."),  # joined: Omar's
        ("Book club", "Omar", at(2024, 3, 1, 17, 4), "Still Omar, on the next page."),  # across pages too
        ("Book club", "Lea", at(2024, 3, 1, 17, 6), "I agree with that."),  # not "In reply to this message"
        ("Book club", "Omar", at(2024, 3, 1, 17, 7), "A quote that was forwarded."),  # Omar forwarded it
    ]
    assert dict(tally.skipped) == {"system message": 1, "media without text": 1}


def test_a_joined_message_with_nobody_before_it_is_a_bad_record(tmp_path: Path) -> None:
    page = (EXPORTS / "telegram" / "html_chat" / "messages2.html").read_text(encoding="utf-8")
    path = tmp_path / "messages.html"
    path.write_text(page, encoding="utf-8")
    messages, errors, _ = read(path)
    assert [e.line for e in errors] == [105] and "no sender" in errors[0].reason
    assert [m.source_id for m in messages] == ["107", "108"]


# --- Discord, Messenger, Claude ------------------------------------------------------------------


def test_a_discord_channel() -> None:
    messages, errors, tally = read(EXPORTS / "discord" / "channel.json")
    assert errors == []
    assert [(m.group_id, m.speaker, m.timestamp, m.content, m.source_id) for m in messages] == [
        ("901", "Ro (rowan#0001)", at(2024, 2, 1, 9, 1), "I live in Bergen.", "2"),
        ("901", "sky", at(2024, 2, 1, 10, 2), "Edited: I work as a pilot.", "3"),  # first time, last text
        ("901", "sky", at(2024, 2, 1, 10, 2), "Edited: I work as a pilot.", "3"),  # stored once, though
        ("901", "Ro (rory#0002)", at(2024, 2, 1, 12, 3), "Another Ro, not the first one.", "8"),
    ]
    assert dict(tally.skipped) == {"system message (GuildMemberJoin)": 1, "call": 1,
                                   "system message (ChannelNameChange)": 1, "media without text": 1,
                                   "bot message": 1}
    assert tally.conversations == {"901": "Trail Friends / Chat / general"}


def test_a_messenger_thread_in_two_parts_newest_first() -> None:
    messages, errors, tally = read(EXPORTS / "messenger" / "inbox" / "renee_5551234")
    assert errors == []
    assert sorted((m.timestamp, m.speaker, m.content) for m in messages) == [
        (at(2020, 9, 13, 12, 26, 40), "Renée", "ok"),
        (at(2020, 9, 13, 12, 26, 40), "Renée", "ok"),
        (at(2020, 9, 13, 12, 28, 20), "Bao", "Older part: I live in Hanoi."),
        (at(2023, 11, 14, 22, 46, 40), "Renée", "Je vis à Zürich maintenant ☕"),  # mojibake repaired
    ]
    assert len({m.source_id for m in messages}) == 4
    assert {m.group_id for m in messages} == {"inbox/renee_5551234"}
    assert dict(tally.skipped) == {"deleted message": 1, "call": 1, "media without text": 1}
    assert tally.conversations == {"inbox/renee_5551234": "Renée"}


def test_mojibake_repair_leaves_real_text_alone() -> None:
    assert repaired("CafÃ© â\x98\x95") == "Café ☕"
    assert repaired("Café") == "Café"  # already right: not bytes of UTF-8
    assert repaired("Zürich ☕") == "Zürich ☕"


def test_a_claude_export_leaves_attachment_text_out() -> None:
    messages, errors, tally = read(EXPORTS / "claude" / "conversations.json")
    assert errors == []
    assert [(m.group_id, m.speaker, m.content) for m in messages] == [
        ("c-1", "user", "I am moving from Oslo to Bern in June. Can you help with a checklist?"),
        ("c-1", "assistant", "Here is a checklist:\n1. Register in Bern."),
        ("c-2", "user", "Thanks, all done."),
    ]
    assert not any("Karl" in m.content for m in messages)  # the lease's words are not the user's
    assert dict(tally.skipped) == {"media without text": 1}
    assert any("1 attachment(s) left out" in note for note in tally.notes)


# --- a folder of several exports, zones ----------------------------------------------------------


def test_a_folder_of_exports_is_planned_by_content(tmp_path: Path) -> None:
    with open_source(EXPORTS) as source:
        found = plan(source)
    assert [(u.format, Path(u.label).relative_to(EXPORTS).as_posix()) for u in found.units] == [
        ("auto", "claude/conversations.json"),
        ("auto", "discord/channel.json"),
        ("messenger-parts", "messenger/inbox/renee_5551234"),
        ("slack", "slack_export"),
        ("telegram-html", "telegram/html_chat"),
        ("auto", "telegram/result.json"),
        ("auto", "whatsapp/WhatsApp Chat with Hiking.txt"),
        ("auto", "whatsapp/ambiguous.txt"),
        ("auto", "whatsapp/ios_de.txt"),
        ("auto", "whatsapp/ordered_day_first.txt"),
    ]
    assert dict(found.ignored) == {"media and attachments": 2}  # a photo and a stylesheet


def test_zones() -> None:
    assert import_zone("UTC")[1] == "UTC"
    assert import_zone("+05:30")[0].utcoffset(None).total_seconds() == 5.5 * 3600  # type: ignore[union-attr]
    assert import_zone("Europe/Berlin")[1] == "Europe/Berlin"
    assert "this machine's zone" in import_zone(None)[1]
    with pytest.raises(InvalidInput, match="'Mars/Olympus' is not a time zone"):
        import_zone("Mars/Olympus")


def test_a_zip_that_is_no_zip_is_refused_clearly(tmp_path: Path) -> None:
    broken = tmp_path / "export.zip"
    broken.write_bytes(b"PK\x03\x04" + b"\0" * 20)
    with pytest.raises(ImportFormatError, match="looks like a zip file but cannot be opened"):
        list(read_messages(broken))


def test_a_zip_member_is_read_without_unpacking_it(tmp_path: Path) -> None:
    archive = tmp_path / "x.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("WhatsApp Chat with X.txt", "1/13/22, 10:00 - Ivo: hi\n")
    assert not list(tmp_path.glob("*.txt"))
    messages, _, _ = read(archive, tz="UTC")
    assert said(messages) == [("Ivo", at(2022, 1, 13, 10), "hi")] and not list(tmp_path.glob("*.txt"))


def test_a_broken_export_says_which_export_it_is(tmp_path: Path) -> None:
    whole = (EXPORTS / "telegram" / "result.json").read_text(encoding="utf-8")
    cut = tmp_path / "result.json"
    cut.write_text(whole[: len(whole) // 2], encoding="utf-8")  # an export stopped halfway
    with pytest.raises(ImportFormatError, match="looks like a Telegram Desktop export, but not valid JSON"):
        detect_format(cut)
