// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "insights/familyfigures.h"

#include <QList>
#include <QObject>
#include <QString>

namespace lockscope {

// One pass of LockStatsBuilder over a recording, with the pictures, for a view that must not wait
// for it (the window's Insights): moveToThread, then run(). A recording of a million locks takes
// seconds; the pass gives up when its thread is asked to stop (QThread::requestInterruption).
class FamilyStatsPass final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FamilyStatsPass)

public:
    // `sinceMs`: wall clock, -1 for the whole recording.
    // `password`: a team database's (a recording in PostgreSQL), or empty.
    FamilyStatsPass(QString recordingPath, qint64 sinceMs, QString password = {}, QObject* parent = nullptr);

    void run();

signals:
    // The families, riskiest first, each with its pictures; `tookMs` the pass's time.
    void finished(const QList<lockscope::FamilyFigures>& families, qint64 tookMs);
    // Why there are none: the file would not open or read (not emitted when stopped).
    void failed(const QString& reason);

private:
    QString m_path;
    QString m_password;
    qint64 m_sinceMs;
};

} // namespace lockscope
