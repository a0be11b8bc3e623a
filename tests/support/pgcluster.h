// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

namespace lockscope::test {

// A PostgreSQL cluster of the test's own (Debian's postgresql-15): initdb in a temporary directory,
// a server on a free loopback port with password (SCRAM) logins only, no Unix socket anyone else
// uses. Run as the `postgres` system user when the test runs as root (PostgreSQL refuses root),
// as the test's own user otherwise. Stopped (by its pid: a fast shutdown, then SIGKILL) when this
// object goes, and killed if the test process dies first.
class PgCluster
{
public:
    PgCluster() = default;
    ~PgCluster();
    PgCluster(const PgCluster&) = delete;
    PgCluster& operator=(const PgCluster&) = delete;

    // Creates and starts the cluster, then a database `lockscope`. False with errorString() set.
    bool start();
    const QString& errorString() const { return m_error; }
    quint16 port() const { return m_port; }
    // The superuser the cluster was made with, and its password.
    static QString adminUser() { return QStringLiteral("lockscope_admin"); }
    const QString& adminPassword() const { return m_password; }
    // postgresql://USER@127.0.0.1:PORT/lockscope (no password: it goes in PGPASSWORD).
    QString url(const QString& user = adminUser()) const;

    // Runs `sql` through psql as `user` (the admin by default) on the `lockscope` database; its
    // output (unaligned, tuples only) or an empty string with errorString() set, on failure.
    QByteArray psql(const QString& sql, const QString& user = adminUser(), const QString& password = {},
                    bool* ok = nullptr);
    // Stops the server (a fast shutdown) and starts it again on the same port: the data stays.
    bool stop();
    bool restart();
    bool isRunning() const { return m_server.state() != QProcess::NotRunning; }

private:
    bool runAsOwner(const QString& program, const QStringList& args, QByteArray* output);
    bool startServer();
    void configure(QProcess& process) const;

    QTemporaryDir m_dir;
    QProcess m_server;
    QString m_password;
    QString m_error;
    quint16 m_port = 0;
    int m_uid = -1; // the owner the cluster runs as when we are root; -1: ourselves
    int m_gid = -1;
};

} // namespace lockscope::test
