#include "stack.h"

IntStack::IntStack(int capacity) : data_(new int[capacity]), cap_(capacity), n_(0) {}

IntStack::~IntStack()
{
    delete[] data_;
}

void IntStack::push(int v)
{
    if (n_ == cap_)
        grow();
    data_[n_++] = v;
}

void IntStack::grow()
{
    int *bigger = new int[cap_ * 2];
    for (int i = 0; i < n_; ++i)
        bigger[i] = data_[i];
    delete[] data_;
    data_ = bigger;
    cap_ *= 2;
}
