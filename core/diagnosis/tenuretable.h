// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "diagnosis/scannedtenure.h"
#include "record/recordevent.h"

#include <QByteArray>
#include <QList>

#include <utility>

namespace lockscope {

// The tokens one DoubleGrantScan follows, by token. A scan holds a handful at a time (it prunes
// the rest), and a pass over a full recording makes and drops millions of scans: a list searched
// from its end (the token an event names is most often the last one taken) costs less to walk,
// make and free than a QHash's spans did (a third of `lockctl incidents`' time).
class TenureTable
{
    using Entry = std::pair<QByteArray, ScannedTenure>;
    using List = QList<Entry>;

    template <typename It> class Cursor
    {
    public:
        explicit Cursor(It it) : m_it(it) {}
        const QByteArray& key() const { return m_it->first; }
        auto& value() const { return m_it->second; }
        auto& operator*() const { return m_it->second; }
        auto* operator->() const { return &m_it->second; }
        Cursor& operator++()
        {
            ++m_it;
            return *this;
        }
        bool operator==(const Cursor& other) const { return m_it == other.m_it; }

    private:
        It m_it{};
    };

public:
    using iterator = Cursor<List::iterator>;
    using const_iterator = Cursor<List::const_iterator>;

    iterator begin() { return iterator(m_entries.begin()); }
    iterator end() { return iterator(m_entries.end()); }
    const_iterator begin() const { return cbegin(); }
    const_iterator end() const { return cend(); }
    const_iterator cbegin() const { return const_iterator(m_entries.cbegin()); }
    const_iterator cend() const { return const_iterator(m_entries.cend()); }

    qsizetype size() const { return m_entries.size(); }

    iterator find(const QByteArray& token)
    {
        const qsizetype i = indexOf(token);
        return i < 0 ? end() : iterator(m_entries.begin() + i);
    }
    const_iterator constFind(const QByteArray& token) const
    {
        const qsizetype i = indexOf(token);
        return i < 0 ? cend() : const_iterator(m_entries.cbegin() + i);
    }
    bool contains(const QByteArray& token) const { return indexOf(token) >= 0; }
    // A copy, or an empty tenure for a token it does not follow.
    ScannedTenure value(const QByteArray& token) const
    {
        const qsizetype i = indexOf(token);
        return i < 0 ? ScannedTenure() : m_entries.at(i).second;
    }
    // The token's tenure, a new empty one if it had none (a reference until the next insert).
    ScannedTenure& operator[](const QByteArray& token)
    {
        const qsizetype i = indexOf(token);
        if (i >= 0)
            return m_entries[i].second;
        m_entries.emplace_back(token, ScannedTenure());
        return m_entries.last().second;
    }
    // The token other than `other` that first held a quorum after `afterMs`, until `untilMs`; empty if none.
    QByteArray firstQuorumAfter(const QByteArray& other, qint64 afterMs, qint64 untilMs) const
    {
        const Entry* first = nullptr;
        for (const Entry& e : m_entries)
            if (e.first != other && e.second.quorumAtMs > afterMs && e.second.quorumAtMs <= untilMs &&
                (!first || e.second.quorumAtMs < first->second.quorumAtMs))
                first = &e;
        return first ? first->first : QByteArray();
    }
    // A master holds one value per key: the masters that show `e.token` now hold no other token.
    // A token that had a quorum and lost masters to another token with nothing recorded that
    // explains it (a restart, a failover among `masterEvents`) was replaced in place: deleted by
    // its holder and taken again between two reads, or overwritten. Its scan tells that as
    // possible, as a replacement of the main token is (a token held beside it, contested, had no
    // end of its own in the record).
    void takeMasters(const RecordEvent& e, const QList<RecordEvent>& masterEvents);
    // How soon after a token left a master another one taking it there counts as taking its place.
    static constexpr qint64 retakeWindowMs = 1000;

    // Drops the tenures `pred(token, tenure)` is true of.
    template <typename Pred> void removeIf(Pred pred)
    {
        m_entries.removeIf([&](const Entry& e) { return pred(e.first, e.second); });
    }

private:
    qsizetype indexOf(const QByteArray& token) const
    {
        for (qsizetype i = m_entries.size() - 1; i >= 0; --i)
            if (m_entries.at(i).first == token)
                return i;
        return -1;
    }

    List m_entries;
};

} // namespace lockscope
