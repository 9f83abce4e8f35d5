"""Importing chat exports as a user would (issue 52): each format stores every message once, with
its speaker, time and whole text, and never a system line as speech; a second import adds nothing;
an import stopped midway resumes. A folder or zip imports every export in it; the report says per
file what was read, stored and skipped, which files were refused and why, and who spoke in each
group; an identities file makes several ids one person."""

from __future__ import annotations

import json
import shutil
import zipfile
from datetime import datetime
from pathlib import Path

import pytest

from ingestion import batch
from ingestion.ingest import Ingestion
from ingestion.readers import ChatMessage, read_messages
from temporal_graph import TemporalGraph
from temporal_graph.core.names import clean_name
from temporal_graph.errors import ImportFormatError
from temporal_graph.interfaces.cli import main

EXPORTS = Path(__file__).parent / "data" / "exports"


def zipped(folder: Path, target: Path, inside: str = "") -> Path:
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as z:
        for file in sorted(folder.rglob("*")):
            if file.is_file():
                z.write(file, inside + file.relative_to(folder).as_posix())
    return target


def whatsapp_zip(tmp: Path) -> Path:
    target = tmp / "WhatsApp Chat - Familie.zip"
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as z:
        z.write(EXPORTS / "whatsapp" / "ios_de.txt", "_chat.txt")
        z.writestr("00000003-PHOTO-2023-04-02-18-31-40.jpg", b"\xff\xd8\xff")
    return target


# (name, how to make the path, tz, messages read, distinct messages stored, skipped by reason)
CASES = [
    ("whatsapp android", lambda tmp: EXPORTS / "whatsapp" / "WhatsApp Chat with Hiking.txt", "America/Denver",
     8, 8, {"system message (encryption notice)": 1, "system message": 3, "media without text": 2,
            "deleted message": 1}),
    ("whatsapp ios zip", whatsapp_zip, "Europe/Berlin", 4, 4,
     {"system message (encryption notice)": 1, "media without text": 1, "call": 1}),
    ("slack folder", lambda tmp: EXPORTS / "slack_export", None, 6, 6,
     {"system message (channel_join)": 1, "system message (bot_add)": 1, "bot message": 2,
      "deleted message (tombstone)": 1, "media without text": 1, "system message (channel_topic)": 1}),
    ("slack zip", lambda tmp: zipped(EXPORTS / "slack_export", tmp / "slack.zip", "export/"), None, 6, 6,
     {"system message (channel_join)": 1, "system message (bot_add)": 1, "bot message": 2,
      "deleted message (tombstone)": 1, "media without text": 1, "system message (channel_topic)": 1}),
    ("telegram json", lambda tmp: EXPORTS / "telegram" / "result.json", "Europe/Tallinn", 7, 7,
     {"call": 1, "media without text": 1, "system message (create_group)": 1}),
    ("telegram html", lambda tmp: EXPORTS / "telegram" / "html_chat", None, 6, 6,
     {"system message": 1, "media without text": 1}),
    ("discord", lambda tmp: EXPORTS / "discord" / "channel.json", None, 4, 3,
     {"system message (GuildMemberJoin)": 1, "call": 1, "system message (ChannelNameChange)": 1,
      "media without text": 1, "bot message": 1, "duplicate (the same message twice in the file)": 1}),
    ("messenger", lambda tmp: EXPORTS / "messenger" / "inbox" / "renee_5551234", None, 4, 4,
     {"deleted message": 1, "call": 1, "media without text": 1}),
    ("claude", lambda tmp: EXPORTS / "claude" / "conversations.json", None, 3, 3, {"media without text": 1}),
]


Said = list[tuple[str, str | None, datetime, str]]


def stored(tg: TemporalGraph, groups: list[str]) -> Said:
    return sorted((e.group_id, e.speaker, e.reference_time, e.content)
                  for g in groups for e in tg.core.store.episodes(g))


def expected(path: Path, tz: str | None) -> Said:
    """What the readers give (tested on their own in test_export_readers.py), one per message id."""
    messages = {(m.group_id, m.source_id): m
                for m in read_messages(path, tz=tz) if isinstance(m, ChatMessage)}
    return sorted((m.group_id or "default", clean_name(m.speaker) if m.speaker else None, m.timestamp,
                   m.content) for m in messages.values())


@pytest.mark.parametrize("name, make, tz, read, distinct, skipped", CASES, ids=[c[0] for c in CASES])
def test_each_format_imports_every_message_once_and_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, make, tz: str | None, read: int,
    distinct: int, skipped: dict[str, int],
) -> None:
    path = make(tmp_path)
    want = expected(path, tz)
    assert len(want) == distinct
    real, calls = batch._apply_batch, []

    def power_cut(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise RuntimeError("the power went out")
        return real(*args, **kwargs)

    with TemporalGraph.open(tmp_path / "m.db", embed=False, mask=False) as tg:
        monkeypatch.setattr(batch, "_apply_batch", power_cut)
        with pytest.raises(RuntimeError):
            Ingestion(tg.core).import_file(path, progress=False, batch_size=2, tz=tz)
        monkeypatch.setattr(batch, "_apply_batch", real)
        groups = sorted({g for g, *_ in want})  # type: ignore[misc]
        first = stored(tg, groups)
        assert 0 < len(first) < distinct or distinct <= 2  # one batch of two committed, no more

        report = Ingestion(tg.core).import_file(path, progress=False, batch_size=2, tz=tz)
        assert stored(tg, groups) == want  # every message once: speaker, time, whole text
        assert report.episodes_read == read and report.episodes_imported == distinct - len(first)
        [counts] = report.files
        resumed = dict(skipped, **({"already imported": len(first)} if first else {}))
        assert (counts.read, counts.stored, counts.skipped, counts.errors) == (read, distinct - len(first),
                                                                              resumed, 0)

        again = tg.import_file(path, progress=False, tz=tz)
        assert again.episodes_imported == 0 and again.files[0].stored == 0
        assert again.files[0].skipped["already imported"] == distinct
        assert stored(tg, groups) == want


SPOKEN = {"Messages and calls", "created group", "added Pablo", "<Media omitted>", "This message was deleted",
          "has joined",
          "Build 12 passed", "Deployed", "integration", "set the channel topic", "Started a call", "unsent",
          "pinned", "sent a photo", "Ende-zu-Ende", "omitted", "Missed voice call", "The tenant Karl"}


def test_a_folder_of_exports_imports_each_into_its_groups(tmp_path: Path) -> None:
    with TemporalGraph.open(tmp_path / "m.db", embed=False) as tg:
        report = tg.import_file(EXPORTS, progress=False, tz="UTC")
        episodes = [e for g in report.groups for e in tg.core.store.episodes(g)]
    assert report.refused == [] and report.errors == []
    assert report.not_read == {"media and attachments": 2}
    assert len(report.files) == 10
    assert report.format == "claude, discord, messenger, slack, telegram, whatsapp"
    assert report.episodes_imported == len(episodes) == 48
    assert not [e.content for e in episodes if any(word in e.content for word in SPOKEN)]  # never as speech
    assert report.groups == {
        "c-1": 2, "c-2": 1, "901": 3, "inbox/renee_5551234": 4, "D0DM00001": 2, "general": 4, "Book club": 6,
        "4242": 3, "5151": 3, "6161": 1, "WhatsApp Chat with Hiking": 8, "ambiguous": 3, "ios_de": 4,
        "ordered_day_first": 4}
    assert report.speakers["general"] == ["Tomas Berg (tomas.b)", "Kira Lind", "Tomas Berg (tomas)"]
    assert report.speakers["WhatsApp Chat with Hiking"] == ["Nora", "Pablo"]
    assert report.speakers["ios_de"] == ["Greta", "+49 151 2345678", "~ Lotte"]
    by_path = {Path(f.path).relative_to(EXPORTS).as_posix(): f for f in report.files}
    assert by_path["telegram/result.json"].conversations == {"4242": "Mira & Jon", "5151": "Old club",
                                                             "6161": "Left group"}
    assert any("could not be settled" in note for note in by_path["whatsapp/ambiguous.txt"].notes)
    assert "times read in UTC" in by_path["whatsapp/ios_de.txt"].notes


def test_one_group_for_everything_with_group(tmp_path: Path) -> None:
    with TemporalGraph.open(tmp_path / "m.db", embed=False) as tg:
        report = tg.import_file(EXPORTS / "whatsapp", group_id="family", progress=False, tz="UTC")
    assert report.groups == {"family": 19} and list(report.speakers) == ["family"]


def test_files_a_folder_cannot_read_are_refused_saying_what_they_looked_like(tmp_path: Path) -> None:
    folder = tmp_path / "downloads"
    folder.mkdir()
    shutil.copy(EXPORTS / "whatsapp" / "ambiguous.txt", folder / "chat.txt")
    shutil.copy(EXPORTS / "slack_export" / "general" / "2024-03-01.json", folder / "2024-03-01.json")
    (folder / "todo.txt").write_text("buy milk\ncall mum\n", encoding="utf-8")
    (folder / "voice.opus").write_bytes(b"OggS")
    with TemporalGraph.open(tmp_path / "m.db", embed=False) as tg:
        report = tg.import_file(folder, progress=False, tz="UTC")
        assert report.episodes_imported == 3 and report.not_read == {"media and attachments": 1}
        assert [(Path(r.path).name, r.looks_like) for r in report.refused] == [
            ("2024-03-01.json", "one day of a Slack channel"), ("todo.txt", None)]
        assert "give its folder or zip" in report.refused[0].reason
        assert report.refused[1].reason.startswith("unknown chat-log format")
        with pytest.raises(ImportFormatError, match="2024-03-01.json: looks like one day of a Slack channel.*"
                                                    "--strict: stopped; nothing was imported"):
            tg.import_file(folder, progress=False, strict=True, tz="UTC", group_id="strict")
        assert tg.core.store.episodes("strict") == []


def test_a_folder_with_no_export_is_one_clear_error(tmp_path: Path) -> None:
    (tmp_path / "photo.jpg").write_bytes(b"\xff\xd8")
    (tmp_path / "notes.md").write_text("# notes\n", encoding="utf-8")
    nothing = r"no chat export found in it \(1 media and attachments not read\); refused: .*notes.md: unknown"
    with TemporalGraph.open(":memory:", embed=False) as tg, pytest.raises(ImportFormatError, match=nothing):
        tg.import_file(tmp_path, progress=False)


def test_an_identities_file_makes_ids_one_person_where_they_speak(tmp_path: Path) -> None:
    who = tmp_path / "who.json"
    who.write_text(json.dumps({"Pablo Ruiz": ["Pablo", "+34 600 000 000"], "Greta Vogel": "Greta"}),
                   encoding="utf-8")
    with TemporalGraph.open(tmp_path / "m.db", embed=False) as tg:
        tg.import_file(EXPORTS / "whatsapp", progress=False, tz="UTC", identities=who)
        chat = "WhatsApp Chat with Hiking"
        assert [f.object for f in tg.now("Pablo Ruiz", group_id=chat) if f.relation == "WORKS_AS"] == \
            ["nurse"]
        names = {g: {e.name for e in tg.core.store.entities(g)} for g in ("ambiguous", chat)}
        assert "Pablo Ruiz" in names[chat] and "Pablo" not in names[chat]
        assert "Pablo Ruiz" not in names["ambiguous"]  # none of his ids speaks there: no stray person
        greta = tg.core.store.entity_by_key("ios_de", "greta")  # her id, in German: no facts, one person
        assert greta is not None and greta.name == "Greta Vogel" and "Greta" in greta.aliases


def test_identities_in_csv_and_refusals(tmp_path: Path) -> None:
    from ingestion.identities import load_identities

    table = tmp_path / "who.csv"
    table.write_text("person,id,note\nKira Lind,kira,slack\nKira Lind,U01,\n\n"
                     "Tomas Berg,Tomas Berg (tomas)\n", encoding="utf-8")
    assert load_identities(table) == {"kira": "Kira Lind", "U01": "Kira Lind",
                                      "Tomas Berg (tomas)": "Tomas Berg"}
    twice = tmp_path / "twice.json"
    twice.write_text(json.dumps({"Ann": ["a1"], "Bea": ["a1"]}), encoding="utf-8")
    with pytest.raises(ImportFormatError, match="id 'a1' is given to both 'Ann' and 'Bea'"):
        load_identities(twice)
    headless = tmp_path / "headless.csv"
    headless.write_text("kira,Kira Lind\n", encoding="utf-8")
    with pytest.raises(ImportFormatError, match="header naming the columns 'id' and 'person'"):
        load_identities(headless)
    with TemporalGraph.open(":memory:", embed=False) as tg, pytest.raises(ImportFormatError, match="a1"):
        tg.import_file(EXPORTS / "claude" / "conversations.json", identities=twice, progress=False)


def test_times_without_a_zone_are_read_in_the_machines_zone_and_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TZ", "Asia/Tokyo")
    with TemporalGraph.open(":memory:", embed=False) as tg:
        report = tg.import_file(EXPORTS / "whatsapp" / "ios_de.txt", progress=False)
        first = min(e.reference_time for e in tg.core.store.episodes("ios_de"))
    assert first.isoformat() == "2023-04-02T09:31:10+00:00"  # 18:31:10 in Tokyo
    assert "times read in Asia/Tokyo (this machine's zone; --tz to choose another)" in report.files[0].notes


def test_imported_again_in_another_zone_is_a_conflict_not_a_copy(tmp_path: Path) -> None:
    path = EXPORTS / "whatsapp" / "ios_de.txt"
    with TemporalGraph.open(tmp_path / "m.db", embed=False) as tg:
        tg.import_file(path, progress=False, tz="Europe/Berlin")
        again = tg.import_file(path, progress=False, tz="UTC")
        assert again.episodes_imported == 0 and len(again.conflicts) == 4
        assert "already used in the memory" in again.conflicts[0].reason
        assert len(tg.core.store.episodes("ios_de")) == 4


def test_a_later_export_of_the_same_chat_adds_only_what_is_new(tmp_path: Path) -> None:
    early = tmp_path / "WhatsApp Chat with Hiking.txt"
    lines = (EXPORTS / "whatsapp" / "WhatsApp Chat with Hiking.txt").read_text(encoding="utf-8").splitlines()
    early.write_text("\n".join(lines[:-1]) + "\n", encoding="utf-8")
    with TemporalGraph.open(tmp_path / "m.db", embed=False) as tg:
        assert tg.import_file(early, progress=False, tz="UTC").episodes_imported == 7
        later = tmp_path / "later" / "WhatsApp Chat with Hiking.txt"
        later.parent.mkdir()
        shutil.copy(EXPORTS / "whatsapp" / "WhatsApp Chat with Hiking.txt", later)
        report = tg.import_file(later, progress=False, tz="UTC")
        assert (report.episodes_imported, report.files[0].skipped["already imported"]) == (1, 7)


def test_the_command_line_reports_per_file_and_takes_tz_and_identities(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "m.db")
    who = tmp_path / "who.json"
    who.write_text(json.dumps({"Ivo Santos": ["Ivo"]}), encoding="utf-8")
    folder = tmp_path / "chats"
    shutil.copytree(EXPORTS / "whatsapp", folder)
    (folder / "todo.txt").write_text("buy milk\n", encoding="utf-8")
    assert main(["--db", db, "import", str(folder), "--quiet", "--no-embed", "--tz", "Europe/Lisbon",
                 "--identities", str(who)]) == 0
    out = " ".join(capsys.readouterr().out.split())  # a table's cells wrap on a narrow terminal
    assert "per file" in out and "3 system message" in out
    assert "could not be settled" in out and "times read in Europe/Lisbon" in out
    assert f"refused {folder}/todo.txt: unknown chat-log format" in out
    assert "speakers in group 'WhatsApp Chat with Hiking': 'Nora', 'Pablo'" in out
    assert "--identities" in out
    assert main(["--db", db, "--json", "import", str(folder / "ambiguous.txt"), "--date-order", "month-first",
                 "--group", "month first"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["files"][0]["notes"][0] == "dates read month-first (as asked)"
    assert report["speakers"] == {"month first": ["Ivo", "Ana"]}  # the ids in the file, for --identities
    assert main(["--db", db, "import", str(folder), "--tz", "Mars/Base"]) == 2
    assert "'Mars/Base' is not a time zone" in capsys.readouterr().err


def test_a_slack_export_with_a_broken_users_file_is_refused_and_the_rest_imports(tmp_path: Path) -> None:
    folder = tmp_path / "exports"
    shutil.copytree(EXPORTS / "slack_export", folder / "slack")
    (folder / "slack" / "users.json").write_text('[{"id": "U01", ', encoding="utf-8")  # cut short
    shutil.copy(EXPORTS / "whatsapp" / "ambiguous.txt", folder / "chat.txt")
    with TemporalGraph.open(tmp_path / "m.db", embed=False) as tg:
        report = tg.import_file(folder, progress=False, tz="UTC")
    assert report.episodes_imported == 3 and [f.format for f in report.files] == ["whatsapp"]
    [refused] = report.refused
    assert refused.path == f"{folder}/slack" and refused.looks_like == "a Slack export"
    assert "users.json: not valid JSON" in refused.reason
