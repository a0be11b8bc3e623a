// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "record/resourcehistory.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace lockscope::test {

// What a run's recording files hold of one resource, read back once the run is over: the story a
// failed check prints, and when the monitor first read a token on a quorum of masters.
class RecordedResource final
{
public:
    // Files that do not exist or cannot be read hold nothing.
    RecordedResource(const QStringList& files, const QByteArray& resource);

    // One line per event, with its time (wall clock, ms).
    QString story() const;
    // When a recorded event first showed `token` held on a quorum of its session's masters; -1: never.
    qint64 firstOnQuorumMs(const QByteArray& token) const;

private:
    struct Read
    {
        ResourceHistory history;
        int masters = 0;
    };
    QList<Read> m_reads;
};

} // namespace lockscope::test
