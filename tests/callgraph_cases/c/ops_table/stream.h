#ifndef STREAM_H
#define STREAM_H

struct stream;

struct stream_ops {
  int (*write) (struct stream *s, const char *data);
  void (*close) (struct stream *s);
};

struct stream {
  const struct stream_ops *ops;
  int written;
};

struct stream *stream_open_memory (void);
int stream_write (struct stream *s, const char *data);
void stream_close (struct stream *s);

#endif
