"""The chat-derived ask set (benchmarks/chat_qa.py): the data is what the benchmark says it is,
and an answer is scored the way a user would judge it."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

try:
    from benchmarks import ask_qa, chat_qa
except ModuleNotFoundError:  # pytest started without the repository root on sys.path
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from benchmarks import ask_qa, chat_qa


def test_six_logs_with_a_dozen_questions_or_more_each_of_every_kind():
    questions = chat_qa.load_questions()
    per_log = Counter(q.group for q in questions)
    assert len(per_log) == 6 and min(per_log.values()) >= 12, per_log
    assert {q.kind for q in questions} == set(chat_qa.KINDS)
    assert len({q.id for q in questions}) == len(questions)


def test_every_question_points_at_messages_of_its_own_log():
    messages = {}
    for path in sorted(chat_qa.CHATS.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            messages[row["id"]] = row["group"]
    for q in chat_qa.load_questions():
        assert q.evidence, q.id
        assert {messages.get(m) for m in q.evidence} == {q.group}, q.id


def test_an_answer_counts_when_known_with_the_yes_no_first_and_every_expected_group():
    q = chat_qa.ChatQuestion("x", "g", "still", "Is Marta still dating Tom?", "no",
                             (("October 2023", "2023-10"),), frozenset({"m1"}))
    assert chat_qa.answer_right(q, True, "No: Marta and Tom broke up in 2023-10; she dates Sam now.")
    assert not chat_qa.answer_right(q, True, "Marta was dating Tom until October 2023.")  # no "No" first
    assert not chat_qa.answer_right(q, True, "No: she dates Sam.")  # the expected date is missing
    assert not chat_qa.answer_right(q, False, "No: October 2023.")  # "I don't know" is never right


def test_the_chat_set_runs_from_the_ask_benchmark(capsys, monkeypatch, tmp_path):
    # Two questions of one log keep this quick; the full set runs from the command line.
    chats = tmp_path / "chats"
    chats.mkdir()
    (chats / "marta.jsonl").write_text((chat_qa.CHATS / "marta.jsonl").read_text(encoding="utf-8"),
                                       encoding="utf-8")
    rows = [line for line in chat_qa.QUESTIONS.read_text(encoding="utf-8").splitlines()
            if '"chat-marta"' in line][:2]
    questions = tmp_path / "questions.jsonl"
    questions.write_text("\n".join(rows) + "\n", encoding="utf-8")
    monkeypatch.setattr(chat_qa, "CHATS", chats)
    monkeypatch.setattr(chat_qa, "QUESTIONS", questions)
    assert ask_qa.main(["--set", "chats", "--rank", "relevance,blend-no-recency", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)["chats"]
    assert out["n"] == 2 and sum(k["n"] for k in out["kinds"].values()) == 2
    assert set(out["retrieval"]) == {"relevance", "blend-no-recency"}


def test_i_dont_know_is_right_when_expected_and_an_answer_to_another_question_is_counted():
    q = chat_qa.ChatQuestion("x", "g", "unasked", "When is Priya getting married?", None, (("Arjun",),),
                             frozenset({"m1"}), known=False, relations=("MARRIED_TO", "PLANS*"))
    assert chat_qa.answer_right(q, False, "I don't know: … It knows: Priya is engaged to Arjun.")
    assert not chat_qa.answer_right(q, True, "Priya is engaged to Arjun (since 2024-02-13).")

    class F:  # the two fields the count reads
        def __init__(self, relation: str, text: str = "") -> None:
            self.relation, self.object, self.text = relation, "", text

    assert chat_qa.another_question(q, True, [F("ENGAGED_TO")], "Priya is engaged to Arjun.")
    assert not chat_qa.another_question(q, True, [F("PLANS_TO_MARRY")], "Priya plans to marry Arjun.")
    assert not chat_qa.another_question(q, False, [F("ENGAGED_TO")], "I don't know: …")
    no_record = "No: no record of Priya being married; now: …"
    assert not chat_qa.another_question(q, True, [F("DATING")], no_record)
    about = chat_qa.ChatQuestion("y", "g", "planning", "Is Kwame planning a wedding?", "no", (),
                                 frozenset({"m1"}), relations=("PLANS*",), about=("wedding",))
    house = [F("PLANS", "Kwame plans to buy a house.")]
    assert chat_qa.another_question(about, True, house, "Not any more …")
