"""Row, assertion and fact ids: random version-4 UUIDs in hex, made thousands at a time per thread,
never handed out twice: not across threads, not by a forked child and its parent."""

from __future__ import annotations

import os
import threading
import uuid

import pytest

from temporal_graph.core.writer import new_id


def test_ids_are_random_uuid4_hex_and_never_repeat_across_threads() -> None:
    made: list[list[str]] = [[] for _ in range(4)]
    threads = [threading.Thread(target=lambda out=out: out.extend(new_id() for _ in range(5000)))
               for out in made]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    ids = [i for out in made for i in out] + [new_id() for _ in range(10000)]
    assert len(set(ids)) == len(ids) == 30000
    assert all(uuid.UUID(i).version == 4 and uuid.UUID(i).hex == i for i in ids)
    assert len({i[0] for i in ids}) == 16  # random from the first character


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_forked_child_does_not_hand_out_its_parents_next_ids() -> None:
    new_id()  # the parent holds ids made ahead
    read, write = os.pipe()
    child = os.fork()
    if child == 0:
        os.write(write, "".join(new_id() for _ in range(100)).encode())
        os._exit(0)
    os.waitpid(child, 0)
    os.close(write)
    with os.fdopen(read) as pipe:
        text = pipe.read()
    theirs = {text[i : i + 32] for i in range(0, len(text), 32)}
    assert len(theirs) == 100 and not theirs & {new_id() for _ in range(100)}
