#include "each.h"

static hook_fn done_hook;

void for_each (const int *xs, int n, item_fn fn)
{
  int i;
  for (i = 0; i < n; i++)
    fn (xs[i]);
}

void set_done_hook (hook_fn h)
{
  done_hook = h;
}

void finish (void)
{
  if (done_hook)
    done_hook ();
}
