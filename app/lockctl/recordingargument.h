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
};

} // namespace lockctl
