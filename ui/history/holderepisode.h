#pragma once

#include <QByteArray>
#include <QCoreApplication>
#include <QDateTime>
#include <QString>

namespace lockscope {

// One holder's time with a lock, as seen from this window: from when its token appeared to when
// it went, and how it went.
struct HolderEpisode
{
    enum class End
    {
        Ongoing,
        Released,      // gone before its validity ran out
        Expired,       // gone when its validity ran out
        ForceReleased, // this window force-released it
        LostOnRestart, // a master holding it restarted, and it went
        Replaced,      // another token took its place while it was still valid
    };

    QByteArray token;
    QString owner;
    QDateTime from;
    QDateTime to; // invalid while ongoing
    End end = End::Ongoing;

    static QString endName(End end);
};

} // namespace lockscope
