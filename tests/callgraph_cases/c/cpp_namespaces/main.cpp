// Free functions in a namespace declared in a header and defined in another file,
// called qualified and through a using-declaration (std::min / using std::swap).
#include "mathx.h"

using mathx::clamp;

namespace {
int twice(int x) { return 2 * x; }
}

int main()
{
    int v = mathx::scale(3, 4);
    return clamp(twice(v), 0, 10);
}
