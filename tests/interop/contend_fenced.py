#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""One holder among several of a fenced lock: its own account of when it held it, and with which
fencing number. Rides out a restart of the master (retries while it cannot connect).

    /usr/bin/python3 contend_fenced.py <style> <name> <ttlMs> <holds> <holdMaxMs> <url>

style redisson: Redisson's fenced-lock layout (RFencedLock), written from its documented layout
(tests/interop/redisson-layouts.json), not from its code: the hash <name> with the field
"<instance uuid>:<thread id>" = 1 and a PEXPIRE lease, the counter redisson_lock_token:{<name>}
raised by INCR in the same script that grants; the unlock deletes the hash and publishes "0" on
redisson_lock__channel:{<name>}. Each hold is taken from another thread id, as a pool's threads do.
style redis-py: redis-py's Lock on <name>, and the application's own counter fence:<name>, raised
with INCR right after each grant.

Prints a JSON line each time it holds and each time it lets go: {"event": "held"|"releasing",
"token", "fence" (held only), "atMs"}, then {"event": "done", "holds": n}; and {"event": "trying", "token"}
before each attempt (redis-py) or each holder's first (Redisson). A URL without a password gets the
one in LOCKSCOPE_TEST_PASSWORD.
"""

import json
import random
import sys
import time
import uuid

import redis
import redispy_peer

ACQUIRE = """
if redis.call('exists', KEYS[1]) == 0 or redis.call('hexists', KEYS[1], ARGV[2]) == 1 then
    local fence = redis.call('incr', KEYS[2])
    redis.call('hincrby', KEYS[1], ARGV[2], 1)
    redis.call('pexpire', KEYS[1], ARGV[1])
    return {-1, fence}
end
return {redis.call('pttl', KEYS[1]), -1}
"""

RELEASE = """
if redis.call('hexists', KEYS[1], ARGV[1]) == 0 then return -1 end
if redis.call('hincrby', KEYS[1], ARGV[1], -1) > 0 then
    redis.call('pexpire', KEYS[1], ARGV[2])
    return 0
end
redis.call('del', KEYS[1])
redis.call('publish', KEYS[2], '0')
return 1
"""

RETRYABLE = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, redis.exceptions.BusyLoadingError)


def now_ms():
    return int(time.time() * 1000)


def emit(record):
    print(json.dumps(record), flush=True)


def retrying(call, until):
    """call() until it answers; None when the master stayed away until `until` (seconds)."""
    while time.time() < until:
        try:
            return call()
        except RETRYABLE:
            time.sleep(0.05)
    return None


class RedissonFenced:
    def __init__(self, client, name, ttl_ms):
        self.client, self.name, self.ttl_ms = client, name, ttl_ms
        self.instance = str(uuid.uuid4())
        self.counter = "redisson_lock_token:{%s}" % name
        self.channel = "redisson_lock__channel:{%s}" % name
        self.acquire_script = client.register_script(ACQUIRE)
        self.release_script = client.register_script(RELEASE)
        self.thread = 0

    def acquire(self):
        """(holder, fence) once granted."""
        self.thread += 1
        holder = "%s:%d" % (self.instance, 100 + self.thread)
        # Said before it is tried: a peer killed between the grant and its "held" line held it too.
        emit({"event": "trying", "resource": self.name, "token": holder, "atMs": now_ms()})
        while True:
            try:
                wait_ms, fence = self.acquire_script(keys=[self.name, self.counter], args=[self.ttl_ms, holder])
            except RETRYABLE:
                time.sleep(0.05)
                continue
            if wait_ms < 0:
                return holder, int(fence)
            time.sleep(min(max(wait_ms, 1), 10) / 1000)

    def release(self, holder):
        self.release_script(keys=[self.name, self.channel], args=[holder, self.ttl_ms])


class RedisPyFenced:
    def __init__(self, client, name, ttl_ms):
        self.client, self.name, self.ttl_ms = client, name, ttl_ms
        self.counter = "fence:%s" % name
        self.lock = None

    def acquire(self):
        while True:
            self.lock = self.client.lock(self.name, timeout=self.ttl_ms / 1000, sleep=0.01, blocking_timeout=5)
            # Said before it is written: a restart can cut off the answer to a SET that landed (and
            # was kept, with persistence), and that lock is this peer's too, held without its knowing.
            token = uuid.uuid1().hex.encode()
            emit({"event": "trying", "resource": self.name, "token": token.decode(), "atMs": now_ms()})
            try:
                if not self.lock.acquire(token=token):
                    continue
            except RETRYABLE:
                time.sleep(0.05)
                continue
            fence = retrying(lambda: self.client.incr(self.counter), time.time() + self.ttl_ms / 1000)
            if fence is not None:
                return self.lock.local.token.decode(), int(fence)
            # No number before the lease ran out: the grant is worth nothing; try again.

    def release(self, holder):
        try:
            self.lock.release()
        except redis.exceptions.LockError:
            pass  # it ran out: the oracle still has when this holder let go


def main(argv):
    if len(argv) != 7 or argv[1] not in ("redisson", "redis-py"):
        print(__doc__, file=sys.stderr)
        return 2
    style, name, ttl_text, holds_text, hold_max_text, url = argv[1:]
    ttl_ms, holds, hold_max_ms = int(ttl_text), int(holds_text), int(hold_max_text)
    held = 0
    give_up_at = time.time() + max(120, holds)
    with redispy_peer.connect(url) as client:
        lock = (RedissonFenced if style == "redisson" else RedisPyFenced)(client, name, ttl_ms)
        while held < holds and time.time() < give_up_at:
            holder, fence = lock.acquire()
            emit({"event": "held", "library": style, "resource": name, "token": holder, "fence": fence,
                  "counter": lock.counter, "atMs": now_ms()})
            time.sleep(random.randrange(max(1, hold_max_ms)) / 1000)
            emit({"event": "releasing", "resource": name, "token": holder, "atMs": now_ms()})
            try:
                lock.release(holder)
            except RETRYABLE:
                pass  # the master is away: the lease runs out
            held += 1
        emit({"event": "done", "resource": name, "holds": held})
        return 0 if held == holds else 1


if __name__ == "__main__":
    redispy_peer.run(main)
