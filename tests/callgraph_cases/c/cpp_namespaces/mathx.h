#ifndef MATHX_H
#define MATHX_H

namespace mathx {
int scale(int v, int k);
int clamp(int v, int lo, int hi);
}

#endif
