from typing import Any, Callable, Optional


class convert_to_response:
    def __init__(self, callback: Callable[..., Any]):
        self.callback = callback

    def __call__(self, request: Any = None) -> Any:
        return self.callback(request, "/", {})


def run_io_loop(func: Callable[[], None]) -> None:
    func()


def retry(func: Callable[[], Any], on_error: Optional[Callable[[Exception], None]] = None) -> Any:
    try:
        return func()
    except ValueError as exc:
        if on_error is not None:
            on_error(exc)
        return None


def list_buckets(request, url, headers):
    return []


def handshake() -> None:
    pass


def connect() -> Any:
    raise ValueError("refused")


def log_error(exc: Exception) -> None:
    pass


view = convert_to_response(list_buckets)
view("GET")
run_io_loop(handshake)
retry(connect, on_error=log_error)
