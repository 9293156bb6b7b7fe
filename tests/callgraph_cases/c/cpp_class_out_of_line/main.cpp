// A class declared in a header with its members defined out of line in the .cpp
// (`IntStack::push`), a constructor, and an inline member in the class body
// (libstdc++'s vector::push_back calling _M_realloc_insert).
#include "stack.h"

int main()
{
    IntStack s(2);
    s.push(1);
    s.push(2);
    return s.size() == 2 ? 0 : 1;
}
