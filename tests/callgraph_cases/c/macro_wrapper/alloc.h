#ifndef ALLOC_H
#define ALLOC_H
#include <stddef.h>

void *xmalloc (size_t n);
void *xcalloc (size_t count, size_t size);
void xfree (void *p);

#define XNEW(T) ((T *) xmalloc (sizeof (T)))
#define XCNEWVEC(T, N) ((T *) xcalloc ((N), sizeof (T)))

#endif
