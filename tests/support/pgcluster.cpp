// SPDX-License-Identifier: Apache-2.0
#include "support/pgcluster.h"

#include "support/redisserver.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QRandomGenerator>
#include <QThread>

#include <csignal>
#include <grp.h>
#include <pwd.h>
#include <sys/prctl.h>
#include <unistd.h>

namespace lockscope::test {

namespace {

const QString binDir = QStringLiteral("/usr/lib/postgresql/15/bin/");

QString randomPassword()
{
    QByteArray bytes(18, Qt::Uninitialized);
    QRandomGenerator::system()->fillRange(reinterpret_cast<quint32*>(bytes.data()), bytes.size() / 4);
    return QString::fromLatin1(
        bytes.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

} // namespace

PgCluster::~PgCluster()
{
    if (m_server.state() == QProcess::NotRunning)
        return;
    // A fast shutdown (SIGINT) ends the backends too; a server that does not go in 10 s is killed.
    ::kill(pid_t(m_server.processId()), SIGINT);
    if (!m_server.waitForFinished(10000)) {
        m_server.kill();
        m_server.waitForFinished();
    }
}

void PgCluster::configure(QProcess& process) const
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C.UTF-8"));
    env.remove(QStringLiteral("PGPASSWORD"));
    process.setProcessEnvironment(env);
    process.setWorkingDirectory(m_dir.path());
    const int uid = m_uid;
    const int gid = m_gid;
    process.setChildProcessModifier([uid, gid] {
        if (uid >= 0) {
            // PostgreSQL refuses to run as root: the cluster's own user, with no other groups.
            if (::setgroups(0, nullptr) != 0 || ::setgid(gid_t(gid)) != 0 || ::setuid(uid_t(uid)) != 0)
                ::_exit(126);
        }
        // After the change of user, which clears it: the server dies with the test.
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    });
}

bool PgCluster::runAsOwner(const QString& program, const QStringList& args, QByteArray* output)
{
    QProcess p;
    configure(p);
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(program, args);
    const bool done = p.waitForFinished(120000);
    *output = p.readAll();
    if (!done) {
        p.kill();
        p.waitForFinished();
    }
    return done && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}

bool PgCluster::start()
{
    if (!QFile::exists(binDir + QStringLiteral("initdb"))) {
        m_error = QStringLiteral("PostgreSQL 15 is not installed (Debian package postgresql-15)");
        return false;
    }
    if (!m_dir.isValid()) {
        m_error = QStringLiteral("no temporary directory");
        return false;
    }
    if (::geteuid() == 0) {
        const passwd* owner = ::getpwnam("postgres");
        if (!owner) {
            m_error = QStringLiteral("running as root and there is no `postgres` user to run the cluster as");
            return false;
        }
        m_uid = int(owner->pw_uid);
        m_gid = int(owner->pw_gid);
        if (::chown(QFile::encodeName(m_dir.path()).constData(), owner->pw_uid, owner->pw_gid) != 0) {
            m_error = QStringLiteral("cannot give %1 to the postgres user").arg(m_dir.path());
            return false;
        }
    }
    m_password = randomPassword();
    const QString pwfile = m_dir.filePath(QStringLiteral("pw"));
    {
        QFile f(pwfile);
        if (!f.open(QIODevice::WriteOnly) || f.write(m_password.toUtf8() + '\n') <= 0) {
            m_error = QStringLiteral("cannot write %1").arg(pwfile);
            return false;
        }
    }
    if (m_uid >= 0 && ::chown(QFile::encodeName(pwfile).constData(), uid_t(m_uid), gid_t(m_gid)) != 0) {
        m_error = QStringLiteral("cannot give %1 to the postgres user").arg(pwfile);
        return false;
    }
    QByteArray out;
    if (!runAsOwner(binDir + QStringLiteral("initdb"),
                    {QStringLiteral("-D"), m_dir.filePath(QStringLiteral("data")), QStringLiteral("-U"),
                     adminUser(), QStringLiteral("--pwfile=") + pwfile,
                     QStringLiteral("--auth=scram-sha-256"), QStringLiteral("-E"), QStringLiteral("UTF8"),
                     QStringLiteral("--no-sync"), QStringLiteral("--no-instructions")},
                    &out)) {
        m_error = QStringLiteral("initdb failed: %1").arg(QString::fromUtf8(out.right(2000)));
        return false;
    }
    QFile::remove(pwfile);
    for (int attempt = 0; attempt < 3; ++attempt)
        if (startServer())
            break;
    if (!isRunning())
        return false;
    // The admin's own database exists only as `postgres`: the cluster's databases are made there.
    QProcess create;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("PGPASSWORD"), m_password);
    create.setProcessEnvironment(env);
    create.setProcessChannelMode(QProcess::MergedChannels);
    create.start(binDir + QStringLiteral("createdb"),
                 {QStringLiteral("-h"), QStringLiteral("127.0.0.1"), QStringLiteral("-p"),
                  QString::number(m_port), QStringLiteral("-U"), adminUser(), QStringLiteral("lockscope")});
    if (!create.waitForFinished(60000) || create.exitCode() != 0) {
        m_error = QStringLiteral("createdb failed: %1").arg(QString::fromUtf8(create.readAll().right(2000)));
        return false;
    }
    return true;
}

bool PgCluster::startServer()
{
    if (m_port == 0)
        m_port = freeLoopbackPort();
    configure(m_server);
    m_server.setProcessChannelMode(QProcess::MergedChannels);
    // Loopback only, its socket directory its own; no fsync: a test's data need not survive a crash
    // of the machine.
    m_server.start(binDir + QStringLiteral("postgres"),
                   {QStringLiteral("-D"), m_dir.filePath(QStringLiteral("data")), QStringLiteral("-h"),
                    QStringLiteral("127.0.0.1"), QStringLiteral("-p"), QString::number(m_port),
                    QStringLiteral("-k"), m_dir.path(), QStringLiteral("-c"), QStringLiteral("fsync=off"),
                    QStringLiteral("-c"), QStringLiteral("synchronous_commit=off"), QStringLiteral("-c"),
                    QStringLiteral("full_page_writes=off")});
    const QDeadlineTimer deadline(30000);
    while (!deadline.hasExpired() && m_server.state() != QProcess::NotRunning) {
        QProcess ready;
        ready.start(binDir + QStringLiteral("pg_isready"),
                    {QStringLiteral("-q"), QStringLiteral("-h"), QStringLiteral("127.0.0.1"),
                     QStringLiteral("-p"), QString::number(m_port), QStringLiteral("-t"),
                     QStringLiteral("1")});
        if (ready.waitForFinished(5000) && ready.exitStatus() == QProcess::NormalExit &&
            ready.exitCode() == 0)
            return true;
        m_server.waitForFinished(100);
    }
    const QByteArray log = m_server.readAll();
    if (m_server.state() != QProcess::NotRunning) {
        m_server.kill();
        m_server.waitForFinished();
    }
    m_error = QStringLiteral("postgres did not start on port %1: %2")
                  .arg(m_port)
                  .arg(QString::fromUtf8(log.right(2000)));
    m_port = 0; // the port may have been taken meanwhile: the next attempt picks another
    return false;
}

bool PgCluster::stop()
{
    if (m_server.state() == QProcess::NotRunning)
        return true;
    ::kill(pid_t(m_server.processId()), SIGINT);
    return m_server.waitForFinished(20000);
}

bool PgCluster::restart()
{
    return stop() && startServer();
}

QByteArray PgCluster::psql(const QString& sql, const QString& user, const QString& password, bool* ok)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("PGPASSWORD"), password.isEmpty() ? m_password : password);
    env.insert(QStringLiteral("PGCONNECT_TIMEOUT"), QStringLiteral("10"));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral("psql"),
            {QStringLiteral("-X"), QStringLiteral("-q"), QStringLiteral("-A"), QStringLiteral("-t"),
             QStringLiteral("-v"), QStringLiteral("ON_ERROR_STOP=1"), QStringLiteral("-h"),
             QStringLiteral("127.0.0.1"), QStringLiteral("-p"), QString::number(m_port), QStringLiteral("-U"),
             user, QStringLiteral("-d"), QStringLiteral("lockscope"), QStringLiteral("-c"), sql});
    const bool done = p.waitForFinished(60000);
    const QByteArray out = p.readAllStandardOutput();
    const bool good = done && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
    if (!good)
        m_error =
            QStringLiteral("psql failed: %1").arg(QString::fromUtf8(p.readAllStandardError().right(2000)));
    if (ok)
        *ok = good;
    return good ? out : QByteArray();
}

QString PgCluster::url(const QString& user) const
{
    return QStringLiteral("postgresql://%1@127.0.0.1:%2/lockscope").arg(user).arg(m_port);
}

} // namespace lockscope::test
