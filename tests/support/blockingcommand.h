// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "connection/redisreply.h"

#include <QByteArrayList>
#include <QString>

namespace lockscope::test {

// One command through hiredis to a loopback port, blocking: for fixtures' set-up and checks only,
// never for the code under test. An error reply stands for a failure to connect too. The timeout
// only says "did not hang" (5 s, scaled like every upper bound: a loaded sanitized run takes
// seconds for a big MSET), so a server the test paused is not asked: see pausedReply().
RedisReply blockingCommand(quint16 port, const QByteArrayList& argv, const QString& password = {});
// The same over TLS, for servers without a plain port: verifies the server with TlsMaterial's CA
// and presents its client certificate.
RedisReply blockingTlsCommand(quint16 port, const QByteArrayList& argv, const QString& password = {});

// The fixture's error for a command to a server it stopped with SIGSTOP: given at once, where
// asking would only wait out the timeout.
RedisReply pausedReply(quint16 port);

// A field of an INFO reply ("role", "master_link_status", ...), empty when absent.
QByteArray infoField(const QByteArray& info, const QByteArray& field);

} // namespace lockscope::test
