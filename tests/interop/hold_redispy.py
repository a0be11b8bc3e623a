#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""A redis-py lock holder a test can pause, kill or leave alone; prints one JSON line.

    /usr/bin/python3 hold_redispy.py <key> <ttlMs> <renewEveryMs|0> <url>

Tries every 20 ms, for up to 10 s, to take `key` with redis-py's Lock (a lease of ttlMs). Once it
holds it, prints {"token", "acquiredMs"} and then renews the lease every renewEveryMs (Lock.reacquire:
back to its full length, token-checked; 0: never renews) until its stdin closes, when it exits.
It never releases the lock. The test SIGSTOPs it (a holder paused past its lease: its connection
stays open), SIGKILLs it (a dead holder: the kernel closes its connection), or lets its lease run
out while it waits. A URL without a password gets the one in LOCKSCOPE_TEST_PASSWORD.
"""

import json
import select
import sys
import time

import redispy_peer
from redis.exceptions import LockError


def main(argv):
    if len(argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    key, ttl_text, renew_text, url = argv[1:]
    try:
        ttl_ms = int(ttl_text)
        renew_ms = int(renew_text)
    except ValueError:
        print("hold_redispy.py: ttlMs and renewEveryMs are whole milliseconds", file=sys.stderr)
        return 2
    with redispy_peer.connect(url) as client:
        lock = client.lock(key, timeout=ttl_ms / 1000.0, sleep=0.02, blocking_timeout=10)
        if not lock.acquire():
            print(f"hold_redispy.py: could not take '{key}' within 10 s", file=sys.stderr)
            return 1
        print(json.dumps({"key": key, "token": lock.local.token.decode(),
                          "acquiredMs": int(time.time() * 1000)}), flush=True)
        renewing = renew_ms > 0
        while True:
            ready, _, _ = select.select([sys.stdin], [], [], renew_ms / 1000.0 if renewing else None)
            if ready:
                if not sys.stdin.readline():
                    return 0  # stdin closed: done, the lock left to its lease
                continue
            try:
                lock.reacquire()
            except LockError as error:  # the lease ran out before the renewal: stop renewing
                print(json.dumps({"lost": str(error), "atMs": int(time.time() * 1000)}), flush=True)
                renewing = False


if __name__ == "__main__":
    redispy_peer.run(main)
