#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Takes a redis-py Lock and leaves it in Redis as redis-py wrote it; prints one JSON line.

    /usr/bin/python3 write_redispy_lock.py <name> <timeoutSeconds|none> <url>

A URL without a password gets the one in the environment variable LOCKSCOPE_TEST_PASSWORD (the
test servers' password: never in the arguments, which every local user can read).
"none" takes the lock without a timeout, redis-py's default: the key then has no TTL.
The lock is not released. Besides the token, the line carries what Python's own uuid module
decodes from it (node and creation time), for the tests to compare with LockScope's decoding.
"""

import json
import sys
import uuid

import redis
import redispy_peer

# 100 ns intervals from the uuid1 epoch (1582-10-15) to the Unix epoch.
UUID_EPOCH_OFFSET = 0x01B21DD213814000


def main(argv):
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    name, timeout_text, url = argv[1:]
    try:
        timeout = None if timeout_text == "none" else float(timeout_text)
    except ValueError:
        print(f"write_redispy_lock.py: bad timeout '{timeout_text}'", file=sys.stderr)
        return 2

    with redispy_peer.connect(url) as client:
        lock = client.lock(name, timeout=timeout, blocking_timeout=5)
        if not lock.acquire():
            print(f"write_redispy_lock.py: could not acquire '{name}'", file=sys.stderr)
            return 1
        token = lock.local.token.decode()
        made = uuid.UUID(hex=token)
        node = f"{made.node:012x}"
        print(json.dumps({
            "library": "redis-py",
            "version": redis.__version__,
            "key": name,
            "token": token,
            "timeoutSeconds": timeout,
            "uuidVersion": made.version,
            "node": ":".join(node[i:i + 2] for i in range(0, 12, 2)),
            "madeAtMs": (made.time - UUID_EPOCH_OFFSET) // 10000,
        }), flush=True)
        return 0


if __name__ == "__main__":
    redispy_peer.run(main)
