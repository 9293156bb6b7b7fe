/* Function-like macros that expand to calls (libiberty.h's XNEW / XCNEW around
   xmalloc / xcalloc): the expansion's calls are the caller's calls. */
#include "alloc.h"

struct point { int x, y; };

int main (void)
{
  struct point *p = XNEW (struct point);
  int *zeros = XCNEWVEC (int, 4);
  p->x = zeros[0];
  xfree (zeros);
  xfree (p);
  return 0;
}
