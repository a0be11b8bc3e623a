# SPDX-License-Identifier: Apache-2.0
"""What the redis-py peers of the interop tests share: how they connect and how they end."""

import os
import sys

import redis


def connect(url, timeout=5):
    """A client of url that gives up after `timeout` seconds (5 to connect). A URL without a password gets the one in the
    environment variable LOCKSCOPE_TEST_PASSWORD (never in the arguments, which every local user
    can read). Use it in a with statement: it is closed however the script ends."""
    return redis.Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=5,
                                password=os.environ.get("LOCKSCOPE_TEST_PASSWORD") or None)


def run(main):
    """Ends the script with main(sys.argv)'s exit code; a Redis error is told on stderr, code 1."""
    try:
        code = main(sys.argv)
    except redis.RedisError as error:
        print(f"{os.path.basename(sys.argv[0])}: {error}", file=sys.stderr)
        code = 1
    sys.exit(code)
