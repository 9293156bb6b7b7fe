/* A prototype in a header, the definition in its own .c file with a static helper
   (libiberty.h declaring xstrdup, xstrdup.c defining it). */
#include <stdio.h>
#include "strutil.h"

int main(void)
{
  char buf[16];
  str_copy_upper(buf, "abc", sizeof buf);
  printf("%s\n", buf);
  return 0;
}
