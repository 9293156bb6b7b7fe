# Written from codecs.BufferedIncrementalDecoder: decode() keeps a buffer and calls
# `self._buffer_decode(data, self.errors, final)`, a step whose base version is a bare
# `raise NotImplementedError` (no call); the decoders of `encodings` (utf_16,
# utf_8_sig) override it (here without the decoding itself). The base is also run on its own here, so its step runs too
# and raises.


class BufferedIncrementalDecoder:
    def __init__(self, errors="strict"):
        self.errors = errors
        self.buffer = b""

    def _buffer_decode(self, input, errors, final):
        raise NotImplementedError

    def decode(self, input, final=False):
        data = self.buffer + input
        (result, consumed) = self._buffer_decode(data, self.errors, final)
        self.buffer = data[consumed:]
        return result


class Utf16Decoder(BufferedIncrementalDecoder):
    def _buffer_decode(self, input, errors, final):
        n = len(input) - len(input) % 2
        return input[:n], n


class Utf8SigDecoder(BufferedIncrementalDecoder):
    def _buffer_decode(self, input, errors, final):
        return input, len(input)


def main():
    Utf16Decoder().decode(b"a\x00b")
    Utf8SigDecoder().decode(b"xy")
    try:
        BufferedIncrementalDecoder().decode(b"z")
    except NotImplementedError:
        pass


main()
