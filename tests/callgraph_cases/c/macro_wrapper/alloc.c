#include <stdio.h>
#include <stdlib.h>
#include "alloc.h"

static void out_of_memory (size_t n)
{
  fprintf (stderr, "out of memory allocating %lu bytes\n", (unsigned long) n);
  exit (1);
}

void *xmalloc (size_t n)
{
  void *p = malloc (n ? n : 1);
  if (!p)
    out_of_memory (n);
  return p;
}

void *xcalloc (size_t count, size_t size)
{
  void *p = calloc (count ? count : 1, size ? size : 1);
  if (!p)
    out_of_memory (count * size);
  return p;
}

void xfree (void *p)
{
  free (p);
}
