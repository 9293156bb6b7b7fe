#include "b.h"

static int check (int v)
{
  return v != 0;
}

int b_value (void)
{
  return check (7);
}
