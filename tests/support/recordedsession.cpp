// SPDX-License-Identifier: Apache-2.0
#include "support/recordedsession.h"

#include "record/recordingwriter.h"

#include <memory>

namespace lockscope::test {

bool recordSession(const QString& path, const QStringList& masters, const RecordEventList& events,
                   QString* error)
{
    RecorderOptions options;
    options.path = path;
    RecordingWriter writer(options, std::make_shared<RecordingWriter::Counters>());
    bool open = false;
    QObject::connect(&writer, &RecordingWriter::opened, [&](const RedisError& e) {
        open = e.kind == ErrorKind::None;
        if (error)
            *error = e.message;
    });
    writer.start(masters); // opened() comes before start() returns
    if (!open)
        return false;
    writer.write(events);
    writer.finish();
    return true;
}

} // namespace lockscope::test
