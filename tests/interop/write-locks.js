// SPDX-License-Identifier: Apache-2.0
'use strict';
// Takes a lock with a real lock library and leaves it in Redis exactly as the library wrote it,
// so LockScope's tests can check that the recogniser reads it back. Prints one JSON line.
//
//   node write-locks.js <kind> <resource> <ttlMs> <url>...
//       the password for URLs without one: environment variable LOCKSCOPE_TEST_PASSWORD
//       kind: redlock | semaphore-mutex | semaphore | multi-semaphore | legacy-setnx | redis-kit
//       the lock is NOT released: it stays until its TTL runs out (legacy-setnx: forever, as the
//       SETNX/GETSET algorithm leaves it; a later taker steals it with GETSET once its time is past)
//   node write-locks.js hold-redlock <resource> <ttlMs> <holdMs> <url>...
//       holds the lock for holdMs (extending it while needed), then releases it and prints a
//       second line: {"kind": "released", "extensions": n}
//
//   node write-locks.js contend-redlock|contend-mutex <resource> <ttlMs> <holds> <holdMaxMs> <url>...
//       takes the lock `holds` times (node-redlock, or redis-semaphore's Mutex / RedlockMutex),
//       trying again until it gets it, holds it up to holdMaxMs and releases it; a line each time
//       it holds and each time it lets go: {"event": "held"|"releasing", "token", "atMs"}, what
//       the holder believed, for a test's oracle (redis-semaphore's also {"event": "trying", ...}
//       before each try: its token is known before it holds)
//
//   node write-locks.js attempt-redlock|attempt-mutex <resource> <ttlMs> <attempts> <name> <url>...
//       makes exactly `attempts` single attempts to take the lock (node-redlock with no retry, or
//       redis-semaphore's Mutex.tryAcquire()), 20 ms apart, on connections named `name` (CLIENT
//       SETNAME); holds a lock it got for 30 ms and releases it. A line per attempt
//       {"event": "attempt", "acquired", "token", "atMs"} and one at the end {"event": "done",
//       "name", "attempts", "acquired", "refused"}: the peer's own count, a tracer test's oracle
//
// Several URLs make node-redlock use all of them, and redis-semaphore its Redlock variants.
// redis-kit: @redis-kit/lock's Redlock (its tokens are 22 characters of base64, + and / included).

const Redis = require('ioredis');
const Redlock = require('redlock').default;
const semaphores = require('redis-semaphore');
// errorception's redis-lock 0.0.8 (pinned): the SETNX/GETSET algorithm of the old SETNX manual page,
// the expiry time in ms as the value and no Redis TTL. 0.1.0 and later moved to SET NX PX.
const legacyRedisLock = require('redis-lock');
// @redis-kit/lock (pinned) takes node-redis v5 clients, not ioredis ones.
const { Redlock: KitRedlock } = require('@redis-kit/lock');
const { createClient } = require('redis');

const SEMAPHORE_LIMIT = 3;
const MULTI_SEMAPHORE_LIMIT = 5;
const MULTI_SEMAPHORE_PERMITS = 3;

function fail(message) {
  process.stderr.write(`write-locks.js: ${message}\n`);
  process.exitCode = 1;
}

function usage(message) {
  process.stderr.write(
    `write-locks.js: ${message}\n` +
      'usage: node write-locks.js redlock|semaphore-mutex|semaphore|multi-semaphore <resource> <ttlMs> <url>...\n' +
      '       node write-locks.js hold-redlock <resource> <ttlMs> <holdMs> <url>...\n' +
      '       node write-locks.js contend-redlock|contend-mutex <resource> <ttlMs> <holds> <holdMaxMs> <url>...\n' +
      '       node write-locks.js attempt-redlock|attempt-mutex <resource> <ttlMs> <attempts> <name> <url>...\n');
  process.exit(2);
}

function positiveInteger(text, what) {
  const n = Number(text);
  if (!Number.isInteger(n) || n <= 0) usage(`${what} must be a positive integer, not '${text}'`);
  return n;
}

// The test servers' password comes from the environment (never the arguments, which every local
// user can read); a URL without one gets it.
function passwordOption() {
  const password = process.env.LOCKSCOPE_TEST_PASSWORD;
  return password ? { password } : {};
}

function connect(urls, connectionName) {
  return urls.map((url) => {
    // No reconnecting: a writer that cannot reach its master must fail, not hang.
    const client = new Redis(url, {
      connectTimeout: 2000,
      maxRetriesPerRequest: 1,
      retryStrategy: () => null,
      ...(connectionName ? { connectionName } : {}),
      ...passwordOption(),
    });
    client.on('error', (error) => {
      client.lastError = error;
    });
    return client;
  });
}

function print(record) {
  process.stdout.write(`${JSON.stringify(record)}\n`);
}

const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function redlockOf(clients) {
  const redlock = new Redlock(clients, { retryCount: 3, retryDelay: 200, retryJitter: 100 });
  // Redlock emits every per-master failure; unheard, an 'error' event would crash node.
  redlock.on('error', (error) => {
    redlock.lastError = error;
  });
  return redlock;
}

// acquire() resolves as soon as a quorum agrees; the attempt's statistics settle once every master
// has answered. Waiting for them means no master is still being written when we quit.
async function acquireRedlock(clients, resource, ttlMs) {
  const lock = await redlockOf(clients).acquire([resource], ttlMs);
  const attempts = await Promise.all(lock.attempts);
  const last = attempts[attempts.length - 1];
  return { lock, lockedOn: last ? last.votesFor.size : 0, attempts: attempts.length };
}

async function redlock(clients, resource, ttlMs) {
  const { lock, lockedOn, attempts } = await acquireRedlock(clients, resource, ttlMs);
  print({ library: 'redlock', kind: 'redlock', resource, key: resource, value: lock.value, ttlMs, masters: clients.length, lockedOn, attempts });
}

async function holdRedlock(clients, resource, ttlMs, holdMs) {
  let { lock, lockedOn, attempts } = await acquireRedlock(clients, resource, ttlMs);
  print({ library: 'redlock', kind: 'hold-redlock', resource, key: resource, value: lock.value, ttlMs, holdMs, masters: clients.length, lockedOn, attempts });
  const releaseAt = Date.now() + holdMs;
  let extensions = 0;
  for (let left = holdMs; left > 0; left = releaseAt - Date.now()) {
    // Extend at half the TTL so a hold longer than the TTL never lets the lock lapse.
    await delay(Math.min(left, Math.max(1, Math.floor(ttlMs / 2))));
    // Only while the lock would lapse before the release (as a holder extends when it must): an
    // extension a few ms before the release ends with the key gone before anyone could read it.
    if (releaseAt - Date.now() > Math.floor(ttlMs / 4)) {
      lock = await lock.extend(ttlMs);
      extensions += 1;
    }
  }
  await lock.release();
  // A second line, for tests that compare what happened with what was recorded.
  print({ library: 'redlock', kind: 'released', resource, value: lock.value, extensions });
}

function semaphoreOptions(ttlMs) {
  // refreshInterval 0: no background refresh, so the lock lives exactly its TTL after we exit.
  return { lockTimeout: ttlMs, acquireTimeout: 5000, retryInterval: 20, refreshInterval: 0 };
}

async function acquireAndPrint(lock, record) {
  await lock.acquire();
  print({ library: 'redis-semaphore', ...record, token: lock.identifier });
}

async function semaphoreMutex(clients, resource, ttlMs) {
  const options = semaphoreOptions(ttlMs);
  const lock = clients.length > 1 ? new semaphores.RedlockMutex(clients, resource, options)
                                  : new semaphores.Mutex(clients[0], resource, options);
  await acquireAndPrint(lock, { kind: 'semaphore-mutex', resource, key: `mutex:${resource}`, ttlMs, masters: clients.length });
}

async function semaphore(clients, resource, ttlMs) {
  const options = semaphoreOptions(ttlMs);
  const lock = clients.length > 1 ? new semaphores.RedlockSemaphore(clients, resource, SEMAPHORE_LIMIT, options)
                                  : new semaphores.Semaphore(clients[0], resource, SEMAPHORE_LIMIT, options);
  await acquireAndPrint(lock, {
    kind: 'semaphore', resource, key: `semaphore:${resource}`, ttlMs, limit: SEMAPHORE_LIMIT, permits: 1, masters: clients.length,
  });
}

async function multiSemaphore(clients, resource, ttlMs) {
  const options = semaphoreOptions(ttlMs);
  const lock = clients.length > 1
    ? new semaphores.RedlockMultiSemaphore(clients, resource, MULTI_SEMAPHORE_LIMIT, MULTI_SEMAPHORE_PERMITS, options)
    : new semaphores.MultiSemaphore(clients[0], resource, MULTI_SEMAPHORE_LIMIT, MULTI_SEMAPHORE_PERMITS, options);
  await acquireAndPrint(lock, {
    kind: 'multi-semaphore', resource, key: `semaphore:${resource}`, ttlMs, limit: MULTI_SEMAPHORE_LIMIT,
    permits: MULTI_SEMAPHORE_PERMITS, masters: clients.length,
  });
}

async function legacySetnx(clients, resource, ttlMs) {
  const key = `lock.${resource}`; // the library's own prefix
  const before = await clients[0].get(key);
  const lock = legacyRedisLock(clients[0], 20);
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('redis-lock did not acquire within 10 s')), 10000);
    lock(resource, ttlMs, () => {
      clearTimeout(timer);
      resolve(); // the release callback is never called: the key stays, with no TTL
    });
  });
  const value = await clients[0].get(key);
  print({ library: 'redis-lock', version: '0.0.8', kind: 'legacy-setnx', resource, key, value, before, ttlMs, masters: 1 });
}

// One holder among several: its own account of when it held the lock, for a test to compare with
// what LockScope saw. Failing to get the lock is normal here (another holds it): try again.
async function contend(clients, resource, ttlMs, holds, holdMaxMs, takeOne) {
  let held = 0;
  const giveUpAt = Date.now() + Math.max(120000, holds * 1000);
  while (held < holds && Date.now() < giveUpAt) {
    let lock;
    try {
      lock = await takeOne();
    } catch (error) {
      await delay(5 + Math.floor(Math.random() * 20));
      continue;
    }
    print({ event: 'held', library: lock.library, resource, token: lock.token, atMs: Date.now() });
    await delay(Math.floor(Math.random() * holdMaxMs));
    print({ event: 'releasing', resource, token: lock.token, atMs: Date.now() });
    await lock.release().catch(() => {});
    held += 1;
  }
  print({ event: 'done', resource, holds: held });
  if (held < holds) fail(`only ${held} of ${holds} holds of ${resource} in time`);
}

async function contendRedlock(clients, resource, ttlMs, holds, holdMaxMs) {
  const locker = new Redlock(clients, { retryCount: 0 });
  locker.on('error', () => {});
  await contend(clients, resource, ttlMs, holds, holdMaxMs, async () => {
    const lock = await locker.acquire([resource], ttlMs);
    return { library: 'redlock', token: lock.value, release: () => lock.release() };
  });
}

async function contendMutex(clients, resource, ttlMs, holds, holdMaxMs) {
  await contend(clients, resource, ttlMs, holds, holdMaxMs, async () => {
    const options = { lockTimeout: ttlMs, acquireTimeout: 2000, retryInterval: 10, refreshInterval: 0 };
    const lock = clients.length > 1 ? new semaphores.RedlockMutex(clients, resource, options)
                                    : new semaphores.Mutex(clients[0], resource, options);
    // Its token is known before it tries (it tries again with the same one until it gets the lock
    // or gives up): an oracle can tell a token that was only tried from one that was held.
    print({ event: 'trying', resource, token: lock.identifier, atMs: Date.now() });
    await lock.acquire();
    return { library: 'redis-semaphore', token: lock.identifier, release: () => lock.release() };
  });
}

// Exactly `attempts` single attempts, each counted as the library answered it.
async function attempt(clients, resource, ttlMs, attempts, tryOnce) {
  let acquired = 0;
  for (let i = 0; i < attempts; i += 1) {
    // An attempt that failed with an error (not refused) is counted as refused, and said.
    const lock = await tryOnce().catch((error) => {
      if (error && !/quorum|timeout|acquire/i.test(error.message)) process.stderr.write(`attempt: ${error.message}\n`);
      return null;
    });
    print({ event: 'attempt', acquired: Boolean(lock), token: lock ? lock.token : null, atMs: Date.now() });
    if (lock) {
      acquired += 1;
      await delay(30);
      await lock.release().catch(() => {});
    }
    await delay(20);
  }
  return acquired;
}

async function attemptRedlock(clients, resource, ttlMs, attempts) {
  const locker = new Redlock(clients, { retryCount: 0 });
  locker.on('error', () => {});
  return attempt(clients, resource, ttlMs, attempts, async () => {
    const lock = await locker.acquire([resource], ttlMs);
    return { token: lock.value, release: () => lock.release() };
  });
}

async function attemptMutex(clients, resource, ttlMs, attempts) {
  return attempt(clients, resource, ttlMs, attempts, async () => {
    // acquireAttemptsLimit 1: tryAcquire() otherwise retries inside until acquireTimeout, and the
    // library's one attempt would be several SET NX.
    const options = { lockTimeout: ttlMs, acquireTimeout: 2000, acquireAttemptsLimit: 1, retryInterval: 10, refreshInterval: 0 };
    const lock = clients.length > 1 ? new semaphores.RedlockMutex(clients, resource, options)
                                    : new semaphores.Mutex(clients[0], resource, options);
    return (await lock.tryAcquire()) ? { token: lock.identifier, release: () => lock.release() } : null;
  });
}

// @redis-kit/lock on node-redis clients of its own, to the masters the ioredis `clients` reach; no
// retry, so that a refusal is a failure, not a wait.
async function redisKit(clients, resource, ttlMs) {
  const kitClients = clients.map(({ options }) => {
    const client = createClient({
      socket: { host: options.host, port: options.port, connectTimeout: 2000, reconnectStrategy: false },
      ...(options.password ? { password: options.password } : {}),
    });
    client.on('error', (error) => {
      client.lastError = error;
    });
    return client;
  });
  try {
    await Promise.all(kitClients.map((c) => c.connect()));
    const lock = await new KitRedlock(kitClients, { maxRetryAttempts: 0 }).acquire(resource, ttlMs);
    if (!lock) throw new Error('not acquired on a quorum of masters');
    print({ library: '@redis-kit/lock', kind: 'redis-kit', resource, key: resource, value: lock.token, ttlMs, masters: clients.length });
  } finally {
    await Promise.allSettled(kitClients.map((c) => c.destroy()));
  }
}

const KINDS = {
  'redis-kit': redisKit,
  'legacy-setnx': legacySetnx,
  redlock,
  'hold-redlock': holdRedlock,
  'semaphore-mutex': semaphoreMutex,
  semaphore,
  'multi-semaphore': multiSemaphore,
  'contend-redlock': contendRedlock,
  'contend-mutex': contendMutex,
  'attempt-redlock': attemptRedlock,
  'attempt-mutex': attemptMutex,
};

async function main(argv) {
  const [kind, resource, ttlText, ...rest] = argv;
  const run = KINDS[kind];
  if (!run) usage(`unknown kind '${kind}'`);
  if (!resource) usage('missing resource');
  const ttlMs = positiveInteger(ttlText, 'ttlMs');
  const holdMs = kind === 'hold-redlock' ? positiveInteger(rest.shift(), 'holdMs') : 0;
  const contending = kind.startsWith('contend-');
  const holds = contending ? positiveInteger(rest.shift(), 'holds') : 0;
  const holdMaxMs = contending ? positiveInteger(rest.shift(), 'holdMaxMs') : 0;
  const attempting = kind.startsWith('attempt-');
  const attempts = attempting ? positiveInteger(rest.shift(), 'attempts') : 0;
  const name = attempting ? rest.shift() : undefined;
  if (attempting && !name) usage('missing connection name');
  if (rest.length === 0) usage('missing Redis URL');

  const clients = connect(rest, name);
  try {
    if (attempting) {
      const acquired = await run(clients, resource, ttlMs, attempts);
      print({ event: 'done', name, attempts, acquired, refused: attempts - acquired });
    } else if (contending) await run(clients, resource, ttlMs, holds, holdMaxMs);
    else await run(clients, resource, ttlMs, holdMs);
  } catch (error) {
    const cause = clients.map((c) => c.lastError).find(Boolean);
    fail(`${kind} on ${resource} failed: ${error && error.message}${cause ? ` (${cause.message})` : ''}`);
  } finally {
    await Promise.all(clients.map((c) => c.quit().catch(() => c.disconnect())));
  }
}

main(process.argv.slice(2)).finally(() => {
  // Should anything still hold the event loop open after the clients quit, leave anyway.
  setTimeout(() => process.exit(process.exitCode ?? 1), 5000).unref();
});
