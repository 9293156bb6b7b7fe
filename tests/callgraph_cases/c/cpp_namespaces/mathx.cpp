#include "mathx.h"

namespace mathx {

namespace detail {
int mul(int a, int b) { return a * b; }
}

int scale(int v, int k)
{
    return detail::mul(v, k);
}

int clamp(int v, int lo, int hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}

}
