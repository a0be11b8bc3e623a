#include "recordingargument.h"

#include "record/recordingdatabase.h"

namespace lockctl {

QCommandLineOption RecordingArgument::option()
{
    return {QStringLiteral("db"),
            QStringLiteral(
                "The recording to read or write (default $XDG_STATE_HOME/lockscope/recording.sqlite)."),
            QStringLiteral("FILE")};
}

QString RecordingArgument::path(const QCommandLineParser& parser)
{
    return parser.isSet(QStringLiteral("db")) ? parser.value(QStringLiteral("db"))
                                              : lockscope::RecordingDatabase::defaultPath();
}

} // namespace lockctl
