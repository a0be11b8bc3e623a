#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""The flash sale of the design documents, with redis-py: two holders at once, then a lost lock.

    /usr/bin/python3 flash_sale.py <key> <url>

Holder A takes the lock with SET NX EX 1 and then blocks for 2 s (a slow payment call, a pause).
Holder B, trying every 50 ms, takes it once A's lease has run out. A wakes and deletes the key with
a plain DEL, as the naive unlock does: B's lock. Prints one JSON line: both tokens and when each
step happened (ms since the epoch), what each client believed, for the test to compare with what
LockScope saw. A URL without a password gets the one in LOCKSCOPE_TEST_PASSWORD.
"""

import json
import sys
import time
import uuid

import redis
import redispy_peer


def now_ms():
    return int(time.time() * 1000)


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    key, url = argv[1:]
    token_a = uuid.uuid4().hex
    token_b = uuid.uuid4().hex
    with redispy_peer.connect(url) as a, redispy_peer.connect(url) as b:
        if not a.set(key, token_a, nx=True, ex=1):
            print(f"flash_sale.py: A could not take '{key}'", file=sys.stderr)
            return 1
        a_acquired = now_ms()
        # A is busy for 2 s; B contends meanwhile.
        b_acquired = None
        while now_ms() < a_acquired + 5000:
            if b.set(key, token_b, nx=True, ex=10):
                b_acquired = now_ms()
                break
            time.sleep(0.05)
        if b_acquired is None:
            print("flash_sale.py: B never got the lock", file=sys.stderr)
            return 1
        time.sleep(max(0.0, (a_acquired + 2000 - now_ms()) / 1000))
        a_deleting = now_ms()
        deleted = a.delete(key)  # A believes it still holds the lock: B's goes
        print(json.dumps({
            "library": "redis-py",
            "version": redis.__version__,
            "key": key,
            "tokenA": token_a,
            "tokenB": token_b,
            "aAcquiredMs": a_acquired,
            "bAcquiredMs": b_acquired,
            "aDeletingMs": a_deleting,
            "deleted": deleted,
        }), flush=True)
        return 0


if __name__ == "__main__":
    redispy_peer.run(main)
