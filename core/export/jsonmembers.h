// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "export/jsontext.h"

#include <cstring>
#include <initializer_list>
#include <string>
#include <string_view>

namespace lockscope {

// A member whose value the caller has already written as JSON text (`lockctl list`'s "diagnosis",
// `watch`'s "event" and "time"), for JsonMembers to put at its place among the others.
struct JsonMember
{
    const char* name;
    std::string_view json;
};

// One JSON object's members written into a buffer in the order given (callers give QJsonObject's
// order, sorted by name): the commas and the braces in one place. `extra` members (sorted by name,
// none named like a member the caller writes) are merged in where that order puts them.
class JsonMembers
{
public:
    explicit JsonMembers(std::string& out, std::initializer_list<JsonMember> extra = {})
        : m_out(out), m_extra(extra.begin()), m_extraEnd(extra.end())
    {
        m_out += '{';
    }
    ~JsonMembers()
    {
        writeExtraBefore(nullptr);
        m_out += '}';
    }
    JsonMembers(const JsonMembers&) = delete;
    JsonMembers& operator=(const JsonMembers&) = delete;

    // `"key":`, after a comma when it is not the first; the value is the caller's to write.
    template <size_t N> std::string& key(const char (&name)[N])
    {
        writeExtraBefore(name);
        if (m_any)
            m_out += ',';
        m_any = true;
        JsonText::appendKey(m_out, name);
        return m_out;
    }
    template <size_t N> void text(const char (&name)[N], QStringView value)
    {
        JsonText::appendString(key(name), value);
    }
    // escapeBytes(value), as a string.
    template <size_t N> void bytes(const char (&name)[N], const QByteArray& value)
    {
        JsonText::appendBytes(key(name), value);
    }
    template <size_t N> void number(const char (&name)[N], qint64 value)
    {
        JsonText::appendNumber(key(name), value);
    }
    template <size_t N> void boolean(const char (&name)[N], bool value)
    {
        JsonText::appendBool(key(name), value);
    }

private:
    // The extra members that sort before `name` (all that are left for none).
    void writeExtraBefore(const char* name)
    {
        for (; m_extra != m_extraEnd && (!name || std::strcmp(m_extra->name, name) < 0); ++m_extra) {
            if (m_any)
                m_out += ',';
            m_any = true;
            m_out += '"';
            m_out += m_extra->name;
            m_out += "\":";
            m_out += m_extra->json;
        }
    }

    std::string& m_out;
    const JsonMember* m_extra;
    const JsonMember* m_extraEnd;
    bool m_any = false;
};

} // namespace lockscope
