/* A struct of function pointers filled with a designated initializer and called
   through a pointer to it (hashtab.c's hash_f / eq_f / del_f, a driver's ops). */
#include "stream.h"

int main (void)
{
  struct stream *s = stream_open_memory ();
  stream_write (s, "x");
  stream_close (s);
  return 0;
}
