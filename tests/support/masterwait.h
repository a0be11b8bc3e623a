// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QList>
#include <QtGlobal>

namespace lockscope::test {

class RedisServer;

// What a master itself says it has done, for tests that must wait until a write or a release sent by
// someone else has landed there (instead of sleeping for a while and hoping it did).

// How many times `command` (e.g. "set", "evalsha") ran on `server` without an error (INFO
// commandstats: calls - failed_calls); 0 for a command never called, -1 when the server does not answer.
qint64 succeededCalls(const RedisServer& server, const QByteArray& command);

// Successful EVAL + EVALSHA calls: a token script (release, extend) that ran, whichever way it was sent.
qint64 succeededScripts(const RedisServer& server);

// Clients connected to `server` (INFO clients), the fixture's own one-shot connection included; -1
// when it does not answer.
qint64 connectedClients(const RedisServer& server);

// Waits until `server` has no more clients than `baseline` (taken with connectedClients() before a
// peer process started). A server drops a client only after it has read its last bytes, so once a
// finished process's connections are gone, every command it sent has run there.
bool waitForClientsGone(const RedisServer& server, qint64 baseline, int timeoutMs);

} // namespace lockscope::test
