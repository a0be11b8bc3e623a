// SPDX-License-Identifier: Apache-2.0
#include "record/keytypenames.h"

namespace lockscope {

int KeyTypeNames::indexOf(const QByteArray& type)
{
    if (type.isEmpty())
        return 0;
    for (qsizetype i = 1; i < m_names.size(); ++i)
        if (m_names.at(i) == type)
            return int(i);
    if (m_names.size() >= m_capacity)
        return 0;
    m_names.append(type);
    return int(m_names.size() - 1);
}

} // namespace lockscope
