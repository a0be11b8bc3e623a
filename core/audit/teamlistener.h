// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "audit/teamdatabase.h"

#include <QObject>

#include <memory>

class QTimer;

namespace lockscope {

// One connection to a team database that listens on a channel (PostgreSQL's LISTEN/NOTIFY, which
// Qt SQL tells as driver notifications): what a window follows another program's commits by,
// never by polling a table. A listening connection hears nothing when the server goes away, so a
// round trip now and then tells; on any failure it says so and connects again after retryMs.
// It talks to the database on the thread it lives on, which must not be the GUI thread.
class TeamListener final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TeamListener)

public:
    static constexpr int retryMs = 5000;

    TeamListener(TeamDatabaseUrl url, QString password, QString channel, QObject* parent = nullptr);
    ~TeamListener() override;

    // Connects and listens (on this object's thread).
    void start();
    // Closes the connection.
    void stop();
    // The connection while it listens (for the reads a notification asks for), or null.
    TeamDatabase* database();
    const TeamDatabaseUrl& url() const { return m_url; }
    // A read on database() failed: said (problem), and connected again after retryMs.
    void failed(const QString& message);

signals:
    // Connected and listening, first or again: read what came meanwhile.
    void listening();
    // Something was committed on the channel.
    void notified();
    // Why it does not listen now (empty once it does again).
    void problem(const QString& message);

private:
    void connectAndListen();

    TeamDatabaseUrl m_url;
    QString m_password;
    QString m_channel;
    std::unique_ptr<TeamDatabase> m_db;
    QTimer* m_retry;
    QTimer* m_ping;
};

} // namespace lockscope
