#include "a.h"

static int check (int v)
{
  return v < 100;
}

int a_value (void)
{
  return check (5) ? 5 : 0;
}
