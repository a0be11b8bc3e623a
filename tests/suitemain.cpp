// SPDX-License-Identifier: Apache-2.0
// The main() of each program the test files are linked into (tests/support/testregistry.h).
#include "support/testregistry.h"

int main(int argc, char** argv)
{
    return lockscope::test::runRegisteredTest(argc, argv);
}
