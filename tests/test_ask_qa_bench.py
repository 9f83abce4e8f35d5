"""The ask benchmark on a tiny HyTE-format graph: every family gets questions, ``ask`` answers them
all, and ``--json`` prints the documented shape."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

try:
    from benchmarks import ask_qa
except ModuleNotFoundError:  # pytest started without the repository root on sys.path
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from benchmarks import ask_qa

ENTITIES = "1\t<Ann_Lee>\n2\t<Bob_Stone>\n3\t<Carl_Ray>\n4\t<Dana_Fox>\n11\t<Club_A>\n12\t<Club_B>\n" \
           "21\t<Paris>\n31\t<Acme>\n32\t<Initech>\n"
RELATIONS = "0\t<isMarriedTo>\n1\t<playsFor>\n2\t<wasBornIn>\n3\t<R3>\n"
TEMPORAL = """\
1\t1\t11\t1985\t1990
1\t1\t12\t1992\tNone
2\t1\t11\t1991\t1995
1\t0\t3\t1990\tNone
3\t2\t21\t1960_05_04\t1960_05_04
4\t3\t31\t2000\t2005
4\t3\t32\t2006\tNone
"""


@pytest.fixture
def hyte_dir(tmp_path: Path) -> Path:
    for name, text in (("entities.dict", ENTITIES), ("relations.dict", RELATIONS), ("temporal", TEMPORAL)):
        (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "labels.json").write_text(json.dumps({"3": "is employed at"}), encoding="utf-8")
    return tmp_path


def test_every_family_is_asked_and_answered(hyte_dir):
    report = ask_qa.run(hyte_dir, labels_path=str(hyte_dir / "labels.json"), per_family=50,
                        with_baseline=False)
    families = report["families"]
    assert set(families) == set(ask_qa.FAMILIES)
    assert all(s["n"] > 0 for s in families.values()), families
    assert all(s["engine"] == 1.0 for s in families.values()), report["_misses"]


def test_question_templates_read_naturally():
    works = ask_qa.Label("works at")
    assert ask_qa.value_question(works, "Ann", "in 1995", "past") == "What did Ann work at in 1995?"
    assert ask_qa.end_question(works, "Ann", "Acme") == "When did Ann stop working at Acme?"
    assert ask_qa.who_question(works, "Acme", 1995) == "Who worked at Acme in 1995?"
    married = ask_qa.Label("is married to")
    assert ask_qa.how_long_question(married, "Ann", "Carl") == "How long was Ann married to Carl?"
    born = ask_qa.Label("was born in")
    assert ask_qa.start_question(born, "Carl", "Paris") == "When was Carl born in Paris?"
    assert ask_qa.ever_question(ask_qa.Label("won"), "Ann", "a prize") == "Did Ann ever win a prize?"


def test_json_output_has_the_documented_shape(hyte_dir, capsys):
    argv = ["--set", "yago", "--data", str(hyte_dir), "--labels", str(hyte_dir / "labels.json"), "--json"]
    assert ask_qa.main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"families", "median_ask_ms"}
    assert all(set(s) == {"n", "engine", "baseline"} for s in out["families"].values())
    assert all(0.0 <= s["baseline"] <= 1.0 for s in out["families"].values())
