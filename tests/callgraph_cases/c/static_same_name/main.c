/* Two files each with a file-local (static) function of the same name: each call
   reaches the one of its own file (libiberty's many static helpers). */
#include "a.h"
#include "b.h"

static int check (int v)
{
  return v > 0;
}

int main (void)
{
  return check (a_value ()) && b_value () ? 0 : 1;
}
