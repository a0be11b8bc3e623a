#pragma once

#include <QCommandLineOption>
#include <QCommandLineParser>

namespace lockctl {

// --db FILE of record and history: the flight recorder's file, by default the one in
// $XDG_STATE_HOME/lockscope/ (RecordingDatabase::defaultPath()).
class RecordingArgument
{
public:
    static QCommandLineOption option();
    static QString path(const QCommandLineParser& parser);
    // --allow-shared-recording of record and serve: the writer accepts a recording that group or
    // others can read or write, or that another user owns (as --allow-shared-audit-log does).
    static QCommandLineOption allowSharedOption();
    static bool allowShared(const QCommandLineParser& parser);
};

} // namespace lockctl
