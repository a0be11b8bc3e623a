#pragma once

#include "base/result.h"
#include "record/recordingdatabase.h"
#include "record/resourcehistory.h"

#include <memory>

namespace lockscope {

// Reads a recording: a resource's episodes and events, the resources recorded, the sessions (and
// so the gaps where nobody watched). For `lockctl history`, the window's History view and the
// stuck-lock diagnosis. Opens its own connection (on the calling thread), so it can read while a
// recorder writes the same file (WAL: readers never wait for the writer).
class RecordingReader
{
public:
    RecordingReader();
    ~RecordingReader();

    // The file must exist; an older schema is migrated, a newer one refused (RecordingDatabase).
    RedisError open(const QString& path);

    // Episodes that were open at or after `sinceMs` (wall clock; -1: all), oldest first, with the
    // resource's events and the masters' events from the first episode's start on.
    Result<ResourceHistory> history(const QByteArray& resource, qint64 sinceMs = -1);
    // Every resource with at least one event, sorted.
    Result<QList<QByteArray>> resources();
    Result<QList<RecordingSession>> sessions();

private:
    // The recorder stores a replacement as the new holder's `acquired` alone: the `replaced` event
    // of the holder before it is put back here, just before. Names each event's resource.
    static void restoreReplacements(QList<HistoryEvent>& events, const QByteArray& resource);
    Result<QList<HistoryEvent>> events(const QString& where, const QVariantList& values,
                                       const QList<RecordingSession>& sessions);

    std::unique_ptr<RecordingDatabase> m_db;
};

} // namespace lockscope
