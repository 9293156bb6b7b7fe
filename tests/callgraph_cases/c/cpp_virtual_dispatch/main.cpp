// A virtual call through a base-class reference runs the override of the object's
// dynamic type (std::basic_streambuf's virtual overflow / xsputn); Triangle is
// never made.
#include "shapes.h"

static double report(const Shape &s)
{
    return s.area() + s.perimeter();
}

int main()
{
    Rect r(2, 3);
    return report(r) > 0 ? 0 : 1;
}
