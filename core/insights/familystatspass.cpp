// SPDX-License-Identifier: Apache-2.0
#include "insights/familystatspass.h"

#include "insights/lockstatsbuilder.h"
#include "record/recordingreader.h"

#include <QElapsedTimer>
#include <QThread>

namespace lockscope {

FamilyStatsPass::FamilyStatsPass(QString recordingPath, qint64 sinceMs, QString password, QObject* parent)
    : QObject(parent), m_path(std::move(recordingPath)), m_password(std::move(password)), m_sinceMs(sinceMs)
{
    qRegisterMetaType<QList<lockscope::FamilyFigures>>();
}

void FamilyStatsPass::run()
{
    QElapsedTimer clock;
    clock.start();
    RecordingReader reader;
    if (const RedisError error = reader.open(m_path, m_password)) {
        emit failed(error.message);
        return;
    }
    QThread* thread = QThread::currentThread();
    const Result<QList<FamilyFigures>> families =
        LockStatsBuilder::ofRecording(reader, m_sinceMs, LockStatsBuilder::Detail::Pictures,
                                      [thread] { return !thread->isInterruptionRequested(); });
    if (thread->isInterruptionRequested())
        return;
    if (!families) {
        emit failed(families.error().message);
        return;
    }
    emit finished(*families, clock.elapsed());
}

} // namespace lockscope
