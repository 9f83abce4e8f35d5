"""The temporal-QA benchmark on a tiny HyTE-format graph: gold answers follow from the raw
intervals, so the engine must get every question right, and an overwrite memory must not."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

try:
    from benchmarks import temporal_qa as bench
except ModuleNotFoundError:  # pytest started without the repository root on sys.path
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from benchmarks import temporal_qa as bench

ENTITIES = """\
1\t<Ann_Lee>
2\t<Bob_Stone>
3\t<Carl_Ray>
4\t<Dana_Fox>
5\t<ann_LEE>
11\t<Club_A>
12\t<Club_B>
13\t<National_Team>
21\t<Paris>
"""
# 6, 7, 8, 9, 10, 14, 22, 31, 32 have no readable name; relation 3 neither.
RELATIONS = "0\t<isMarriedTo>\n1\t<playsFor>\n2\t<wasBornIn>\n"
TEMPORAL = """\
1\t0\t2\t1990\t1995
1\t0\t3\t1995\tNone
1\t0\t4\t2005\tNone
6\t0\t7\t1980\tNone
6\t0\t5\t2000\t2010
8\t0\t9\t1990\t2000
8\t0\t10\t1995\t1997
1\t1\t11\t1985\t1990
1\t1\t12\t1989\t1993
1\t1\t13\t1988\tNone
7\t1\t11\t1987\t1992
14\t1\t12\t1990\t1991
14\t1\t11\t1992\tNone
1\t2\t21\t1960_05_04\t1960_05_04
2\t2\t22\t1962\t1962
2\t3\t31\t1991\tNone
2\t3\t32\t1994\tNone
3\t3\t31\t1996\t1999
3\t3\t32\t2001\tNone
3\t3\t31\t1998\t2000
9\t1\t12\t1999\t1990
9\t3\t31\t-200\tNone
"""


@pytest.fixture
def hyte_dir(tmp_path: Path) -> Path:
    (tmp_path / "entities.dict").write_text(ENTITIES, encoding="utf-8")
    (tmp_path / "relations.dict").write_text(RELATIONS, encoding="utf-8")
    (tmp_path / "temporal").write_text(TEMPORAL, encoding="utf-8")
    return tmp_path


def test_engine_answers_every_question_type_exactly(hyte_dir: Path) -> None:
    report = bench.run(hyte_dir, questions=40, seed=3)
    report.engine_state.close()

    assert report.facts == 20  # a row ending before it starts and a BC year are skipped
    assert report.data.skipped == {"end year before start year": 1, "year before 1 AD": 1}
    for kind in bench.QUESTION_TYPES:
        assert report.engine[kind]["n"] > 0, kind
        assert report.engine[kind]["accuracy"] == 1.0, (kind, report.failures.get(kind))
    assert bench.all_perfect(report)
    # A memory that overwrites cannot say who someone was married to or played for back then.
    assert report.baseline["as_of"]["accuracy"] < 1.0
    assert report.baseline["known_at"]["accuracy"] < 1.0


def test_contradictory_one_relation_data_is_left_out_and_names_stay_distinct(hyte_dir: Path) -> None:
    data = bench.read_dataset(hyte_dir)
    gold = bench.gold_timelines(data, bench.cardinalities(data))
    asked = bench.make_questions(gold, 40, seed=3)

    # Person 8 was married to 9 in 1990-2000 and to 10 in 1995-1997: no reading is right.
    assert ("8", "0") in gold.ambiguous
    # Person 3 held value 31 over 1996-1999 and again over 1998-2000: told twice, one span.
    assert ("3", "3") not in gold.ambiguous
    assert [(s.obj, s.start, s.stop) for s in gold.spans[("3", "3")]][0] == ("31", 1996, 2001)
    assert all(q.subject != "8" for qs in asked.values() for q in qs)
    # Remarriage in the divorce year: the newcomer holds from its first year; an open end is
    # closed by the next spouse.
    spans = gold.spans[("1", "0")]
    assert [(s.obj, s.start, s.stop) for s in spans] == [("2", 1990, 1995), ("3", 1995, 2005),
                                                         ("4", 2005, None)]
    # Births are one-year points; names the engine would merge get their id; nameless ids get one.
    assert [(s.start, s.stop) for s in gold.spans[("1", "2")]] == [(1960, 1961)]
    assert data.entity_names["1"] != data.entity_names["5"]
    assert data.entity_names["6"] == "entity 6"
    assert data.relation_keys["3"] == "R3"


def test_command_line_prints_the_json_shape_and_checks(
    hyte_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert bench.main(["--data", str(hyte_dir), "--questions", "20", "--json", "--check"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert set(result) == {"engine", "baseline", "facts", "load_seconds"}
    assert set(result["engine"]) == set(result["baseline"]) == set(bench.QUESTION_TYPES)
    assert set(result["engine"]["as_of"]) == {"accuracy", "n", "median_ms"}

    assert bench.main(["--data", str(hyte_dir), "--questions", "20"]) == 0
    table = capsys.readouterr().out
    assert "as_of" in table and "baseline" in table
