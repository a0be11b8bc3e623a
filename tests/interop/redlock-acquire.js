#!/usr/bin/env node
// SPDX-License-Identifier: Apache-2.0
// node-redlock (npm redlock, pinned in package.json) on the masters given, for the interop tests:
//
//   node redlock-acquire.js hold URL... --resource R --ttl MS --hold-ms H
//       acquires, prints "locked <value>", holds for H ms, releases, prints "released"; exit 0
//   node redlock-acquire.js try URL... --resource R --ttl MS
//       one attempt, no retries: prints "acquired <value>" and releases (exit 0), "busy" when the
//       masters that said no said so because someone else holds the lock (exit 1), or
//       "unreachable <why>" when too few masters could be asked at all (exit 3)
//   A URL without a password gets the one in the environment variable LOCKSCOPE_TEST_PASSWORD.
'use strict';

const path = require('path');
const Redis = require(path.join(__dirname, 'node_modules', 'ioredis'));
const redlockModule = require(path.join(__dirname, 'node_modules', 'redlock'));
const Redlock = redlockModule.default;
const { ExecutionError, ResourceLockedError } = redlockModule;

// Why an acquisition failed: 'busy' only when every vote against it was "locked by someone else";
// a connection error, a timeout or anything else is not a lock held by someone.
async function whyNot(e) {
    if (!(e instanceof ExecutionError))
        return `unreachable ${e && e.message}`;
    const reasons = [];
    for (const attempt of e.attempts) {
        const stats = await attempt;
        for (const error of stats.votesAgainst.values())
            if (!(error instanceof ResourceLockedError))
                reasons.push(error && error.message);
    }
    return reasons.length === 0 ? 'busy' : `unreachable ${reasons.join('; ')}`;
}

async function main() {
    const [mode, ...rest] = process.argv.slice(2);
    const urls = [];
    const options = { resource: '', ttl: 10000, holdMs: 1000 };
    for (let i = 0; i < rest.length; i++) {
        if (rest[i] === '--resource') options.resource = rest[++i];
        else if (rest[i] === '--ttl') options.ttl = Number(rest[++i]);
        else if (rest[i] === '--hold-ms') options.holdMs = Number(rest[++i]);
        else urls.push(rest[i]);
    }
    if (!['hold', 'try'].includes(mode) || urls.length === 0 || !options.resource) {
        process.stderr.write('usage: redlock-acquire.js hold|try URL... --resource R --ttl MS [--hold-ms H]\n');
        return 2;
    }
    // The test servers' password from the environment, never the arguments (visible to every user).
    const password = process.env.LOCKSCOPE_TEST_PASSWORD;
    const clients = urls.map((url) => new Redis(url, { maxRetriesPerRequest: 1, ...(password ? { password } : {}) }));
    // A master that cannot be reached is reported through the failed command (see whyNot), not
    // through ioredis' "Unhandled error event" on every reconnection attempt.
    for (const c of clients) c.on('error', () => {});
    const redlock = new Redlock(clients, { retryCount: 0 });
    try {
        let lock;
        try {
            lock = await redlock.acquire([options.resource], options.ttl);
        } catch (e) {
            const why = await whyNot(e);
            process.stdout.write(`${why}\n`);
            return why === 'busy' ? 1 : 3;
        }
        if (mode === 'try') {
            process.stdout.write(`acquired ${lock.value}\n`);
            await lock.release();
            return 0;
        }
        process.stdout.write(`locked ${lock.value}\n`);
        await new Promise((resolve) => setTimeout(resolve, options.holdMs));
        await lock.release();
        process.stdout.write('released\n');
        return 0;
    } finally {
        // QUIT on a client that never connected would wait for a connection forever.
        await Promise.all(clients.map((c) => (c.status === 'ready' ? c.quit().catch(() => {}) : c.disconnect())));
    }
}

main().then((code) => { process.exitCode = code; }, (e) => {
    process.stderr.write(`redlock-acquire: ${e.stack || e}\n`);
    process.exitCode = 2;
});
