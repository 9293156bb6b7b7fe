#ifndef STRUTIL_H
#define STRUTIL_H
#include <stddef.h>

extern void str_copy_upper (char *dst, const char *src, size_t n);

#endif
