#include "widgets/durationtext.h"

#include "base/durationformat.h"

namespace lockscope {

QString DurationText::format(qint64 ms)
{
    return formatDuration(ms);
}

} // namespace lockscope
