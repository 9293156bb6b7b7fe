#ifndef APPLY_H
#define APPLY_H

template <typename F>
void apply_n(int n, F f)
{
    for (int i = 0; i < n; ++i)
        f(i);
}

#endif
