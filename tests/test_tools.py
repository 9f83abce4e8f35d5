"""The memory as agent tools: schemas a function-calling API accepts, a dispatcher that validates
and runs calls, errors a model can read (the command line's own messages), the docs' example."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest
from jsonschema import Draft202012Validator

from temporal_graph import TemporalGraph
from temporal_graph.errors import InvalidInput, NotFound
from temporal_graph.interfaces.cli import main as cli_main
from temporal_graph.tools import TOOLS, call_tool, group_summary, tool_schemas

NAMES = ["add_episode", "supersede", "add_fact", "end_fact", "retract_fact", "search", "now", "as_of",
         "history", "summary", "reflect", "insights", "paths", "ask", "context"]


def test_schemas_are_openai_function_tools_with_valid_json_schema():
    schemas = tool_schemas()
    assert [s["function"]["name"] for s in schemas] == NAMES  # forget_group only when allowed
    for s in schemas:
        assert s["type"] == "function"
        fn = s["function"]
        assert len(fn["description"]) > 40  # something a model can decide on
        params = fn["parameters"]
        Draft202012Validator.check_schema(params)
        assert params["type"] == "object" and params["additionalProperties"] is False
        assert set(params["required"]) <= set(params["properties"])
        assert all(p.get("description") for p in params["properties"].values())
        assert "$defs" not in params and "title" not in params
    destructive = ["retract_episode", "retract_entity", "restore_entity", "forget_group"]
    assert [s["function"]["name"] for s in tool_schemas(allow_forget=True)] == [*NAMES, *destructive]
    for spec in TOOLS:
        Draft202012Validator.check_schema(spec.output_schema())


def test_a_round_trip_through_every_tool(tg, tick):
    tick()
    episode = call_tool(tg, "add_episode", {"content": "I moved to Lisbon in March 2024.", "speaker": "Ana",
                                            "reference_time": "2024-06-01"})
    assert [(f["subject"], f["object"]) for f in episode["added"]] == [("Ana", "Lisbon")]
    tick()
    added = call_tool(tg, "add_fact", {"subject": "Alice", "relation": "lives in", "object": "Paris",
                                       "valid_at": "2020-01-01"})
    assert added["fact"]["relation"] == "LIVES_IN" and added["fact"]["valid_at"] == "2020-01-01T00:00:00Z"
    tick()
    call_tool(tg, "add_fact", {"subject": "Alice", "relation": "works at", "object": "Acme",
                               "valid_at": "2021"})
    call_tool(tg, "add_fact", {"subject": "Acme", "relation": "located in", "object": "Berlin"})
    tick()
    ended = call_tool(tg, "end_fact", {"subject": "Alice", "relation": "works at", "at": "2024-05-01"})
    assert [f["invalid_at"] for f in ended["facts"]] == ["2024-05-01T00:00:00Z"]
    tick()
    call_tool(tg, "add_fact", {"subject": "Alice", "relation": "likes", "object": "jazz"})
    tick()
    assert call_tool(tg, "retract_fact", {"subject": "Alice", "relation": "likes", "object": "jazz"})["facts"]

    now = call_tool(tg, "now", {"subject": "Alice"})
    assert [(f["relation"], f["object"]) for f in now["facts"]] == [("LIVES_IN", "Paris")]
    then = call_tool(tg, "as_of", {"valid_time": "2022-06-01", "subject": "Alice"})
    assert sorted(f["object"] for f in then["facts"]) == ["Acme", "Paris"]
    before_retraction = call_tool(tg, "as_of", {"valid_time": "2025-01-04", "known_at": "2025-01-06",
                                                "subject": "Alice", "relation": "likes"})
    assert [f["object"] for f in before_retraction["facts"]] == ["jazz"]
    history = call_tool(tg, "history", {"subject": "Alice", "relation": "WORKS_AT"})
    assert [f["invalid_at"] for f in history["facts"]] == ["2024-05-01T00:00:00Z"]
    summary = call_tool(tg, "summary", {"entity": "Alice"})["summary"]
    assert "Paris" in summary["text"] and "Acme" not in summary["text"]  # Acme ended; Paris holds
    chains = call_tool(tg, "paths", {"start": "Alice", "as_of": "2022-01-01", "max_hops": 2})
    walked = [[p[0]["subject"], *(hop["object"] for hop in p)] for p in chains["paths"]]
    assert ["Alice", "Acme", "Berlin"] in walked
    hits = call_tool(tg, "search", {"query": "where does Ana live", "limit": 3})
    assert len(hits["hits"]) <= 3 and any("Lisbon" in json.dumps(h) for h in hits["hits"])
    answer = call_tool(tg, "ask", {"question": "Where does Alice live?"})
    assert answer["known"] and "Paris" in answer["text"]
    block = call_tool(tg, "context", {"query": "Alice", "budget_tokens": 200})
    assert "Paris" in block["context"]
    json.dumps([episode, added, now, then, history, chains, hits, answer, block])  # all JSON data


def test_arguments_may_be_json_text_as_function_calling_apis_send_them(tg):
    call_tool(tg, "add_fact", '{"subject": "Alice", "relation": "lives in", "object": "Rome"}')
    assert call_tool(tg, "now", "")["facts"][0]["object"] == "Rome"


@pytest.mark.parametrize(("name", "arguments", "message"), [
    ("add_fact", {"subject": "Alice", "relation": "lives in"}, "add_fact: object is required"),
    ("now", {"subjet": "Alice"}, "now: unknown argument 'subjet'"),
    ("search", {"query": "x", "limit": "many"}, "search: limit: Input should be a valid integer"),
    ("now", ["Alice"], "now: arguments must be an object"),
    ("now", "{not json", "now: "),
    ("remember", {}, "unknown tool 'remember'; tools: add_episode, supersede, add_fact"),
    ("forget_group", {"group_id": "default"}, "unknown tool 'forget_group' (start the memory with forget"),
    ("add_fact", {"subject": " ", "relation": "lives in", "object": "Rome"}, "subject"),
    # issue 22: a boolean is no number and no time, a number no time; ranges are checked
    ("add_fact", {"subject": "Al", "relation": "likes", "object": "tea", "importance": True},
     "add_fact: importance: Input should be a valid integer, got True"),
    ("add_fact", {"subject": "Al", "relation": "likes", "object": "tea", "valid_at": 2020},
     "add_fact: valid_at: Input should be a valid string, got 2020"),
    ("search", {"query": "x", "limit": True}, "search: limit: Input should be a valid integer, got True"),
    ("search", {"query": "x", "half_life_days": False}, "search: half_life_days: Input should be a valid"),
    ("context", {"query": "x", "budget_tokens": True}, "context: budget_tokens: Input should be a valid"),
    ("paths", {"start": "Al", "max_hops": "2"}, "paths: max_hops: Input should be a valid integer"),
    ("search", {"query": "x", "limit": 2**70}, f"limit: {2**70} must be a whole number from 1 to 10,000"),
    ("add_fact", {"subject": "Al", "relation": "likes", "object": "tea", "importance": 11},
     "importance: 11 must be a whole number from 1 to 10"),
    ("search", {"query": "x" * 2001}, "query: 2,001 characters is over the limit of 2,000"),
])
def test_bad_arguments_raise_one_line_naming_the_problem(tg, name, arguments, message):
    with pytest.raises(InvalidInput) as caught:
        call_tool(tg, name, arguments)
    text = str(caught.value)
    assert text.startswith(message) and "\n" not in text
    assert tg.now() == []  # nothing written


@pytest.mark.parametrize(("name", "arguments"), [
    ("end_fact", {"subject": "Typo", "relation": "lives in", "at": "2024"}),
    ("end_fact", {"subject": "Alice", "relation": "lives in", "object": "Rme", "at": "2024"}),
    ("retract_fact", {"subject": "Alice", "relation": "lives in", "object": "Rme"}),
])
def test_ending_or_retracting_an_unknown_name_creates_nothing(tg, name, arguments):
    call_tool(tg, "add_fact", {"subject": "Alice", "relation": "lives in", "object": "Rome"})
    before = tg.export()
    with pytest.raises(NotFound, match="no entity named 'Typo'|no entity named 'Rme'"):
        call_tool(tg, name, arguments)
    assert tg.export() == before


def test_number_arguments_carry_their_range_in_the_schema():
    params = {s["function"]["name"]: s["function"]["parameters"]["properties"] for s in tool_schemas()}
    def bounds(tool: str, name: str) -> tuple[int, int]:
        return params[tool][name]["minimum"], params[tool][name]["maximum"]

    assert bounds("search", "limit") == (1, 10_000) and bounds("paths", "max_hops") == (1, 10)
    assert bounds("add_fact", "importance") == (1, 10)
    assert bounds("context", "budget_tokens") == (0, 1_000_000)


@pytest.mark.parametrize(("tool", "arguments", "command"), [
    ("as_of", {"valid_time": "the day after never"}, ["as-of", "the day after never"]),
    ("search", {"query": "Alice", "limit": 0}, ["search", "Alice", "--limit", "0"]),
    ("paths", {"start": "Alice", "max_hops": 0}, ["paths", "Alice", "--max-hops", "0"]),
    ("context", {"query": "Alice", "budget_tokens": -1}, ["context", "Alice", "--budget", "-1"]),
    ("search", {"query": "Alice", "limit": 2**70}, ["search", "Alice", "--limit", str(2**70)]),
    ("end_fact", {"subject": "Typo", "relation": "lives in", "at": "2024"},
     ["end-fact", "Typo", "lives in", "--at", "2024"]),
    ("ask", {"question": "x" * 2001}, ["ask", "x" * 2001]),
])
def test_errors_read_as_the_command_line_says_them(tmp_path, capsys, tool, arguments, command):
    db = str(tmp_path / "memory.db")
    with TemporalGraph.open(db, embed=False) as tg:
        with pytest.raises((InvalidInput, NotFound)) as caught:
            call_tool(tg, tool, arguments)
    assert cli_main(["--db", db, *command]) == 2
    assert capsys.readouterr().err.strip() == f"tgraph: {caught.value}"


def test_forget_group_deletes_only_the_group_it_serves(tg):
    call_tool(tg, "add_fact", {"subject": "Alice", "relation": "lives in", "object": "Rome"}, group_id="team")
    with pytest.raises(InvalidInput, match="serves group 'team'; it cannot delete 'default'"):
        call_tool(tg, "forget_group", {"group_id": "default"}, group_id="team", allow_forget=True)
    done = call_tool(tg, "forget_group", {"group_id": "team"}, group_id="team", allow_forget=True)
    assert done["group_id"] == "team" and done["removed"] > 0
    assert tg.now(group_id="team") == []


def test_tools_take_the_library_names_and_name_an_unknown_key_first(tg):
    """as_of takes valid_time (as TemporalGraph.as_of does) and nothing else: a 'time' key is named
    in the error, with the names it takes, rather than reported as a missing valid_time."""
    tg.add_fact("Alice", "lives in", "Rome", valid_at="2020")
    assert call_tool(tg, "as_of", {"valid_time": "2021", "subject": "Alice"})["facts"][0]["object"] == "Rome"
    with pytest.raises(InvalidInput, match=r"^as_of: unknown argument 'time' \(arguments: .*valid_time"):
        call_tool(tg, "as_of", {"time": "2021"})
    with pytest.raises(InvalidInput, match=r"^now: unknown argument 'time'"):
        call_tool(tg, "now", '{"time": "2021"}')


def test_the_group_is_chosen_by_the_caller_never_by_the_arguments(tg):
    call_tool(tg, "add_fact", {"subject": "Alice", "relation": "lives in", "object": "Rome"}, group_id="a")
    assert call_tool(tg, "now", {}, group_id="b") == {"facts": []}
    with pytest.raises(InvalidInput, match="unknown argument 'group_id'"):
        call_tool(tg, "now", {"group_id": "a"}, group_id="b")


def test_group_summary_counts_and_lists_the_newest_current_facts(tg):
    for i in range(4):
        tg.add_fact(f"P{i}", "lives in", "Rome", valid_at=f"202{i}-01-01")
    summary = group_summary(tg, limit=2)
    assert (summary.current_facts, summary.entities, summary.relations) == (4, 5, ["LIVES_IN"])
    assert summary.facts == ["P3 lives in Rome (since 2023-01-01)", "P2 lives in Rome (since 2022-01-01)"]
    assert summary.truncated


def test_the_docs_tools_example_runs_an_agent_loop(capsys):
    from tests.doc_examples import first_block

    scope: dict = {}
    exec(compile(first_block("Tools for any agent framework"), "docs", "exec"), scope)
    assert capsys.readouterr().out.strip().endswith("Alice lives in Lisbon")

    # The loop itself, with a stand-in for the chat API: one tool call, then an answer.
    def message(content=None, tool_calls=None):
        return SimpleNamespace(content=content, tool_calls=tool_calls)

    call = SimpleNamespace(id="c1", function=SimpleNamespace(name="now", arguments='{"subject": "Bob"}'))
    bad = SimpleNamespace(id="c2", function=SimpleNamespace(name="now", arguments='{"who": "Bob"}'))
    replies = iter([message(tool_calls=[call, bad]), message(content="Bob lives in Oslo.")])
    client = SimpleNamespace(chat=SimpleNamespace(completions=SimpleNamespace(
        create=lambda **kw: SimpleNamespace(choices=[SimpleNamespace(message=next(replies))]))))
    with TemporalGraph.open(":memory:", embed=False) as tg:
        tg.add_fact("Bob", "lives in", "Oslo")
        messages: list = [{"role": "user", "content": "Where does Bob live?"}]
        assert scope["run_turn"](client, "any-model", tg, messages) == "Bob lives in Oslo."
    tool_results = [json.loads(m["content"]) for m in messages if isinstance(m, dict) and m["role"] == "tool"]
    assert tool_results[0]["facts"][0]["object"] == "Oslo"
    known = "claims, subject, relation, object"
    assert tool_results[1] == {"error": f"now: unknown argument 'who' (arguments: {known})"}


def test_retract_episode_is_offered_only_with_forget_allowed_and_withdraws_the_message(tg):
    told = call_tool(tg, "add_episode", {"content": "I live in Lisbon.", "reference_time": "2023-01-05",
                                         "speaker": "Maya"}, group_id="team")
    episode_id = told["episode"]["id"]
    with pytest.raises(InvalidInput, match="unknown tool 'retract_episode'"):
        call_tool(tg, "retract_episode", {"episode_id": episode_id}, group_id="team")
    done = call_tool(tg, "retract_episode", {"episode_id": episode_id}, group_id="team", allow_forget=True)
    assert done["episode_id"] == episode_id and [f["object"] for f in done["expired"]] == ["Lisbon"]
    assert tg.now("Maya", group_id="team") == []
