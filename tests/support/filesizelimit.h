// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <sys/resource.h>

namespace lockscope::test {

// RLIMIT_FSIZE for this process while in scope: a deterministic "disk full" for the next write that
// goes past `bytes`. SIGXFSZ is ignored, so that write fails with EFBIG instead of killing the test.
class FileSizeLimit final
{
public:
    explicit FileSizeLimit(rlim_t bytes);
    ~FileSizeLimit();
    FileSizeLimit(const FileSizeLimit&) = delete;
    FileSizeLimit& operator=(const FileSizeLimit&) = delete;

private:
    rlimit m_saved = {};
};

} // namespace lockscope::test
