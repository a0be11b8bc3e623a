#include "history/holderepisode.h"

namespace lockscope {

QString HolderEpisode::endName(End end)
{
    switch (end) {
    case End::Ongoing:
        return QCoreApplication::translate("HolderEpisode", "held");
    case End::Released:
        return QCoreApplication::translate("HolderEpisode", "released");
    case End::Expired:
        return QCoreApplication::translate("HolderEpisode", "expired");
    case End::ForceReleased:
        return QCoreApplication::translate("HolderEpisode", "force-released");
    case End::LostOnRestart:
        return QCoreApplication::translate("HolderEpisode", "lost on a master restart");
    case End::Replaced:
        return QCoreApplication::translate("HolderEpisode", "replaced");
    }
    return QString();
}

} // namespace lockscope
