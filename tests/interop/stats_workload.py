#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""A workload of redis-py lock holders whose hold times and endings are known (issue #44's oracle).

    /usr/bin/python3 stats_workload.py <url> [--seed N] [--tenures N] [--shortest-hold-ms N]

Four families, each lock taken with SET NX PX and released with a token-checked script:
  steady:<n>   held S + exponential(200 ms - S) (a mean of 200 ms) on a 2 s lease;
  overrun:<n>  held S + exponential((500 ms - S) / ln 20), so 5 % of holds pass the 500 ms lease (the
               holder's release then finds its lease gone: it expired under its holder);
  killed:<n>   held max(100 ms, S) on a 1 s lease by a child process; one in ten children holds until
               it is killed with SIGKILL (its lease runs out);
  hot:lock     one lock, 20 contenders trying every 10 ms, each holding S + exponential(20 ms).
S, the shortest hold, is --shortest-hold-ms (20 by default, at most 400): a tenure shorter than the
recorder's reaction (a keyspace event, then a read: a few ms idle, tens under the sanitizers or on a
loaded machine) leaves nothing in Redis to read, so the test scales S as it scales time bounds.
Each family runs on its own threads at once. Prints one JSON line: per family the lease, the holds
as each holder measured them (ms, from its SET's reply to its release's reply) of the tenures it
released, and how each tenure ended as the holder knows it (released, expired, killed), plus the
hot lock's refused attempts. A URL without a password gets the one in LOCKSCOPE_TEST_PASSWORD.
"""

import json
import math
import os
import random
import signal
import subprocess
import sys
import threading
import time
import uuid

import redis
import redispy_peer

RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


def now_ms():
    return time.monotonic() * 1000.0


class Family:
    def __init__(self, lease_ms):
        self.lease_ms = lease_ms
        self.holds = []
        self.endings = {"released": 0, "expired": 0, "killed": 0}
        self.acquisitions = 0
        self.refused = 0
        self.lock = threading.Lock()

    def taken(self):
        with self.lock:
            self.acquisitions += 1

    def ended(self, how, hold_ms=None):
        with self.lock:
            self.endings[how] += 1
            if hold_ms is not None:
                self.holds.append(round(hold_ms, 1))

    def json(self):
        return {"leaseMs": self.lease_ms, "acquisitions": self.acquisitions, "holdsMs": self.holds,
                "endings": self.endings, "refused": self.refused}


def connect(url):
    return redispy_peer.connect(url, timeout=10)


def hold_once(client, release, key, family, hold_ms):
    """Takes `key` (waiting until it is free), holds it for `hold_ms`, releases it."""
    token = uuid.uuid4().hex
    while not client.set(key, token, nx=True, px=family.lease_ms):
        time.sleep(0.005)
    taken = now_ms()
    family.taken()
    time.sleep(hold_ms / 1000.0)
    released = release(keys=[key], args=[token], client=client)
    held = now_ms() - taken
    if released == 1:
        family.ended("released", held)
    else:
        family.ended("expired")  # the lease ran out under its holder


def holder_thread(url, prefix, index, family, tenures, hold, seed):
    client = connect(url)
    release = client.register_script(RELEASE)
    rng = random.Random(seed * 1000 + index)
    key = f"{prefix}:{index}"
    for _ in range(tenures):
        hold_once(client, release, key, family, hold(rng))
        time.sleep(rng.uniform(0.02, 0.08))  # the next holder comes a moment later


def killed_thread(url, index, family, tenures, hold_ms, seed):
    """Each tenure in a holder process of its own; one in ten holds until it is killed with SIGKILL."""
    rng = random.Random(seed * 7919 + index)
    key = f"killed:{index}"
    for _ in range(tenures):
        kill = rng.random() < 0.10
        # A child to be killed holds far longer than the kill comes: it never releases first.
        holder = subprocess.Popen([sys.executable, os.path.abspath(__file__), url, "--holder", key,
                                   str(family.lease_ms), str(60000 if kill else hold_ms)],
                                  stdout=subprocess.PIPE, text=True)
        try:
            if holder.stdout.readline().strip() != "taken":
                raise RuntimeError(f"the holder of {key} did not take it")
            family.taken()
            if kill:
                time.sleep(0.05)
                holder.send_signal(signal.SIGKILL)
                holder.wait()
                family.ended("killed")  # the next holder waits for the lease to run out
            else:
                how, held = holder.stdout.readline().split()
                holder.wait()
                family.ended(how, float(held) if how == "released" else None)
        finally:
            if holder.poll() is None:
                holder.kill()
                holder.wait()
        time.sleep(rng.uniform(0.02, 0.08))


def hold_as_child(url, key, lease_ms, hold_ms):
    """--holder: takes `key`, says "taken", holds it, releases it, says how and how long."""
    client = connect(url)
    token = uuid.uuid4().hex
    while not client.set(key, token, nx=True, px=lease_ms):
        time.sleep(0.005)
    taken = now_ms()
    print("taken", flush=True)
    time.sleep(hold_ms / 1000.0)
    released = client.eval(RELEASE, 1, key, token)
    print("released" if released == 1 else "expired", now_ms() - taken, flush=True)
    return 0


def hot_thread(url, index, family, deadline, shortest_ms, seed):
    client = connect(url)
    release = client.register_script(RELEASE)
    rng = random.Random(seed * 104729 + index)
    while now_ms() < deadline:
        token = uuid.uuid4().hex
        if not client.set("hot:lock", token, nx=True, px=family.lease_ms):
            with family.lock:
                family.refused += 1
            time.sleep(0.01)
            continue
        taken = now_ms()
        family.taken()
        time.sleep((shortest_ms + rng.expovariate(1 / 20.0)) / 1000.0)
        released = release(keys=["hot:lock"], args=[token], client=client)
        held = now_ms() - taken
        family.ended("released" if released == 1 else "expired", held if released == 1 else None)
        time.sleep(0.01)


def main(argv):
    args = argv[1:]
    if not args or args[0].startswith("-"):
        print(__doc__, file=sys.stderr)
        return 2
    url = args[0]
    if len(args) == 5 and args[1] == "--holder":
        return hold_as_child(url, args[2], int(args[3]), int(args[4]))
    seed = 1
    tenures = 30
    shortest = 20
    rest = args[1:]
    while rest:
        if rest[0] == "--seed" and len(rest) > 1:
            seed = int(rest[1])
        elif rest[0] == "--tenures" and len(rest) > 1:
            tenures = int(rest[1])
        elif rest[0] == "--shortest-hold-ms" and len(rest) > 1 and 0 <= int(rest[1]) <= 400:
            shortest = int(rest[1])
        else:
            print(__doc__, file=sys.stderr)
            return 2
        rest = rest[2:]
    families = {"steady:*": Family(2000), "overrun:*": Family(500), "killed:*": Family(1000),
                "hot:lock": Family(1000)}
    started = time.time()
    threads = []
    for i in range(8):
        threads.append(threading.Thread(target=holder_thread, args=(
            url, "steady", i, families["steady:*"], tenures, lambda r: shortest + r.expovariate(1 / (200.0 - min(shortest, 180))), seed)))
        threads.append(threading.Thread(target=holder_thread, args=(
            url, "overrun", i, families["overrun:*"], tenures, lambda r: shortest + r.expovariate(math.log(20) / (500.0 - shortest)), seed)))
    for i in range(4):
        threads.append(threading.Thread(target=killed_thread, args=(
            url, i, families["killed:*"], tenures, max(100, shortest), seed)))
    deadline = now_ms() + 5000
    for i in range(20):
        threads.append(threading.Thread(target=hot_thread, args=(url, i, families["hot:lock"], deadline, shortest, seed)))
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(json.dumps({"library": "redis-py", "version": redis.__version__, "seed": seed,
                      "startedMs": int(started * 1000), "endedMs": int(time.time() * 1000),
                      "families": {name: f.json() for name, f in families.items()}}))
    return 0


if __name__ == "__main__":
    redispy_peer.run(main)
