#include "strutil.h"

static char
upper (char c)
{
  return (c >= 'a' && c <= 'z') ? (char) (c - 'a' + 'A') : c;
}

void
str_copy_upper (char *dst, const char *src, size_t n)
{
  size_t i;
  for (i = 0; i + 1 < n && src[i]; i++)
    dst[i] = upper (src[i]);
  dst[i] = '\0';
}
