#include <stdlib.h>
#include "stream.h"

static int mem_write (struct stream *s, const char *data)
{
  s->written++;
  return data != NULL;
}

static void mem_close (struct stream *s)
{
  free (s);
}

static const struct stream_ops mem_ops = {
  .write = mem_write,
  .close = mem_close,
};

struct stream *stream_open_memory (void)
{
  struct stream *s = calloc (1, sizeof *s);
  s->ops = &mem_ops;
  return s;
}

int stream_write (struct stream *s, const char *data)
{
  return s->ops->write (s, data);
}

void stream_close (struct stream *s)
{
  (*s->ops->close) (s);
}
