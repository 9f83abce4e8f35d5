"""The 20 real export files other projects keep as test data (``../shared/data/exports``, see its
NOTICE.md: several are AGPL test data, read in place and never copied here), imported as a new user
would: one folder, one command. Skipped, saying so, when the shared data is absent."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ingestion.readers import ChatMessage, read_messages
from temporal_graph import TemporalGraph
from temporal_graph.core.model import ImportReport

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("TGRAPH_SHARED") or ROOT.parent / "shared")
EXPORTS = SHARED / "data" / "exports"

pytestmark = pytest.mark.skipif(
    not (EXPORTS / "NOTICE.md").exists(),
    reason=f"the shared export fixtures are not here ({EXPORTS}; set TGRAPH_SHARED)")

# file -> (format, read, stored, skipped by reason)
EXPECTED = {
    "chatgpt/001_simple_text/raw.json": ("chatgpt", 2, 2, {}),
    "chatgpt/002_with_images/raw.json": ("chatgpt", 4, 4, {}),
    "chatgpt/003_with_code/raw.json": ("chatgpt", 6, 6, {}),
    "claude/simple.json": ("claude", 4, 4, {}),
    "claude/with-attachments.json": ("claude", 4, 4, {}),
    "discord/DM_2A_2M.json": ("discord", 1, 1, {"bot message": 1, "call": 1}),
    "discord/GC_3A_5M.json": ("discord", 3, 3, {"system message (ChannelNameChange)": 1,
                                                "system message (ChannelIconChange)": 1, "call": 1}),
    "discord/SV_5A_5M.json": ("discord", 5, 4, {"duplicate (the same message twice in the file)": 1}),
    "messenger/2A_7M.json": ("messenger", 3, 3, {"media without text": 4}),
    "slack/source_export_dir": ("slack", 12, 12, {"system message (channel_join)": 1,
                                                  "deleted message (tombstone)": 1, "media without text": 1,
                                                  "bot message": 1}),
    "slack/testarchive.zip": ("slack", 50, 50, {"system message (channel_join)": 8,
                                                "system message (bot_add)": 3, "bot message": 94,
                                                "media without text": 3}),
    "telegram": ("telegram", 4, 4, {}),  # messages.html
    "telegram/DM_2A_7M.json": ("telegram", 4, 4, {"system message (joined_telegram)": 1,
                                                  "media without text": 2, "call": 1}),
    "telegram/result.json": ("telegram", 4, 4, {}),
    "whatsapp/2A_5M.txt": ("whatsapp", 4, 4, {"media without text": 1}),
    "whatsapp/4A_11M.txt": ("whatsapp", 11, 11, {"system message (encryption notice)": 1,
                                                 "system message": 2}),
    "whatsapp/4A_11M.zip/_chat.txt": ("whatsapp", 11, 11, {"system message (encryption notice)": 1,
                                                           "system message": 2}),
    "whatsapp/examples/whatsapp_chat.txt": ("whatsapp", 8, 8, {"media without text": 1,
                                                               "deleted message": 1}),
    "whatsapp/pustur_locale_lines.txt": ("whatsapp", 11, 11, {"system message": 2, "media without text": 1}),
    "whatsapp/whatsapp_chat.txt": ("whatsapp", 8, 8, {"system message (encryption notice)": 1,
                                                      "media without text": 3}),
}


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> tuple[ImportReport, dict[str, list[tuple]]]:
    db = tmp_path_factory.mktemp("fixtures") / "m.db"
    with TemporalGraph.open(db, embed=False, mask=False) as tg:
        report = tg.import_file(EXPORTS, progress=False, tz="UTC")
        said = {g: sorted((e.reference_time.isoformat(), e.speaker, e.content)
                          for e in tg.core.store.episodes(g)) for g in report.groups}
    return report, said


def test_all_20_fixtures_import_in_one_command(imported: tuple[ImportReport, dict[str, list[tuple]]]) -> None:
    report, _ = imported
    got = {Path(f.path).relative_to(EXPORTS).as_posix(): (f.format, f.read, f.stored, f.skipped)
           for f in report.files}
    assert got == EXPECTED
    assert all(f.errors == 0 for f in report.files) and report.errors == [] and report.conflicts == []
    assert [(Path(r.path).name, r.looks_like) for r in report.refused] == [("NOTICE.md", None)]  # no export


def test_the_quirks_of_the_real_files(imported: tuple[ImportReport, dict[str, list[tuple]]]) -> None:
    report, said = imported
    # WhatsApp: a message continued on a blank line and on a line that looks like a date
    pustur = said["pustur_locale_lines"]
    assert ("2017-04-09T01:50:00+00:00", "+410123456789", "How are you?\n\nIs everything alright?") in pustur
    assert ("2018-06-23T13:55:00+00:00", "Loris", "one\ntwo\n2016-04-29 10:30:00") in pustur
    # iOS: the encryption notice under an author's name and "image omitted" are not speech
    assert [s for _, s, _ in said["whatsapp/whatsapp_chat"]].count("Dr. Feather") == 4
    # the same chat as a .txt and in its zip: the same messages, kept in two groups, each said why
    assert [t for _, _, t in said["whatsapp/4A_11M"]] == [t for _, _, t in said["whatsapp/4A_11M.zip"]]
    # Telegram HTML: the last message has no sender of its own: the one above's
    assert said["Jimmeny Marvelton"][-1] == ("2023-08-23T21:15:53+00:00", "Jimmeny Marvelton",
                                             "you will not trick me this time")
    # Telegram JSON: text as a list of parts
    assert ("2019-07-12T16:55:32+00:00", "Bob", "https://google.com 👀") in said["700000000"]
    # Discord: a nickname over the name
    assert [s for _, s, _ in said["1064990764406419508"]] == ["theplant", "lombi", "mlomb"]
    # Slack: mentions by name, thread replies with their thread
    assert any(t.startswith("@Harry Potter: ") for _, _, t in said["enrique"])
    assert not any("<@U" in t for g in ("enrique", "traveling-sailor", "B75B4C7") for _, _, t in said[g])
    # Messenger: newest first in the file, oldest first in the memory
    assert [t for _, _, t in said["inbox/alice_aaaaaaaaaa"]] == ["you what", "Whats up!", "Hello"]
    # Claude: the attachment's code is not the user's words
    attached = said["conv-02J9K0L1M2N3O4P5Q6R7S8T9"]
    assert not any("def save_config(path, data):\n    with open" in t for _, s, t in attached if s == "user")
    assert report.speakers["whatsapp/4A_11M"] == ["Alice", "Bob", "Eve", "Mallory", "Trent"]


def test_a_second_import_of_the_folder_adds_nothing(
    imported: tuple[ImportReport, dict[str, list[tuple]]], tmp_path: Path
) -> None:
    with TemporalGraph.open(tmp_path / "m.db", embed=False) as tg:
        first = tg.import_file(EXPORTS / "whatsapp", progress=False, tz="UTC")
        again = tg.import_file(EXPORTS / "whatsapp", progress=False, tz="UTC")
    assert first.episodes_imported == 53 and again.episodes_imported == 0
    assert sum(f.skipped.get("already imported", 0) for f in again.files) == 53


@pytest.mark.parametrize("name", ["whatsapp/whatsapp_chat.txt", "slack/testarchive.zip",
                                  "telegram/messages.html"])
def test_each_fixture_reads_on_its_own_too(name: str) -> None:
    messages = [m for m in read_messages(EXPORTS / name, tz="UTC") if isinstance(m, ChatMessage)]
    assert len(messages) == {"whatsapp/whatsapp_chat.txt": 8, "slack/testarchive.zip": 50,
                             "telegram/messages.html": 4}[name]
