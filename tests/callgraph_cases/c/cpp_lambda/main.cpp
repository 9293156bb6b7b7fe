// Lambdas: one stored in `auto` and called, one passed to a function template that
// calls it (std::for_each / std::sort with a comparator).
#include "apply.h"

static int square(int x) { return x * x; }

int main()
{
    auto sq_plus = [](int x) { return square(x) + 1; };
    int a = sq_plus(2);
    int total = 0;
    apply_n(3, [&total](int i) { total += square(i); });
    return a + total;
}
