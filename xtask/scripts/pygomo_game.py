"""A short game of pbrain-mnk driven by pygomo-lib, a third-party Gomocup
client from PyPI: ABOUT, START, BEGIN, TURN, TAKEBACK, RESTART, END."""

import sys

from pygomo import EngineClient

brain = sys.argv[1]
taken = set()


def cell(move):
    """(x, y) of what the engine played, in whatever form pygomo gives it."""
    text = str(move)
    x, y = (int(v) for v in text.split(",")) if "," in text else (ord(text[0]) - ord("a"), int(text[1:]) - 1)
    return x, y


with EngineClient(brain) as engine:
    print("ABOUT ->", engine.about(timeout=10))
    assert engine.start(board_size=15, timeout=10), "START failed"
    print("START 15 -> OK")
    engine.set_time(turn_time_ms=300, match_time_ms=60000, time_left_ms=60000)
    engine.set_rule(0)
    reply = engine.begin(timeout=30)
    print("BEGIN ->", reply.move)
    taken.add(cell(reply.move))
    ours = [(0, 0), (14, 14), (0, 14), (14, 0), (1, 1), (13, 13)]
    for x, y in ours:
        if (x, y) in taken:
            continue
        taken.add((x, y))
        reply = engine.turn((x, y), timeout=30)
        assert reply is not None, f"no answer to TURN {x},{y}"
        answer = cell(reply.move)
        assert answer not in taken, f"the brain played an occupied cell {answer}"
        taken.add(answer)
        print(f"TURN {x},{y} ->", reply.move)
    assert engine.restart(timeout=10), "RESTART failed"
    print("RESTART -> OK")
    reply = engine.begin(timeout=30)
    print("BEGIN ->", reply.move)
    engine.quit()
print("pygomo-lib played a game with", brain)
