// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/bytesdisplay.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QHashFunctions>
#include <QString>

#include <array>

namespace lockscope {

// Stored text made safe to show (escapeText of its UTF-8), for a pass over millions of rows whose
// owners and details repeat: the last text seen in each of a few hundred slots is reused, shared,
// instead of decoding and escaping every row's again (two allocations a row).
class EscapedTextCache
{
public:
    const QString& escaped(QByteArrayView raw)
    {
        Slot& slot = m_slots[qHash(raw) % m_slots.size()];
        if (!slot.filled || slot.raw != raw) {
            slot.raw = raw.toByteArray();
            slot.text = escapeText(QString::fromUtf8(raw));
            slot.filled = true;
        }
        return slot.text;
    }

private:
    struct Slot
    {
        bool filled = false;
        QByteArray raw;
        QString text;
    };
    std::array<Slot, 512> m_slots;
};

} // namespace lockscope
