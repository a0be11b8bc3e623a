#include "formats/recognizedlock.h"

#include "formats/stringformats.h"

namespace lockscope {

QList<LockHolder> RecognizedLock::holderList() const
{
    if (!impliedHolder)
        return listedHolders;
    return {recognition::impliedHolder(*this)};
}

} // namespace lockscope
