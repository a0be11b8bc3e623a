#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""One holder among several, with redis-py's Lock: its own account of when it held the lock.

    /usr/bin/python3 contend_redispy.py <name> <ttlMs> <holds> <holdMaxMs> <url>

Takes the lock `holds` times (blocking until it gets it), holds it up to holdMaxMs and releases it.
Prints a JSON line each time it holds and each time it lets go: {"event": "held"|"releasing",
"token", "atMs"}, then {"event": "done", "holds": n}. A URL without a password gets the one in
LOCKSCOPE_TEST_PASSWORD.
"""

import json
import random
import sys
import time

import redis
import redispy_peer


def now_ms():
    return int(time.time() * 1000)


def emit(record):
    print(json.dumps(record), flush=True)


def main(argv):
    if len(argv) != 6:
        print(__doc__, file=sys.stderr)
        return 2
    name, ttl_text, holds_text, hold_max_text, url = argv[1:]
    ttl_ms, holds, hold_max_ms = int(ttl_text), int(holds_text), int(hold_max_text)
    held = 0
    give_up_at = time.time() + max(120, holds)
    with redispy_peer.connect(url) as client:
        while held < holds and time.time() < give_up_at:
            lock = client.lock(name, timeout=ttl_ms / 1000, sleep=0.01, blocking_timeout=5)
            if not lock.acquire():
                continue
            token = lock.local.token.decode()
            emit({"event": "held", "library": "redis-py", "resource": name, "token": token, "atMs": now_ms()})
            time.sleep(random.randrange(max(1, hold_max_ms)) / 1000)
            emit({"event": "releasing", "resource": name, "token": token, "atMs": now_ms()})
            try:
                lock.release()
            except redis.exceptions.LockError:
                pass  # it ran out: the oracle still has when this holder let go
            held += 1
        emit({"event": "done", "resource": name, "holds": held})
        return 0 if held == holds else 1


if __name__ == "__main__":
    redispy_peer.run(main)
