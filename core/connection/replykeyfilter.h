// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArrayView>

namespace lockscope {

// Which keys of a SCAN page to keep, asked while the page's reply is parsed. A key left out is
// counted and never copied: over a keyspace of mostly other keys (5.5M on five masters, 100k of them
// locks) the parser would otherwise make, and the scanner free, one string for every key.
//
// Whoever sends a SCAN with a filter keeps the filter alive as long as its connection.
class ReplyKeyFilter
{
public:
    virtual ~ReplyKeyFilter() = default;
    virtual bool keeps(QByteArrayView key) const = 0;

protected:
    ReplyKeyFilter() = default;
    ReplyKeyFilter(const ReplyKeyFilter&) = default;
    ReplyKeyFilter& operator=(const ReplyKeyFilter&) = default;
};

} // namespace lockscope
