// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/localserverprocess.h"
#include "connection/connectionoptions.h"
#include "connection/redisreply.h"

#include <QByteArrayList>
#include <QProcess>
#include <QStringList>
#include <QTemporaryDir>

#include <memory>

namespace lockscope::test {

struct RedisServerOptions
{
    bool tls = false; // clients must use TLS (a plain admin port stays open for the fixture)
    bool requireClientCert = false;
    // With tls: no plain port at all (port 0) and replication over TLS. adminPort() is then the TLS
    // port, and the fixture's own commands go over TLS too.
    bool tlsOnly = false;
    // requirepass (and masterauth) for the default user. Empty: the test run's random password
    // (testPassword()), so that no other local user can use a server while a test runs (issue #14).
    QString password;
    // No requirepass at all. Only for a test that is about a server without one (a NOAUTH check, a
    // client that sends no credentials): say why where it is set.
    bool withoutPassword = false;
    QString aclUser;                                  // an extra ACL user ...
    QString aclPassword;                              // ... with this password ...
    QString aclRules = QStringLiteral("~* &* +@all"); // ... and these rights
    bool unixSocket = false;
    bool notifications = false; // notify-keyspace-events KA
    QStringList extraArgs;      // e.g. {"--maxmemory", "1mb"}
};

// One real redis-server on a free loopback port, in its own temporary directory, without
// persistence. The process is killed when this object goes (also when a test fails half-way)
// and, through PR_SET_PDEATHSIG, when the test process itself dies.
class RedisServer
{
public:
    explicit RedisServer(RedisServerOptions options = {});
    ~RedisServer();
    RedisServer(const RedisServer&) = delete;
    RedisServer& operator=(const RedisServer&) = delete;

    bool start();
    void stop(); // SIGKILL and reap
    void kill() { stop(); }
    void pause();   // SIGSTOP: the socket stays open but nothing answers
    void resume();  // SIGCONT
    bool restart(); // a new process on the same port: empty, with a new run_id
    bool isRunning() const;
    const QString& errorString() const { return m_error; }

    qint64 pid() const;
    // The arguments the running process was started with (what `ps` shows until it sets its title).
    QStringList arguments() const;
    quint16 port() const { return m_port; }           // the port clients use (TLS port when tls)
    quint16 adminPort() const { return m_adminPort; } // plain port, for the fixture's own commands
    QString socketPath() const;
    // The configuration file the server reads (0600, in its own directory): it holds the secrets,
    // which never go on the command line (any local user can read a process's arguments).
    QString configPath() const;
    const RedisServerOptions& options() const { return m_options; }

    // A URL for clients, with the password when `withSecret`.
    QString url(bool withSecret = true) const;
    // Connection options for lockscope::RedisConnection, TLS CA filled in for TLS servers.
    ConnectionOptions connectionOptions(int timeoutMs = 2000) const;

    // This process's environment plus REDISCLI_AUTH: redis-cli run with it logs in without the
    // password in its arguments.
    QProcessEnvironment cliEnvironment() const;

    // A blocking command through hiredis on the admin port, for test set-up and checks.
    RedisReply command(const QByteArrayList& argv) const;
    QByteArray runId() const;

private:
    bool launch();
    QByteArray config();
    // Whether this launch's own server says it listens: an answer on its port alone may come from
    // another test's server that took the port first (ours then exits, "address already in use").
    bool logSaysReady() const;

    RedisServerOptions m_options;
    QTemporaryDir m_dir;
    LocalServerProcess m_process;
    quint16 m_port = 0;
    quint16 m_adminPort = 0;
    QString m_error;
    int m_generation = 0;
    QString m_logPath; // this launch's log
};

// The password every fixture server and sentinel of this test process requires unless a test asks
// for another one: 32 hex digits from the system's random source, made once per process, so that
// replicas, cluster nodes and Redlock masters of one test agree on it.
const QString& testPassword();

// The environment variable that lockctl (--password-env) and the interop scripts take the fixture
// password from: a child process gets it in its environment, never in its arguments.
inline constexpr char testPasswordVar[] = "LOCKSCOPE_TEST_PASSWORD";
// This process's environment plus testPasswordVar=testPassword(), for such a child process.
QProcessEnvironment testPasswordEnvironment();
// A password of a test's own choosing, still unguessable: `label` (what a leak check can name) and
// 16 random hex digits. A password written in a test's source would let any local user who reads
// it use that test's servers while it runs.
QString distinctTestPassword(const QString& label);

// A free loopback TCP port (bound and released: good enough on a test machine).
quint16 freeLoopbackPort();

// What a fixture process needs before its first launch: its temporary directory and, with `tls`,
// the test certificates. False with `error` set when either is missing.
bool fixtureCanLaunch(const QTemporaryDir& dir, bool tls, QString* error);

} // namespace lockscope::test
