#include "lockctl/recordingargument.h"

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

QCommandLineOption RecordingArgument::allowSharedOption()
{
    return {QStringLiteral("allow-shared-recording"),
            QStringLiteral("Record into a file that group or others may read or write, or that another user "
                           "owns (refused by default: it holds every holder's token).")};
}

bool RecordingArgument::allowShared(const QCommandLineParser& parser)
{
    return parser.isSet(QStringLiteral("allow-shared-recording"));
}

} // namespace lockctl
