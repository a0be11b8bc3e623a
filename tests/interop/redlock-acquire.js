#!/usr/bin/env node
// node-redlock (npm redlock, pinned in package.json) on the masters given, for the interop tests:
//
//   node redlock-acquire.js hold URL... --resource R --ttl MS --hold-ms H
//       acquires, prints "locked <value>", holds for H ms, releases, prints "released"; exit 0
//   node redlock-acquire.js try URL... --resource R --ttl MS
//       one attempt, no retries: prints "acquired <value>" and releases (exit 0), or "busy" (exit 1)
'use strict';

const path = require('path');
const Redis = require(path.join(__dirname, 'node_modules', 'ioredis'));
const Redlock = require(path.join(__dirname, 'node_modules', 'redlock')).default;

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
    const clients = urls.map((url) => new Redis(url, { maxRetriesPerRequest: 1 }));
    const redlock = new Redlock(clients, { retryCount: 0 });
    try {
        let lock;
        try {
            lock = await redlock.acquire([options.resource], options.ttl);
        } catch (e) {
            process.stdout.write('busy\n');
            return 1;
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
        await Promise.all(clients.map((c) => c.quit().catch(() => {})));
    }
}

main().then((code) => { process.exitCode = code; }, (e) => {
    process.stderr.write(`redlock-acquire: ${e.stack || e}\n`);
    process.exitCode = 2;
});
