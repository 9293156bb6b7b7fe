/* A callback passed by name and called through the parameter (qsort's comparator,
   curl's CURLOPT_WRITEFUNCTION), and one kept in a global and called later. */
#include <stdio.h>
#include "each.h"

static void print_item (int v)
{
  printf ("%d\n", v);
}

static void on_done (void)
{
  puts ("done");
}

int main (void)
{
  int xs[] = { 1, 2, 3 };
  set_done_hook (on_done);
  for_each (xs, 3, print_item);
  finish ();
  return 0;
}
