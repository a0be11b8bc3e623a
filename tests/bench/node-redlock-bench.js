#!/usr/bin/env node
// SPDX-License-Identifier: Apache-2.0
// node-redlock (npm redlock 5 + ioredis, as pinned in tests/interop/package.json) measured the way
// `lockbench acquire` measures LockScope: acquire + release pairs on distinct resources with C in
// flight, then p50/p99 of S sequential acquisitions. Prints the same JSON line.
//
//   node tests/bench/node-redlock-bench.js -m redis://127.0.0.1:P1 ... [--count N] [--concurrency C]
//                                          [--sequential S] [--ttl MS]
'use strict';

const path = require('path');
const modules = path.join(__dirname, '..', 'interop', 'node_modules');
const Redis = require(path.join(modules, 'ioredis'));
const Redlock = require(path.join(modules, 'redlock')).default;

function parseArgs(argv) {
    const options = { masters: [], count: 20000, concurrency: 64, sequential: 2000, ttl: 10000 };
    for (let i = 0; i < argv.length; i++) {
        const value = argv[i + 1];
        switch (argv[i]) {
        case '-m': case '--master': options.masters.push(value); i++; break;
        case '--count': options.count = Number(value); i++; break;
        case '--concurrency': options.concurrency = Number(value); i++; break;
        case '--sequential': options.sequential = Number(value); i++; break;
        case '--ttl': options.ttl = Number(value); i++; break;
        default: throw new Error(`unknown argument ${argv[i]}`);
        }
    }
    if (options.masters.length === 0) throw new Error('give -m URL at least once');
    return options;
}

function percentileMs(samplesNs, p) {
    const sorted = samplesNs.slice().sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const index = Math.min(sorted.length - 1, Math.floor(p * sorted.length));
    return Number(sorted[index]) / 1e6;
}

async function main() {
    const options = parseArgs(process.argv.slice(2));
    const clients = options.masters.map((url) => new Redis(url, { maxRetriesPerRequest: 1 }));
    await Promise.all(clients.map((c) => c.ping()));
    // Distinct resources never contend: no retries, as in lockbench.
    const redlock = new Redlock(clients, { retryCount: 0 });
    const prefix = `nodebench:${process.pid}:`;
    let failures = 0;

    async function runPairs(pairs, tag) {
        let started = 0;
        async function chain() {
            while (started < pairs) {
                const resource = prefix + tag + started++;
                try {
                    const lock = await redlock.acquire([resource], options.ttl);
                    await lock.release();
                } catch (e) {
                    failures++;
                }
            }
        }
        const start = process.hrtime.bigint();
        await Promise.all(Array.from({ length: options.concurrency }, chain));
        return Number(process.hrtime.bigint() - start) / 1e9;
    }

    await runPairs(Math.min(options.count, 2000), 'warm:');
    const seconds = await runPairs(options.count, 'pair:');

    const latencies = [];
    for (let i = 0; i < options.sequential; i++) {
        const start = process.hrtime.bigint();
        let lock;
        try {
            lock = await redlock.acquire([prefix + 'seq:' + i], options.ttl);
        } catch (e) {
            failures++;
        }
        latencies.push(process.hrtime.bigint() - start);
        if (lock) await lock.release().catch(() => failures++);
    }

    await Promise.all(clients.map((c) => c.quit()));
    if (failures > 0) process.stderr.write(`node-redlock-bench: ${failures} operations failed\n`);
    process.stdout.write(JSON.stringify({
        pairsPerSec: options.count / seconds,
        acquireP50Ms: percentileMs(latencies, 0.5),
        acquireP99Ms: percentileMs(latencies, 0.99),
    }) + '\n');
    process.exitCode = failures > 0 ? 1 : 0;
}

main().catch((e) => {
    process.stderr.write(`node-redlock-bench: ${e.stack || e}\n`);
    process.exit(2);
});
