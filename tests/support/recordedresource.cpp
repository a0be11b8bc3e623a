// SPDX-License-Identifier: Apache-2.0
#include "support/recordedresource.h"

#include "diagnosis/evidenceline.h"
#include "record/recordingreader.h"

#include <QFile>

namespace lockscope::test {

RecordedResource::RecordedResource(const QStringList& files, const QByteArray& resource)
{
    for (const QString& file : files) {
        RecordingReader reader;
        if (!QFile::exists(file) || reader.open(file).isError())
            continue;
        if (Result<ResourceHistory> history = reader.history(resource)) {
            const int masters =
                history->sessions.isEmpty() ? 0 : int(history->sessions.first().masters.size());
            m_reads << Read{std::move(*history), masters};
        }
    }
}

QString RecordedResource::story() const
{
    QStringList lines;
    for (const Read& read : m_reads)
        for (const HistoryEvent& h : read.history.events)
            lines << QStringLiteral("  %1 (%2)")
                         .arg(EvidenceLine::of(h.event, read.masters))
                         .arg(h.event.timeMs);
    return lines.join(QLatin1Char('\n'));
}

qint64 RecordedResource::firstOnQuorumMs(const QByteArray& token) const
{
    qint64 first = -1;
    for (const Read& read : m_reads)
        for (const HistoryEvent& h : read.history.events)
            if (h.event.token == token && h.event.master < 0 && read.masters > 0 &&
                h.event.holding >= read.masters / 2 + 1 && (first < 0 || h.event.timeMs < first))
                first = h.event.timeMs;
    return first;
}

} // namespace lockscope::test
