// SPDX-License-Identifier: Apache-2.0
#include "formats/recognizedlock.h"

#include "formats/stringformats.h"

namespace lockscope {

const RecognizedLock::Rare& RecognizedLock::rare() const
{
    static const Rare none;
    return m_rare ? *m_rare : none;
}

RecognizedLock::Rare& RecognizedLock::editRare()
{
    if (!m_rare)
        m_rare = new Rare;
    return *m_rare; // detaches when shared
}

void RecognizedLock::setListedHolders(QList<LockHolder> holders)
{
    if (holders.isEmpty() && !m_rare)
        return;
    editRare().listedHolders = std::move(holders);
}

void RecognizedLock::setExpiresAtMs(qint64 ms)
{
    if (ms == -1 && !m_rare)
        return;
    editRare().expiresAtMs = ms;
}

void RecognizedLock::setTimestampLeftMs(qint64 ms)
{
    if (ms == -1 && !m_rare)
        return;
    editRare().timestampLeftMs = ms;
}

QString RecognizedLock::detail() const
{
    if (!rare().detail.isEmpty())
        return rare().detail;
    return impliedHolder ? recognition::impliedDetail(*this) : QString();
}

void RecognizedLock::setDetail(const QString& detail)
{
    if (detail.isEmpty() && !m_rare)
        return;
    editRare().detail = detail;
}

void RecognizedLock::appendDetail(const QString& more)
{
    if (more.isEmpty())
        return;
    const QString now = detail();
    setDetail(now.isEmpty() ? more : now + QStringLiteral("; ") + more);
}

QList<LockHolder> RecognizedLock::holderList() const
{
    if (!impliedHolder)
        return listedHolders();
    return {recognition::impliedHolder(*this)};
}

bool RecognizedLock::operator==(const RecognizedLock& o) const
{
    return format == o.format && expiredByTimestamp == o.expiredByTimestamp && auxiliary == o.auxiliary &&
           impliedHolder == o.impliedHolder && token == o.token && owner == o.owner &&
           (m_rare == o.m_rare || rare() == o.rare());
}

} // namespace lockscope
